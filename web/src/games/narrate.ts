/** The log's lines: the ones every game shares here, the game's own from its module. */

import type { GameEvent } from "../api/client";
import { seatName } from "./common";
import { gameUi } from "./index";

function humanize(type: string): string {
  const words = type.replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** One log line for an event of a game of type `game` (a summary's `game`, if known yet). */
export function narrate(game: string | undefined, event: GameEvent): string {
  switch (event.type) {
    case "game_created":
      return `Game created: ${event.game}, ${event.players} seat(s); seed commitment ${event.seed_commitment.slice(0, 12)}…`;
    case "seat_joined":
      return `${seatName(event.seat)} is taken by ${event.name}.`;
    case "seat_handed_to_bot":
      return `${seatName(event.seat)} is handed to bot ${event.bot}.`;
    case "seat_taken_back":
      return `${seatName(event.seat)} is taken back from its bot.`;
    case "seat_claimed":
      return `${seatName(event.seat)} is claimed for the rematch.`;
    case "seed_revealed":
      return `The seed is revealed (${event.seed.slice(0, 16)}…): every shuffle can now be checked.`;
    default: {
      const ui = game === undefined ? undefined : gameUi(game);
      return ui?.narrate(event) ?? `${humanize(event.type)}.`;
    }
  }
}
