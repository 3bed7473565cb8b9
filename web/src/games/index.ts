/**
 * The games this client can draw: a registry keyed by game id, as the server's. Generic code
 * reaches a game's module only through it, never by switching on a game id.
 */

import type { GameId, Schemas, View, ViewOf } from "../api/client";
import type { Namer } from "../names";
import { blackSpy } from "./blackspy";
import type { Explained, GameUi, TableContext } from "./common";
import { deckOfSpies } from "./deck";
import { spiesAndLies } from "./spies";

/** Each game's module under its id: the type keeps a module from sitting under another id. */
type Registry = { readonly [G in GameId]: GameUi<ViewOf<G>> };

const REGISTRY: Registry = {
  "deck-of-spies": deckOfSpies,
  "black-spy": blackSpy,
  "spies-and-lies": spiesAndLies,
};

export type AnyGameUi = Registry[GameId];

/** Every game, in the lobby's order. */
export const GAMES: readonly AnyGameUi[] = Object.values(REGISTRY);

/** Whether `id` (a summary's `game`, a form's choice) names a game this client draws. */
export function isGameId(id: string): id is GameId {
  return Object.hasOwn(REGISTRY, id);
}

/** The module of game `id`, if this client knows the game. */
export function gameUi(id: string): AnyGameUi | undefined {
  return isGameId(id) ? REGISTRY[id] : undefined;
}

/**
 * The module of a view's game, typed for that view. Called with a view's own `game` tag, so
 * the module always gets a view of its game (TypeScript cannot tie the tag of a union to its
 * member by itself: the generic signature is what keeps the two together).
 */
function moduleOf<G extends GameId>(game: G): GameUi<ViewOf<G>> {
  return REGISTRY[game];
}

/** The table of the view's own game. */
export function drawTable(ctx: TableContext<View>): HTMLElement {
  return moduleOf(ctx.view.game).table(ctx);
}

/** The cards a selection points into, as the view's game says (see {@link GameUi.handKey}). */
export function handKey(view: View): string {
  return moduleOf(view.game).handKey(view);
}

/** Why the view's game ended, in its own words (see {@link GameUi.explain}). */
export function explainOutcome(view: View, outcome: Schemas["Outcome"], name: Namer): Explained {
  return moduleOf(view.game).explain(view, outcome, name);
}

/** The legend of the view's game's symbols, if it has one. */
export function drawLegend(view: View): HTMLElement | null {
  return moduleOf(view.game).legend?.(view) ?? null;
}
