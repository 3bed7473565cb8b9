/**
 * A verifier's verdict (docs/protocol.md, "Verify"): `ok` with its caveats, or the first
 * problem, a seq (null when none applies) and a stable code.
 */

/** The problem codes of format 1 (docs/protocol.md, "Problem codes"). */
export type ProblemCode =
  | "invalid-export"
  | "unknown-field"
  | "duplicate-key"
  | "missing-event"
  | "out-of-order"
  | "malformed-row"
  | "hash-mismatch"
  | "unknown-game"
  | "head-mismatch"
  | "unexpected-event"
  | "published-head-mismatch"
  | "undecodable-event"
  | "type-mismatch"
  | "missing-game-created"
  | "header-mismatch"
  | "misplaced-command"
  | "misplaced-meta-event"
  | "misplaced-event"
  | "missing-actor"
  | "misplaced-actor"
  | "undecodable-command"
  | "invalid-timestamp"
  | "time-backwards"
  | "event-after-end"
  | "seat-event-invalid"
  | "seed-mismatch"
  | "seed-not-hex"
  | "seed-not-revealed"
  | "premature-reveal"
  | "seed-source-mismatch"
  | "deal-mismatch"
  | "unsupported-rng"
  | "setup-refused"
  | "command-refused"
  | "rederivation-mismatch"
  | "fold-failed"
  | "invariant-broken"
  | "status-mismatch"
  | "outcome-mismatch"
  | "bot-mark-invalid"
  | "bot-mismatch"
  | "bot-mark-missing"
  | "bot-move-mismatch"
  | "clocks-mismatch"
  | "clocks-missing"
  | "clocks-unexpected"
  | "move-after-deadline"
  | "clock-expired-early"
  | "forced-move-missing"
  | "seat-not-handed"
  | "abort-invalid"
  | "orphan-events"
  | "receipt-mismatch"
  | "receipt-key-unknown"
  | "receipt-signature-invalid"
  | "entropy-invalid";

/** The caveats: the verdict stays `ok`. */
export type CaveatCode =
  | "bot-version-unknown"
  | "bot-not-in-build"
  | "bot-version-not-in-build"
  | "bots-not-given"
  | "unmarked-on-handed-seat"
  | "seed-source-predates-deal"
  | "clocks-resumed";

/** One kind of caveat, with the first seq it concerns and how many times it came. */
export interface Caveat {
  readonly code: CaveatCode;
  /** What it concerns: the mark, or the seat and bot (empty when per kind). */
  readonly about: string;
  readonly seq: number;
  readonly count: number;
}

/** The first problem. */
export interface Problem {
  readonly seq: number | null;
  readonly code: ProblemCode;
  readonly message: string;
}

export interface Verdict {
  readonly ok: boolean;
  readonly problem: Problem | null;
  /** `revealed-seed` when every draw was re-derived from the revealed seed, else `not-checked`. */
  readonly rederived: "revealed-seed" | "not-checked";
  /** Marked moves this verifier re-ran and found the same (`random@1`, `random@2`). */
  readonly botMovesRederived: number;
  /** Marked moves it could not re-run (`greedy`, `expert`, unknown bots or versions). */
  readonly botMovesNotRerun: number;
  readonly caveats: readonly Caveat[];
}

/** Thrown inside the verifier: the first problem ends the run. */
export class Failure extends Error {
  readonly problem: Problem;
  constructor(seq: number | null, code: ProblemCode, message: string) {
    super(`${seq ?? "-"} ${code}: ${message}`);
    this.problem = { seq, code, message };
  }
}

/** Fails with a problem. */
export function fail(seq: number | null, code: ProblemCode, message: string): never {
  throw new Failure(seq, code, message);
}
