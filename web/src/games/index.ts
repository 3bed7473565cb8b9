/** The games this client can draw, by game id, and the log lines every game shares. */

import type { GameEvent, View } from "../api/client";
import { blackSpy } from "./blackspy";
import { type BlackSpyView, type DeckView, type GameUi, type SpiesView, seatName, type TableContext } from "./common";
import { deckOfSpies } from "./deck";
import { spiesAndLies } from "./spies";

export type AnyGameUi = GameUi<DeckView> | GameUi<BlackSpyView> | GameUi<SpiesView>;

export const GAMES: readonly AnyGameUi[] = [deckOfSpies, blackSpy, spiesAndLies];

export function gameUi(id: string): AnyGameUi | undefined {
  return GAMES.find((game) => game.id === id);
}

/** The table of the view's own game. */
export function drawTable(ctx: TableContext<View>): HTMLElement {
  const view = ctx.view;
  switch (view.game) {
    case "deck-of-spies":
      return deckOfSpies.table({ ...ctx, view });
    case "black-spy":
      return blackSpy.table({ ...ctx, view });
    case "spies-and-lies":
      return spiesAndLies.table({ ...ctx, view });
  }
}

function humanize(type: string): string {
  const words = type.replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** One log line for an event of any game. */
export function narrate(ui: AnyGameUi | undefined, event: GameEvent): string {
  switch (event.type) {
    case "game_created":
      return `Game created: ${String(event["game"])}, ${String(event["players"])} seat(s); seed commitment ${String(event["seed_commitment"]).slice(0, 12)}…`;
    case "seat_joined":
      return `${seatName(Number(event["seat"]))} is taken by ${String(event["name"])}.`;
    case "seat_handed_to_bot":
      return `${seatName(Number(event["seat"]))} is handed to bot ${String(event["bot"])}.`;
    case "seat_taken_back":
      return `${seatName(Number(event["seat"]))} is taken back from its bot.`;
    case "seat_claimed":
      return `${seatName(Number(event["seat"]))} is claimed for the rematch.`;
    case "seed_revealed":
      return `The seed is revealed (${String(event["seed"]).slice(0, 16)}…): every shuffle can now be checked.`;
    default:
      return ui?.narrate(event) ?? `${humanize(event.type)}.`;
  }
}
