/** Draws the play page from its state: header, clocks, table, outcome, seats, seat picker and links. */

import type { Command, Summary } from "../api/client";
import { fill, h } from "../dom";
import { drawLegend, drawTable, gameUi } from "../games/index";
import { T } from "../i18n/index";
import { joinLink, namer, openSeats, seatName } from "../names";
import { rulesHref } from "../rules/links";
import { drawClocks } from "./clock";
import { drawSeatNotice } from "./dead-end";
import type { TableRedraw } from "./focus";
import type { PlayLayout } from "./layout";
import { drawOutcome } from "./outcome";
import { drawSeatsBox, type SeatActions } from "./seats-box";
import { canAct, heldSeats, isLoaded, type PlayState } from "./state";
import { statusText } from "./texts";

/** Everything the drawn page's controls can ask for. */
export interface PlayActions extends SeatActions {
  /** Selects a card of the hand, or unselects it. */
  toggle(index: number): void;
  send(command: Command): void;
  rematch(): void;
}

/**
 * Draws the page from `state` (nothing until the table is loaded): the header and the
 * automation attributes of the root, the clocks, the game's table, the outcome and the seats.
 */
export function drawPage(page: PlayLayout, state: PlayState, actions: PlayActions, redrawTable: TableRedraw): void {
  if (!isLoaded(state)) return;
  const { summary, view } = state;
  const name = namer(summary, state.seat);
  const gameTitle = gameUi(summary.game)?.title ?? summary.game;
  page.title.replaceChildren(`${gameTitle} · `, h("code", { class: "game-id" }, state.gameId));
  document.title = T.documentTitle(gameTitle);
  page.rulesLink.href = rulesHref(summary.game);
  page.status.textContent = statusText(summary, view, state.seat, new Set(state.tokens.keys()), name);
  const hooks = page.root.dataset;
  hooks["version"] = String(view.version);
  hooks["seat"] = view.seat === null || view.seat === undefined ? "spectator" : String(view.seat);
  hooks["busy"] = String(state.busy);
  hooks["gameStatus"] = summary.status;
  drawClocks(page.clocks, view.clock, name, summary.status === "active");
  // Nothing is dealt before the last open seat is taken: no table to draw yet.
  const table =
    view.dealt === false
      ? drawWaiting(state.gameId, summary)
      : drawTable({
          view,
          summary,
          legal: state.legal,
          selection: state.selection,
          live: canAct(state),
          name,
          toggle: (index) => actions.toggle(index),
          send: (command) => actions.send(command),
        });
  redrawTable(table, state.busy);
  if (page.legend.childElementCount === 0 && view.dealt !== false) fill(page.legend, drawLegend(view));
  drawSeatNotice(page.seatNotice, state);
  drawOutcome(page.outcome, state, () => actions.rematch(), name);
  drawSeatsBox(page.seatsBox, state, actions);
}

/** A table not dealt yet: waiting for players, with each open seat's join link. */
function drawWaiting(gameId: string, summary: Summary): HTMLElement {
  const open = openSeats(summary);
  if (summary.status !== "active" || open.length === 0) {
    return h("section", { class: "waiting", "data-testid": "waiting" }, h("p", {}, T.neverDealt));
  }
  return h(
    "section",
    { class: "waiting", "data-testid": "waiting" },
    h("p", {}, T.waitingForPlayers(open.length)),
    summary.open_until === null || summary.open_until === undefined
      ? null
      : h("p", { "data-testid": "open-until" }, T.openUntil(new Date(summary.open_until).toLocaleString())),
    h("p", {}, T.dealWhenFull),
    h(
      "ul",
      { class: "share-links" },
      ...open.map((seat) =>
        h("li", {}, h("a", { href: joinLink(gameId, seat), "data-testid": `join-link-${seat}` }, T.joinSeat(seat))),
      ),
    ),
  );
}

/** The seat picker (the seats held, and the spectator) and the private links of those seats. */
export function drawSeatPicker(page: PlayLayout, state: PlayState): void {
  const seats = heldSeats(state.tokens);
  fill(
    page.seatSelect,
    ...seats.map((s) => h("option", { value: s, selected: s === state.seat }, seatName(s))),
    h("option", { value: "spectator", selected: state.seat === null }, T.spectator),
  );
  fill(
    page.links,
    h("summary", {}, T.seatLinks),
    h(
      "ul",
      {},
      ...seats.map((s) => {
        const href = `${location.origin}/play/${state.gameId}#token=${state.tokens.get(s) ?? ""}`;
        return h("li", {}, `${seatName(s)}: `, h("input", { readonly: true, value: href, "aria-label": T.seatLink(seatName(s)) }));
      }),
    ),
  );
  page.links.hidden = seats.length === 0;
}
