/**
 * Signed receipts (docs/protocol.md, "Receipts"): the server's Ed25519 signature that a game's
 * log was at a seq with a head hash. Checked after the log (step 5 of "Verify"): with the
 * server's keys (`GET /keys`) the signature first, then that the log holds the head at the seq.
 * Ed25519 is WebCrypto's (Node 20 and current browsers).
 */

import { utf8 } from "./json";
import type { ProblemCode } from "./verdict";

/** A receipt, as the server's answers carry it. */
export interface Receipt {
  readonly game_id: string;
  readonly seq: number;
  readonly head_hash: string;
  readonly key_id: string;
  readonly signature: string;
}

/** A key of `GET /keys`. */
export interface PublicKey {
  readonly key_id: string;
  readonly algorithm: string;
  readonly public_key: string;
}

/** The answer of `GET /keys`. */
export interface KeyList {
  readonly keys: readonly PublicKey[];
}

const FIELDS = ["game_id", "seq", "head_hash", "key_id", "signature"];
const HEX64 = /^[0-9a-f]{64}$/;

/** A receipt from parsed JSON: an object of exactly its five fields and their types, or null. */
export function asReceipt(value: unknown): Receipt | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  const keys = Object.keys(v);
  if (keys.length !== FIELDS.length || !FIELDS.every((f) => keys.includes(f))) return null;
  const { game_id, seq, head_hash, key_id, signature } = v;
  if (typeof game_id !== "string" || typeof head_hash !== "string" || typeof key_id !== "string" || typeof signature !== "string") return null;
  if (typeof seq !== "number" || !Number.isSafeInteger(seq)) return null;
  return { game_id, seq, head_hash, key_id, signature };
}

/** A key list from parsed JSON (`{"keys": [...]}`), or null. */
export function asKeyList(value: unknown): KeyList | null {
  if (typeof value !== "object" || value === null) return null;
  const list = (value as { keys?: unknown }).keys;
  if (!Array.isArray(list)) return null;
  const keys: PublicKey[] = [];
  for (const k of list as unknown[]) {
    if (typeof k !== "object" || k === null) return null;
    const { key_id, algorithm, public_key } = k as Record<string, unknown>;
    if (typeof key_id !== "string" || typeof algorithm !== "string" || typeof public_key !== "string") return null;
    keys.push({ key_id, algorithm, public_key });
  }
  return { keys };
}

/** The bytes a receipt signs: `spies-receipt/1\n{game_id}\n{seq}\n{head_hash}`. */
export function receiptMessage(gameId: string, seq: number, headHash: string): Uint8Array {
  return utf8(`spies-receipt/1\n${gameId}\n${seq}\n${headHash.toLowerCase()}`);
}

/** Unpadded base64url as bytes, or null. */
export function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  const raw = atob(b64);
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

const own = (data: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(data);

/** Whether `signature` is `publicKey`'s Ed25519 signature of `message`. */
export async function ed25519Verify(publicKey: Uint8Array, signature: Uint8Array, message: Uint8Array): Promise<boolean> {
  const key = await crypto.subtle.importKey("raw", own(publicKey), { name: "Ed25519" }, false, ["verify"]);
  return crypto.subtle.verify({ name: "Ed25519" }, key, own(signature), own(message));
}

/** What is wrong with a receipt against a chained log (its hashes in seq order), or null. */
export async function receiptProblem(
  r: Receipt,
  gameId: string,
  hashes: readonly string[],
  keys: KeyList | undefined,
): Promise<readonly [ProblemCode, string] | null> {
  if (keys !== undefined) {
    const listed = keys.keys.find((k) => k.key_id === r.key_id);
    if (listed === undefined || listed.algorithm !== "ed25519") return ["receipt-key-unknown", `no ed25519 key '${r.key_id}' is listed`];
    const pub = fromBase64Url(listed.public_key);
    const sig = fromBase64Url(r.signature);
    if (pub === null || pub.length !== 32 || sig === null || sig.length !== 64) {
      return ["receipt-signature-invalid", "the key or the signature is not of its size"];
    }
    if (!(await ed25519Verify(pub, sig, receiptMessage(r.game_id, r.seq, r.head_hash)))) {
      return ["receipt-signature-invalid", "the signature is not the key's over the receipt"];
    }
  }
  if (!HEX64.test(r.head_hash)) return ["receipt-mismatch", "the receipt's head hash is not 64 lower-case hex digits"];
  if (r.game_id !== gameId) return ["receipt-mismatch", `the receipt is game '${r.game_id}''s, not this one's`];
  if (r.seq < 1 || r.seq > hashes.length) return ["receipt-mismatch", `the log has no seq ${r.seq}: it ends at ${hashes.length}`];
  const at = hashes[r.seq - 1] ?? "";
  if (at !== r.head_hash) return ["receipt-mismatch", `the log's hash at seq ${r.seq} is ${at.slice(0, 16)}…, not the receipt's ${r.head_hash.slice(0, 16)}…`];
  return null;
}
