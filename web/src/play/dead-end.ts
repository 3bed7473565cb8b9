/**
 * The play page when there is no table to show (an unknown game, a server that does not
 * answer), or no seat to play it from (no token here, or one the server refused). Each says
 * what happened and what to do, in the page's language, instead of "Loading…" under a raw
 * error.
 */

import { fill, h } from "../dom";
import { T } from "../i18n/index";
import { seatName } from "../names";
import { SERVER_DOWN } from "./requests";
import type { LoadedState } from "./state";

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

/**
 * Draws in `box` why the page watches as a spectator when it has no seat to play from (no
 * token for this game here, or one the server refused) and the way back to a seat; hidden
 * while the page plays a seat, and for a finished game this browser never held a seat of.
 */
export function drawSeatNotice(box: HTMLElement, state: LoadedState): void {
  const lost = state.lost;
  const why =
    lost?.reason === "refused"
      ? T.seatNoticeRefused(seatName(lost.seat))
      : lost?.reason === "link"
        ? T.seatNoticeLink
        : state.tokens.size === 0 && state.summary.status !== "finished"
          ? T.seatNoticeNone
          : null;
  box.hidden = state.seat !== null || why === null;
  if (box.hidden || why === null) {
    fill(box);
    return;
  }
  box.dataset["reason"] = lost?.reason ?? "none";
  fill(
    box,
    h("h2", { id: "seat-notice-title" }, T.seatNoticeTitle),
    h("p", {}, why),
    h("p", {}, T.seatNoticeWatch),
    h("p", {}, T.seatNoticeForward, " ", h("a", { href: "/", "data-testid": "new-game-link" }, T.deadNewGame), "."),
  );
}
