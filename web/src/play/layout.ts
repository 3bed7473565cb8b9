/** The play page's fixed frame: the elements the renderers fill in, laid out once. */

import { fill, h } from "../dom";
import { PLAY_TEXT } from "./texts";

/** The page root and the parts of the page that change. */
export interface PlayLayout {
  /** `#app`: carries `data-version`, `data-seat`, `data-busy` and `data-game-status`. */
  readonly root: HTMLElement;
  readonly title: HTMLElement;
  readonly status: HTMLElement;
  /** The last problem (a refused move, a failed answer); empty when none. */
  readonly alert: HTMLElement;
  readonly seatSelect: HTMLSelectElement;
  readonly outcome: HTMLElement;
  readonly tableHost: HTMLElement;
  readonly log: HTMLElement;
  readonly links: HTMLDetailsElement;
  readonly seatsBox: HTMLElement;
}

/** Lays the page out in `root`, with `problem` (a bad seat link) in the alert line. */
export function layOut(root: HTMLElement, gameId: string, problem: string | null): PlayLayout {
  const title = h("h1", {}, PLAY_TEXT.heading);
  const status = h("p", { class: "status", "data-testid": "status", role: "status" }, PLAY_TEXT.loading);
  const alert = h("p", { class: "error", "data-testid": "error", role: "alert" }, problem ?? "");
  const seatSelect = h("select", { id: "seat-select", "data-testid": "seat-select" });
  const outcome = h("section", { class: "outcome", "data-testid": "outcome", hidden: true });
  const tableHost = h("div", { class: "table-host" });
  const log = h("ol", {
    class: "log",
    "data-testid": "log",
    role: "log",
    "aria-live": "polite",
    "aria-label": PLAY_TEXT.logLabel,
  });
  const links = h("details", { class: "seat-links" });
  const seatsBox = h("section", { class: "seats-box", "aria-labelledby": "seats-title", "data-testid": "seats" });

  fill(
    root,
    h(
      "header",
      { class: "page-head" },
      h(
        "nav",
        {},
        h("a", { href: "/" }, PLAY_TEXT.lobby),
        " · ",
        h("a", { href: `/replay/${gameId}` }, PLAY_TEXT.replay),
      ),
      title,
      h("p", { class: "seat-bar" }, h("label", { for: "seat-select" }, PLAY_TEXT.playAs), seatSelect),
      status,
      alert,
    ),
    outcome,
    h(
      "main",
      { class: "play-main" },
      tableHost,
      h("aside", { class: "log-box" }, seatsBox, h("h2", {}, PLAY_TEXT.log), log),
    ),
    links,
  );
  return { root, title, status, alert, seatSelect, outcome, tableHost, log, links, seatsBox };
}
