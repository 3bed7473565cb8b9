/** The outcome box, shown once the game is over: the game over in words, rematch and the replay. */

import { fill, h } from "../dom";
import { T } from "../i18n/index";
import { ruleLink } from "../rules/links";
import type { LoadedState } from "./state";
import { gameOverWords } from "./texts";

/** Draws the outcome of `state`'s game in `box`; hidden while the game goes on. */
export function drawOutcome(box: HTMLElement, state: LoadedState, rematch: () => void, name: (seat: number | null | undefined) => string): void {
  const game = state.summary;
  const appearing = box.hidden && game.status === "finished";
  // A redraw replaces the box's controls: the one that had the focus gets it back.
  const focused = box.contains(document.activeElement) ? document.activeElement : null;
  const again = focused === null ? null : focused.id !== "" ? `#${focused.id}` : `[data-testid="${focused.getAttribute("data-testid") ?? ""}"]`;
  box.hidden = game.status !== "finished";
  if (game.status !== "finished") {
    fill(box);
    return;
  }
  const words = gameOverWords(game, state.view, state.seat, name);
  const next = game.rematch ?? null;
  fill(
    box,
    h("h2", { id: "outcome-title", tabindex: -1 }, T.gameOverTitle),
    h("p", { class: "outcome-headline", "data-testid": "outcome-headline" }, words.headline),
    words.why === null
      ? null
      : h(
          "p",
          { "data-testid": "outcome-why" },
          words.why,
          words.section === undefined ? null : " ",
          words.section === undefined ? null : ruleLink(game.game, words.section),
        ),
    words.figures === null ? null : h("p", { "data-testid": "outcome-figures" }, words.figures),
    h("p", {}, T.gameOverNoMoves),
    // A seat holder moves on to the rematch; a spectator can only watch it, once it exists.
    state.tokens.size > 0
      ? h(
          "p",
          {},
          h(
            "button",
            { type: "button", class: "rematch", "data-testid": "rematch", onclick: rematch },
            next === null ? T.rematch : T.joinRematch,
          ),
        )
      : next === null
        ? null
        : h("p", {}, h("a", { href: `/play/${next}`, "data-testid": "rematch-link" }, T.watchRematch)),
    h(
      "p",
      {},
      h("a", { href: `/replay/${state.gameId}`, "data-testid": "replay-link" }, T.replayGame),
      " · ",
      h("a", { href: "/" }, T.backToLobby),
    ),
  );
  // The end is announced where the keyboard is: the focus moves to the game over.
  if (appearing) box.querySelector<HTMLElement>("#outcome-title")?.focus();
  else if (again !== null) box.querySelector<HTMLElement>(again)?.focus();
}
