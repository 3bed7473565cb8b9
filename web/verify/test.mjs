// `npm --prefix web test`: runs the verifier over every vector of docs/protocol/vectors/ and
// expects exactly the verdicts the vector files give (one test per vector).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import test from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildNode } from "./build.mjs";

const vectorsDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "docs", "protocol", "vectors");
const { checkVectors } = await import(pathToFileURL(await buildNode()).href);
const checks = await checkVectors((path) => new Uint8Array(readFileSync(join(vectorsDir, path))));

test("every vector file is checked", () => {
  for (const part of ["canonical", "stream", "randrange", "shuffle", "setup", "hashes", "bot-rng", "exports"]) {
    assert.ok(checks.some((c) => c.name.startsWith(`${part}:`)), `no check of ${part}`);
  }
});
for (const c of checks) {
  test(c.name, () => assert.ok(c.ok, c.detail));
}
