/** The outcome box, shown once the game is over: result, scores, rematch and the replay. */

import { fill, h } from "../dom";
import { gameUi } from "../games/index";
import type { LoadedState } from "./state";
import { outcomeText, PLAY_TEXT } from "./texts";

/** Draws the outcome of `state`'s game in `box`; hidden while the game goes on. */
export function drawOutcome(box: HTMLElement, state: LoadedState, rematch: () => void): void {
  const game = state.summary;
  box.hidden = game.status !== "finished";
  if (game.status !== "finished") return;
  const scores = game.outcome?.scores ?? [];
  const ui = gameUi(game.game);
  const next = game.rematch ?? null;
  fill(
    box,
    h("h2", {}, outcomeText(game)),
    scores.length === 0
      ? null
      : h(
          "p",
          {},
          PLAY_TEXT.scores(ui?.scoreLabel ?? PLAY_TEXT.defaultScoreLabel),
          scores.map((score, seat) => PLAY_TEXT.seatScore(seat, score)).join(", "),
        ),
    // A seat holder moves on to the rematch; a spectator can only watch it, once it exists.
    state.tokens.size > 0
      ? h(
          "p",
          {},
          h(
            "button",
            { type: "button", class: "rematch", "data-testid": "rematch", onclick: rematch },
            next === null ? PLAY_TEXT.rematch : PLAY_TEXT.joinRematch,
          ),
        )
      : next === null
        ? null
        : h("p", {}, h("a", { href: `/play/${next}` }, PLAY_TEXT.watchRematch)),
    h(
      "p",
      {},
      h("a", { href: `/replay/${state.gameId}` }, PLAY_TEXT.replayGame),
      " · ",
      h("a", { href: "/" }, PLAY_TEXT.backToLobby),
    ),
  );
}
