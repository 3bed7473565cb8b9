// Bundles the verifier for Node (src/verify/node.ts) into .cache/, for the command line and the tests.
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Builds the Node bundle and returns its path. */
export async function buildNode() {
  const out = join(web, ".cache", "verify-node.mjs");
  mkdirSync(dirname(out), { recursive: true });
  await build({
    entryPoints: [join(web, "src", "verify", "node.ts")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    outfile: out,
    logLevel: "warning",
  });
  return out;
}
