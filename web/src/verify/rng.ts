/**
 * The randomness of `hmac-sha256-fisher-yates/1` (docs/protocol.md, "The random stream"):
 * SHA-256 and HMAC-SHA256 through WebCrypto (Node and browsers alike), the stream of a
 * (seed, nonce), `randrange` and the shuffle.
 *
 * WebCrypto is asynchronous and the rules are not: a stream holds the blocks computed so far
 * and throws `StreamExhausted` past them; `withStream` runs a pure function on a stream and,
 * when it ran out, computes more blocks and runs the function again.
 */

import { utf8 } from "./json";

const subtle = (): SubtleCrypto => globalThis.crypto.subtle;
// WebCrypto takes bytes over an ArrayBuffer of their own.
const own = (data: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(data);

/** SHA-256 of some bytes. */
export async function sha256(data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await subtle().digest("SHA-256", own(data)));
}

/** HMAC-SHA256 keyed by `key` of each message, in order. */
export async function hmacSha256(key: Uint8Array, messages: readonly Uint8Array[]): Promise<Uint8Array[]> {
  // An empty key is not a valid HMAC key for WebCrypto; HMAC pads it with zeros anyway, so a
  // key of one zero byte is the same key (RFC 2104: keys are zero-padded to the block size).
  const raw = key.length === 0 ? new Uint8Array(1) : key;
  const k = await subtle().importKey("raw", own(raw), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return Promise.all(messages.map(async (m) => new Uint8Array(await subtle().sign("HMAC", k, own(m)))));
}

/** Lower-case hex of some bytes. */
export function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Bytes of strict lower- or upper-case hex (an even number of digits), or null. */
export function fromHex(text: string): Uint8Array | null {
  if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) return null;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/**
 * A revealed seed's bytes, read as Python's `bytes.fromhex` reads them: pairs of hex digits
 * (either case), ASCII white space allowed between pairs; null when it does not read.
 */
export function seedFromHex(text: string): Uint8Array | null {
  const bytes: number[] = [];
  let i = 0;
  const white = (c: string | undefined): boolean =>
    c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\v" || c === "\f";
  for (;;) {
    while (i < text.length && white(text[i])) i++;
    if (i >= text.length) break;
    const pair = text.slice(i, i + 2);
    if (!/^[0-9a-fA-F]{2}$/.test(pair)) return null;
    bytes.push(Number.parseInt(pair, 16));
    i += 2;
  }
  return new Uint8Array(bytes);
}

/** Thrown by a stream read past the blocks it holds. */
export class StreamExhausted extends Error {}

/** The bytes of one (seed, nonce) stream, read in order from its first byte. */
export class Stream {
  private readonly blocks: readonly Uint8Array[];
  private offset = 0;
  /** Every `randrange` call so far, as [n, result]. */
  readonly draws: [bigint, bigint][] = [];
  /** Every word read so far, and whether `randrange` accepted it. */
  readonly words: { readonly word: bigint; readonly accepted: boolean }[] = [];

  constructor(blocks: readonly Uint8Array[]) {
    this.blocks = blocks;
  }

  private byte(at: number): number {
    const block = this.blocks[Math.floor(at / 32)];
    if (block === undefined) throw new StreamExhausted();
    return block[at % 32] ?? 0;
  }

  /** The next 8 bytes as an unsigned big-endian integer. */
  word(): bigint {
    let x = 0n;
    for (let i = 0; i < 8; i++) x = (x << 8n) | BigInt(this.byte(this.offset + i));
    this.offset += 8;
    return x;
  }

  /** `randrange(n)` for any `n >= 1` (docs/protocol.md, "randrange"). */
  randrangeBig(n: bigint): bigint {
    if (n < 1n) throw new RangeError("randrange of an empty range");
    const limit = 2n ** 64n - ((2n ** 64n) % n);
    for (;;) {
      const x = this.word();
      this.words.push({ word: x, accepted: x < limit });
      if (x < limit) {
        const r = x % n;
        this.draws.push([n, r]);
        return r;
      }
    }
  }

  /** `randrange(n)` for the small `n` the games draw. */
  randrange(n: number): number {
    return Number(this.randrangeBig(BigInt(n)));
  }

  /** A new list: Fisher-Yates from the last index down (docs/protocol.md, "The shuffle"). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i >= 1; i--) {
      const j = this.randrange(i + 1);
      const a = out[i] as T;
      out[i] = out[j] as T;
      out[j] = a;
    }
    return out;
  }
}

/** The stream's HMAC message of block `k`. */
export function streamMessage(nonce: number, k: number): string {
  return `spies/1:${nonce}:${k}`;
}

/** Blocks `from` to `to - 1` of the stream of (seed, nonce). */
export async function streamBlocks(seed: Uint8Array, nonce: number, from: number, to: number): Promise<Uint8Array[]> {
  const messages: Uint8Array[] = [];
  for (let k = from; k < to; k++) messages.push(utf8(streamMessage(nonce, k)));
  return hmacSha256(seed, messages);
}

/**
 * Runs `run` on the stream of (seed, nonce), with more blocks each time it runs out: `run`
 * must be pure (it is run again from the start). Returns its value and the stream it read.
 */
export async function withStream<T>(seed: Uint8Array, nonce: number, run: (stream: Stream) => T): Promise<{ value: T; stream: Stream }> {
  return withBlocks((from, to) => streamBlocks(seed, nonce, from, to), run);
}

/**
 * Runs `run` on a stream whose blocks `from` to `to - 1` `more` computes, with more blocks
 * each time it runs out (`run` must be pure: it is run again from the start).
 */
export async function withBlocks<T>(more: (from: number, to: number) => Promise<Uint8Array[]>, run: (stream: Stream) => T): Promise<{ value: T; stream: Stream }> {
  const blocks: Uint8Array[] = [];
  let want = 2;
  for (;;) {
    if (blocks.length < want) blocks.push(...(await more(blocks.length, want)));
    const stream = new Stream(blocks);
    try {
      return { value: run(stream), stream };
    } catch (error) {
      if (!(error instanceof StreamExhausted)) throw error;
      want *= 2;
    }
  }
}

/**
 * `spies-entropy/1` (docs/protocol.md, "Entropy"): HMAC-SHA256 keyed by the server seed over
 * ASCII "spies-entropy/1" and each contribution as its length in 4 bytes big-endian and its
 * bytes, the creator's (seat null, given as -1) first, then the joiners' by seat.
 */
export async function mixSeed(seed: Uint8Array, added: readonly { readonly seat: number; readonly bytes: Uint8Array }[]): Promise<Uint8Array> {
  const ordered = [...added].sort((a, b) => a.seat - b.seat);
  const label = new TextEncoder().encode("spies-entropy/1");
  const message = new Uint8Array(label.length + ordered.reduce((n, p) => n + 4 + p.bytes.length, 0));
  message.set(label);
  let at = label.length;
  for (const { bytes } of ordered) {
    new DataView(message.buffer).setUint32(at, bytes.length);
    message.set(bytes, at + 4);
    at += 4 + bytes.length;
  }
  const [mix] = await hmacSha256(seed, [message]);
  if (mix === undefined) throw new Error("no HMAC");
  return mix;
}
