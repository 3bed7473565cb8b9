/** The log's lines: the ones every game shares here, the game's own from its module. */

import type { GameEvent } from "../api/client";
import { T } from "../i18n/index";
import type { Namer } from "../names";
import { gameUi } from "./index";

/** A sentence starts with a capital, even when a name opens it ("Seat 2 ...", "Bot greedy ..."). */
function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function humanize(type: string): string {
  return capitalised(type.replaceAll("_", " "));
}

/** Events that the live log leaves out: every move's clock record (the clocks show it). */
export function quietInLog(event: GameEvent): boolean {
  return event.type === "clocks_updated";
}

/** One log line for an event of a game of type `game` (a summary's `game`, if known yet). */
export function narrate(game: string | undefined, event: GameEvent, name: Namer): string {
  return capitalised(sentence(game, event, name));
}

function sentence(game: string | undefined, event: GameEvent, name: Namer): string {
  switch (event.type) {
    case "game_created":
      return T.evCreated(gameUi(event.game)?.title ?? event.game, event.players, event.seed_commitment.slice(0, 12));
    case "seat_joined":
      return T.evJoined(T.seat(event.seat), event.name);
    case "seat_handed_to_bot":
      return T.evHanded(name(event.seat), event.bot);
    case "seat_taken_back":
      return T.evTakenBack(name(event.seat));
    case "seat_claimed":
      return T.evClaimed(name(event.seat));
    case "entropy_added":
      return T.evEntropy(event.seat === null || event.seat === undefined ? null : name(event.seat));
    case "seed_revealed":
      return T.evSeed(event.seed.slice(0, 16));
    case "clock_expired":
      return event.forfeit ? T.evForfeit(name(event.seat)) : T.evExpired(name(event.seat));
    case "clocks_resumed":
      return T.evResumed;
    case "clocks_updated":
      return T.evClocks;
    case "game_aborted":
      return event.reason === "abandoned" ? T.evAbandoned(event.detail) : T.evAborted(event.detail);
    default: {
      const ui = game === undefined ? undefined : gameUi(game);
      return ui?.narrate(event, name) ?? T.evOther(humanize(event.type));
    }
  }
}
