/**
 * The `random` bot, re-run (docs/protocol.md, "Bot moves"): version 2 draws from the bot
 * stream, block `k` = HMAC-SHA256(seed, "spies-bot/1:<seat>:<v>:<k>"), one `randrange` over
 * the set of legal commands sorted by their canonical bytes; version 1 drew from CPython's
 * Mersenne Twister (`mt.ts`) over the legal commands in the order the rules list them.
 * `greedy` and `expert` are not specified: their moves are reported as not re-run.
 */

import type { Tagged } from "./games/rules";
import { canonicalText, fromPlain, type Plain, utf8 } from "./json";
import { botRng } from "./mt";
import { hmacSha256, type Stream, withBlocks } from "./rng";

/** The versions of `random` this verifier re-runs. */
export const RANDOM_VERSIONS: readonly string[] = ["1", "2"];

/** The bot stream's HMAC message of block `k`. */
export function botStreamMessage(seat: number, v: number, k: number): string {
  return `spies-bot/1:${seat}:${v}:${k}`;
}

/** Blocks `from` to `to - 1` of the bot stream of (seed, seat, v). */
export async function botStreamBlocks(seed: Uint8Array, seat: number, v: number, from: number, to: number): Promise<Uint8Array[]> {
  const messages: Uint8Array[] = [];
  for (let k = from; k < to; k++) messages.push(utf8(botStreamMessage(seat, v, k)));
  return hmacSha256(seed, messages);
}

/** Runs a pure `run` on the bot stream of (seed, seat, v) (see `withBlocks`). */
export async function withBotStream<T>(seed: Uint8Array, seat: number, v: number, run: (stream: Stream) => T): Promise<{ value: T; stream: Stream }> {
  return withBlocks((from, to) => botStreamBlocks(seed, seat, v, from, to), run);
}

/** A command's canonical text. */
export function canonicalCommand(command: Tagged): string {
  return canonicalText(fromPlain(command as unknown as Plain));
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** The set of the legal commands' canonical texts, sorted by their UTF-8 bytes. */
export function canonicalOrder(legal: readonly Tagged[]): string[] {
  const texts = [...new Set(legal.map(canonicalCommand))];
  const keyed = texts.map((text) => ({ text, bytes: utf8(text) }));
  keyed.sort((a, b) => compareBytes(a.bytes, b.bytes));
  return keyed.map((k) => k.text);
}

/**
 * The canonical text of the command `random@<version>` chooses from `legal` at seat `seat`,
 * asked at the game's version `v`, or null when it has no legal command.
 */
export async function randomChoice(version: string, seed: Uint8Array, seat: number, v: number, legal: readonly Tagged[]): Promise<string | null> {
  if (legal.length === 0) return null;
  if (version === "1") {
    const rng = await botRng(seed, seat, v);
    const choice = legal[rng.randrange(legal.length)];
    return choice === undefined ? null : canonicalCommand(choice);
  }
  const ordered = canonicalOrder(legal);
  const { value } = await withBotStream(seed, seat, v, (stream) => ordered[stream.randrange(ordered.length)] ?? null);
  return value;
}
