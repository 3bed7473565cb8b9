/**
 * The clocks' arithmetic (docs/protocol.md, "Clocks"): integers of milliseconds, each
 * operation a pure function of the seats' clocks and the batch's time.
 */

/** A time control as `game_created.clock` records it. */
export interface TimeControl {
  readonly turn_seconds: number | null;
  readonly budget_seconds: number | null;
  readonly increment_seconds: number;
  readonly on_timeout: "bot" | "forfeit";
  readonly timeout_bot: string;
  readonly abandon_after: number | null;
}

/** A time control's limits in milliseconds. */
export interface Limits {
  readonly turn: number | null;
  readonly budget: number | null;
  readonly increment: number;
}

/** One seat's clock, as `clocks_updated` writes it. */
export interface SeatClock {
  readonly seat: number;
  readonly remaining_ms: number | null;
  readonly since_ms: number | null;
  readonly timeouts: number;
}

/** Rounds to the nearest integer, ties to even (Python's `round`). */
export function roundHalfEven(x: number): number {
  const f = Math.floor(x);
  const diff = x - f;
  if (diff > 0.5) return f + 1;
  if (diff < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

/** The limits of a time control: `round(seconds × 1000)` on doubles. */
export function limits(clock: TimeControl): Limits {
  const ms = (s: number | null): number | null => (s === null ? null : roundHalfEven(s * 1000));
  return { turn: ms(clock.turn_seconds), budget: ms(clock.budget_seconds), increment: ms(clock.increment_seconds) ?? 0 };
}

/** A running clock's deadline: `since + min(turn, remaining)` over those not null; else null. */
export function deadline(limit: Limits, c: SeatClock): number | null {
  if (c.since_ms === null) return null;
  const spans = [limit.turn, c.remaining_ms].filter((x): x is number => x !== null);
  return spans.length === 0 ? null : c.since_ms + Math.min(...spans);
}

/** What charging a clock at `at` used. */
const used = (c: SeatClock, at: number): number => (c.since_ms === null ? 0 : Math.max(0, at - c.since_ms));

/** charge(seat, increment). */
function charge(c: SeatClock, at: number, increment: number): SeatClock {
  const u = used(c, at);
  return { ...c, remaining_ms: c.remaining_ms === null ? null : Math.max(0, c.remaining_ms - u) + increment, since_ms: null };
}

/** run(to_act): the seats to act start, the others running are charged without increment. */
export function run(clocks: readonly SeatClock[], toAct: readonly number[], at: number): SeatClock[] {
  return clocks.map((c) => {
    if (toAct.includes(c.seat)) return c.since_ms === null ? { ...c, since_ms: at } : c;
    return c.since_ms === null ? c : charge(c, at, 0);
  });
}

/** start: every seat with the budget, not running, then run(to_act). */
export function start(limit: Limits, players: number, toAct: readonly number[], at: number): SeatClock[] {
  const fresh = Array.from({ length: players }, (_, seat) => ({ seat, remaining_ms: limit.budget, since_ms: null, timeouts: 0 }));
  return run(fresh, toAct, at);
}

/** move(seat, forced): the seat charged with the increment; its timeouts reset unless forced. */
export function move(
  limit: Limits,
  clocks: readonly SeatClock[],
  seat: number,
  forced: boolean,
  at: number,
): { clocks: SeatClock[]; used: number } {
  let spent = 0;
  const after = clocks.map((c) => {
    if (c.seat !== seat) return c;
    spent = used(c, at);
    const charged = charge(c, at, limit.increment);
    return forced ? charged : { ...charged, timeouts: 0 };
  });
  return { clocks: after, used: spent };
}

/** expire(seat): nothing left, not running, one more timeout. */
export function expire(clocks: readonly SeatClock[], seat: number): SeatClock[] {
  return clocks.map((c) =>
    c.seat === seat ? { ...c, remaining_ms: c.remaining_ms === null ? null : 0, since_ms: null, timeouts: c.timeouts + 1 } : c,
  );
}

/** resume: every running clock restarts at `at`. */
export function resume(clocks: readonly SeatClock[], at: number): SeatClock[] {
  return clocks.map((c) => (c.since_ms === null ? c : { ...c, since_ms: at }));
}
