/** The seats box: who holds each seat, and for the page's seat the hand-over to a bot and back. */

import { fill, h } from "../dom";
import { T } from "../i18n/index";
import { joinLink, seatKind, seatName } from "../names";
import type { LoadedState } from "./state";

/** What the seats box's buttons ask the page to do. */
export interface SeatActions {
  handOver(seat: number, bot: string): void;
  takeBack(seat: number): void;
}

/** Draws the seats of `state` in `box`, the focus staying on the control that had it. */
export function drawSeatsBox(box: HTMLElement, state: LoadedState, actions: SeatActions): void {
  const game = state.summary;
  const hadFocus = box.contains(document.activeElement) ? document.activeElement?.getAttribute("data-testid") : null;
  const rows = game.seats.map((held) => {
    const own = state.tokens.has(held.seat);
    const controls: HTMLElement[] = [];
    if (held.type === "open" && game.status === "active") {
      controls.push(
        h("input", {
          readonly: true,
          value: joinLink(state.gameId, held.seat),
          "aria-label": T.shareLink(seatName(held.seat)),
          "data-testid": `share-${held.seat}`,
        }),
      );
    }
    if (own && held.seat === state.seat && game.status === "active") {
      if (held.bot === null || held.bot === undefined) {
        const choices = state.bots.filter((bot) => bot.games.includes(game.game));
        if (choices.length > 0) {
          const pick = h(
            "select",
            { "aria-label": T.botSelect, "data-testid": "bot-select" },
            ...choices.map((bot) => h("option", { value: bot.name, title: bot.description }, bot.name)),
          );
          controls.push(
            h("label", {}, T.bot, pick),
            h(
              "button",
              { type: "button", "data-testid": "hand-to-bot", onclick: () => actions.handOver(held.seat, pick.value) },
              T.handToBot,
            ),
          );
        }
      } else {
        controls.push(
          h("button", { type: "button", "data-testid": "take-back", onclick: () => actions.takeBack(held.seat) }, T.takeBack),
        );
      }
    }
    return h(
      "li",
      { "data-seat-row": held.seat, "data-seat-type": held.type ?? "creator", class: held.seat === state.seat ? "mine" : null },
      h("strong", {}, seatName(held.seat)),
      held.name === null || held.name === undefined ? null : ` ${held.name}`,
      h("span", { class: "seat-kind" }, ` (${seatKind(held)}${own ? T.yours : ""})`),
      controls.length > 0 ? h("span", { class: "seat-controls" }, ...controls) : null,
    );
  });
  fill(box, h("h2", { id: "seats-title" }, T.seats), h("ul", { class: "seat-rows" }, ...rows));
  if (hadFocus !== null && hadFocus !== undefined) {
    const again =
      box.querySelector<HTMLElement>(`[data-testid="${hadFocus}"]`) ??
      box.querySelector<HTMLElement>("[data-testid=hand-to-bot], [data-testid=take-back]");
    again?.focus();
  }
}
