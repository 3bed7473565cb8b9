// `npm --prefix web test`: runs the verifier over every vector of docs/protocol/vectors/ and
// expects exactly the verdicts the vector files give (one test per vector), then forgeries of
// their exports beyond those the vectors hold, each with the first problem it must be refused for.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import test from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildNode } from "./build.mjs";

const vectorsDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "docs", "protocol", "vectors");
const { checkVectors, checkForgeries } = await import(pathToFileURL(await buildNode()).href);
const read = (path) => new Uint8Array(readFileSync(join(vectorsDir, path)));
const checks = [...(await checkVectors(read)), ...(await checkForgeries(read))];

test("every vector file is checked", () => {
  for (const part of ["canonical", "stream", "randrange", "shuffle", "setup", "hashes", "bot-rng", "bot-stream", "exports", "receipts"]) {
    assert.ok(checks.some((c) => c.name.startsWith(`${part}:`)), `no check of ${part}`);
  }
});
for (const c of checks) {
  test(c.name, () => assert.ok(c.ok, c.detail));
}
