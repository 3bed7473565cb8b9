// `npm --prefix web run verify -- FILE...`: verifies each export; a line per file (`FILE: ok`
// and its caveats, or `FILE: seq N CODE: message`; with --json, the verdict as one JSON object
// per line); exit 0 when every file verifies, 1 otherwise, 2 on a usage error.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { buildNode } from "./build.mjs";

const usage =
  "usage: npm --prefix web run verify -- [--head HASH] [--receipt R.json]... [--keys KEYS.json] [--no-bots] [--json] FILE...";
const args = process.argv.slice(2);
const files = [];
const receiptFiles = [];
let keysFile;
let head;
let bots = true;
let json = false;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === "--head") {
    head = args[++i];
    if (head === undefined) {
      console.error(usage);
      process.exit(2);
    }
  } else if (a === "--receipt" || a === "--keys") {
    const file = args[++i];
    if (file === undefined) {
      console.error(usage);
      process.exit(2);
    }
    if (a === "--receipt") receiptFiles.push(file);
    else keysFile = file;
  } else if (a === "--no-bots") bots = false;
  else if (a === "--json") json = true;
  else if (a === "-h" || a === "--help") {
    console.log(usage);
    process.exit(0);
  } else if (a.startsWith("--")) {
    console.error(`unknown option ${a}\n${usage}`);
    process.exit(2);
  } else files.push(a);
}
if (files.length === 0) {
  console.error(usage);
  process.exit(2);
}
const { verifyExport, reportLines, asReceipt, asKeyList } = await import(pathToFileURL(await buildNode()).href);
// npm runs scripts in web/: a relative path is the caller's (npm keeps its directory in INIT_CWD).
const base = process.env.INIT_CWD ?? process.cwd();
/** A JSON file the options name, parsed by `as` (null: not that), or exit 2. */
function readJson(file, as, what) {
  let value;
  try {
    value = as(JSON.parse(readFileSync(resolve(base, file), "utf8")));
  } catch (error) {
    console.error(`${file}: cannot read: ${error.message}`);
    process.exit(2);
  }
  if (value === null) {
    console.error(`${file} is not ${what}`);
    process.exit(2);
  }
  return value;
}
const receipts = receiptFiles.map((file) => readJson(file, asReceipt, "a receipt"));
const keys = keysFile === undefined ? undefined : readJson(keysFile, asKeyList, "GET /keys's answer");
let failed = false;
for (const file of files) {
  let data;
  try {
    data = readFileSync(resolve(base, file));
  } catch (error) {
    console.log(`${file}: cannot read: ${error.message}`);
    failed = true;
    continue;
  }
  const verdict = await verifyExport(new Uint8Array(data), { head, bots, receipts, keys });
  if (json) console.log(JSON.stringify({ file, ...verdict }));
  else for (const line of reportLines(file, verdict)) console.log(line);
  if (!verdict.ok) failed = true;
}
process.exit(failed ? 1 : 0);
