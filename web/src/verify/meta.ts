/**
 * The log's meta events (docs/protocol.md, "Meta events") and the seat table they change.
 */

import { arrayOf, event, nullable, oneOf, opt, req, type Shape } from "./decode";

const seatState: Shape = {
  fields: {
    seat: req("int"),
    type: opt(oneOf("bot", "creator", "joined", "open"), "creator"),
    name: opt(nullable("string"), null),
    bot: opt(nullable("string"), null),
  },
};

const timeControl: Shape = {
  fields: {
    turn_seconds: opt(nullable("number"), null),
    budget_seconds: opt(nullable("number"), null),
    increment_seconds: opt("number", 0),
    on_timeout: opt(oneOf("bot", "forfeit"), "bot"),
    timeout_bot: opt("string", "greedy"),
    abandon_after: opt(nullable("int"), null),
  },
  closed: true,
};

const seatTime: Shape = {
  fields: {
    seat: req("int"),
    remaining_ms: req(nullable("int")),
    since_ms: opt(nullable("int"), null),
    timeouts: opt("int", 0),
  },
};

/** Every meta event's shape, by tag. */
export const META_EVENTS = new Map<string, Shape>([
  [
    "game_created",
    event("game_created", {
      game: req("string"),
      players: req("int"),
      options: req("object"),
      seed_commitment: req("string"),
      seed_source: req(oneOf("client", "deal", "mixed", "server")),
      rng: req("string"),
      created_at: opt(nullable("string"), null),
      deal_commitment: opt(nullable("string"), null),
      seats: opt(nullable(arrayOf(seatState)), null),
      rematch_of: opt(nullable("string"), null),
      clock: opt(nullable(timeControl), null),
      deal_deferred: opt("bool", false),
      open_until: opt(nullable("string"), null),
    }),
  ],
  ["seat_joined", event("seat_joined", { seat: req("int"), name: req("string") })],
  ["seat_claimed", event("seat_claimed", { seat: req("int") })],
  ["seat_handed_to_bot", event("seat_handed_to_bot", { seat: req("int"), bot: req("string") })],
  ["seat_taken_back", event("seat_taken_back", { seat: req("int") })],
  [
    "clocks_updated",
    event("clocks_updated", { seats: req(arrayOf(seatTime)), moved: opt(nullable("int"), null), used_ms: opt(nullable("int"), null) }),
  ],
  [
    "clock_expired",
    event("clock_expired", { seat: req("int"), deadline: req("string"), timeouts: req("int"), forfeit: opt("bool", false) }),
  ],
  ["clocks_resumed", event("clocks_resumed", { since: req("string") })],
  ["game_aborted", event("game_aborted", { reason: req(oneOf("abandoned", "aborted")), detail: req("string") })],
  ["seed_revealed", event("seed_revealed", { seed: req("string"), deal: opt("any", null) })],
  ["entropy_added", event("entropy_added", { seat: req(nullable("int")), entropy: req("string") })],
]);

export const SEAT_EVENTS: ReadonlySet<string> = new Set(["seat_joined", "seat_claimed", "seat_handed_to_bot", "seat_taken_back"]);
export const CLOCK_EVENTS: ReadonlySet<string> = new Set(["clocks_updated", "clock_expired", "clocks_resumed"]);

/** One seat's holder. */
export interface Seat {
  readonly seat: number;
  readonly type: "bot" | "creator" | "joined" | "open";
  readonly name: string | null;
  readonly bot: string | null;
}

/**
 * The seat table after a seat event, or null when the event names no seat of the game or
 * does not fit it.
 */
export function seatEvent(seats: readonly Seat[], type: string, seat: number, value: string | null): Seat[] | null {
  const s = seats[seat];
  if (s === undefined) return null;
  const put = (next: Seat): Seat[] => seats.map((x, i) => (i === seat ? next : x));
  const held = s.type === "creator" || s.type === "joined";
  switch (type) {
    case "seat_joined":
      return s.type === "open" ? put({ ...s, type: "joined", name: value }) : null;
    case "seat_claimed":
      return held ? [...seats] : null;
    case "seat_handed_to_bot":
      return held ? put({ ...s, bot: value }) : null;
    case "seat_taken_back":
      return s.bot !== null && s.type !== "bot" ? put({ ...s, bot: null }) : null;
    default:
      return null;
  }
}
