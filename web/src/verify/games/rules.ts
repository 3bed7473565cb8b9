/**
 * What the verifier asks of each game's rules (docs/protocol.md, "Deck of Spies", "Black Spy",
 * "Spies & Lies"): its events and commands, the set-up, each command's events, folding an
 * event into the state, who is to act, the outcome, the legal commands (for the `random`
 * bot) and the invariants.
 */

import type { Shape } from "../decode";
import type { Plain } from "../json";
import type { Stream } from "../rng";

/** An event or a command as plain data, tagged by `type`. */
export interface Tagged {
  readonly type: string;
  readonly [key: string]: Plain;
}

/** How a game ended, as every summary writes it. */
export interface Outcome {
  readonly winners: readonly number[];
  readonly reason: string;
  readonly draw: boolean;
  readonly scores: readonly number[];
}

/** The rules refuse something (options, a deal, a command). */
export class Refused extends Error {}

/** An event that cannot be applied to the state. */
export class FoldFailed extends Error {}

/** One game's rules, over its own state type. */
export interface Rules<S> {
  readonly game: string;
  /** Each event's shape, by tag. */
  readonly events: ReadonlyMap<string, Shape>;
  /** Each command's shape, by tag. */
  readonly commands: ReadonlyMap<string, Shape>;
  /** The set-up's events (a fresh stream of nonce 0); throws Refused. */
  start(players: number, options: { readonly [key: string]: Plain }, deal: Plain, stream: Stream): Tagged[];
  /** The state after one more event (null before the first); throws FoldFailed. */
  fold(state: S | null, event: Tagged): S;
  /** The events of a seat's command; throws Refused. */
  decide(state: S, seat: number, command: Tagged, stream: Stream): Tagged[];
  /** The seats the rules say are to act. */
  toAct(state: S): number[];
  /** How the game ended, or null while it goes on. */
  outcome(state: S): Outcome | null;
  /** The outcome of a forfeit on time by `seat`; throws Refused for a game that cannot be forfeited. */
  forfeit(state: S, seat: number): Outcome;
  /** A seat's legal commands, in the order this verifier assumes for `random@1`. */
  legal(state: S, seat: number): Tagged[];
  /** A broken invariant, or null. */
  invariant(state: S): string | null;
}

/**
 * Runs `step` on a working copy of the state, collecting the events it emits: `emit` folds
 * each one at once, so the rules decide on the state as the log will leave it.
 */
export function emitting<S>(
  rules: Pick<Rules<S>, "fold">,
  state: S | null,
  step: (emit: (event: Tagged) => S, current: () => S | null) => void,
): Tagged[] {
  const events: Tagged[] = [];
  let now = state;
  step(
    (event) => {
      events.push(event);
      now = rules.fold(now, event);
      return now;
    },
    () => now,
  );
  return events;
}

/** Whether two lists hold the same items, counted (order ignored). */
export function sameMultiset<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  const counts = new Map<T, number>();
  for (const x of a) counts.set(x, (counts.get(x) ?? 0) + 1);
  for (const x of b) {
    const n = counts.get(x) ?? 0;
    if (n === 0) return false;
    counts.set(x, n - 1);
  }
  return true;
}

/** `items` without one occurrence of each of `gone`; null when one is missing. */
export function without<T>(items: readonly T[], gone: readonly T[]): T[] | null {
  const out = [...items];
  for (const g of gone) {
    const i = out.indexOf(g);
    if (i < 0) return null;
    out.splice(i, 1);
  }
  return out;
}

/** Whether a value is a plain object (not an array, not null). */
export function isRecord(value: Plain | undefined): value is { readonly [key: string]: Plain } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
