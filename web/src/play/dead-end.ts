/**
 * The play page when there is no table to show: an unknown game, or a server that does not
 * answer. It says what happened and what to do, in the page's language, instead of
 * "Loading…" under a raw error.
 */

import { fill, h } from "../dom";
import { T } from "../i18n/index";
import { SERVER_DOWN } from "./requests";

/** The codes of a first load that leave nothing to show. */
export const DEAD_ENDS: ReadonlySet<string> = new Set(["game-not-found", SERVER_DOWN]);

/** Replaces the page in `root` with the dead end of `code` for the game `gameId`. */
export function drawDeadEnd(root: HTMLElement, gameId: string, code: string): void {
  const down = code === SERVER_DOWN;
  const title = down ? T.deadServerDownTitle : T.deadUnknownGameTitle;
  document.title = `${title} · spies`;
  const what = down ? T.deadServerDown : T.deadUnknownGame(gameId);
  const next = down
    ? h("button", { type: "button", "data-testid": "try-again", onclick: () => location.reload() }, T.deadTryAgain)
    : h("a", { href: "/", "data-testid": "new-game-link" }, T.deadNewGame);
  fill(
    root,
    h(
      "main",
      { class: "dead-end", "data-testid": "dead-end", "data-code": code },
      h("h1", {}, title),
      h("p", {}, what),
      h("p", {}, next),
      down ? h("p", {}, h("a", { href: "/" }, T.backToLobby)) : null,
    ),
  );
}
