// Builds the web client into the Python package (src/spies_api/static/), deterministically:
// the same sources and lock file give the same bytes (no timestamps, no content hashes).
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", "src", "spies_api", "static");
const web = join(out, "web");
const docs = join(out, "docs");

rmSync(out, { recursive: true, force: true });
mkdirSync(web, { recursive: true });
mkdirSync(docs, { recursive: true });

// The JavaScript bundles: the client (app.js), and the second verifier (src/verify/) in a
// bundle of its own (verify.js) that the replay page imports when it shows a finished game,
// so no other page loads it.
const scripts = {
  bundle: true,
  minify: true,
  format: "esm",
  target: "es2022",
  charset: "utf8",
  legalComments: "none",
  logLevel: "warning",
};
await build({
  ...scripts,
  entryPoints: [join(here, "src", "main.ts")],
  outfile: join(web, "app.js"),
  // The rule references (docs/rules/*.md) and their German summaries are bundled as text.
  loader: { ".md": "text" },
});
await build({ ...scripts, entryPoints: [join(here, "src", "verify", "browser.ts")], outfile: join(web, "verify.js") });
await build({
  entryPoints: [join(here, "src", "app.css")],
  bundle: true,
  minify: true,
  charset: "utf8",
  outfile: join(web, "app.css"),
  logLevel: "warning",
});
writeFileSync(join(web, "index.html"), readFileSync(join(here, "src", "index.html")));

// The interactive API docs at /schema (Swagger UI), served from the package instead of a CDN.
// (Redoc is left out: its bundle loads a logo from its CDN whatever the options.)
const modules = join(here, "node_modules");
const assets = [
  ["swagger-ui-dist/swagger-ui-bundle.js", "swagger-ui-bundle.js"],
  ["swagger-ui-dist/swagger-ui-standalone-preset.js", "swagger-ui-standalone-preset.js"],
  ["swagger-ui-dist/swagger-ui.css", "swagger-ui.css"],
  ["swagger-ui-dist/LICENSE", "swagger-ui.LICENSE"],
];
for (const [from, to] of assets) {
  copyFileSync(join(modules, from), join(docs, to));
}
