/** The play page's fixed frame: the elements the renderers fill in, laid out once. */

import { fill, h } from "../dom";
import { langSwitch, T } from "../i18n/index";

/** The page root and the parts of the page that change. */
export interface PlayLayout {
  /** `#app`: carries `data-version`, `data-seat`, `data-busy` and `data-game-status`. */
  readonly root: HTMLElement;
  readonly title: HTMLElement;
  readonly status: HTMLElement;
  /** The last problem (a refused move, a failed answer); empty when none. */
  readonly alert: HTMLElement;
  /** Why the page watches as a spectator when it has no seat to play from; hidden if it has. */
  readonly seatNotice: HTMLElement;
  readonly seatSelect: HTMLSelectElement;
  readonly clocks: HTMLElement;
  readonly outcome: HTMLElement;
  readonly tableHost: HTMLElement;
  readonly legend: HTMLElement;
  readonly log: HTMLElement;
  readonly links: HTMLDetailsElement;
  readonly seatsBox: HTMLElement;
  /** The link to the game's rules (its address set once the game is known). */
  readonly rulesLink: HTMLAnchorElement;
}

/** Lays the page out in `root`, with `problem` (a bad seat link) in the alert line. */
export function layOut(root: HTMLElement, gameId: string, problem: string | null): PlayLayout {
  const title = h("h1", {}, T.game);
  const status = h("p", { class: "status", "data-testid": "status", role: "status" }, T.loading);
  const alert = h("p", { class: "error", "data-testid": "error", role: "alert" }, problem ?? "");
  const seatNotice = h("section", { class: "seat-notice", "data-testid": "seat-notice", "aria-labelledby": "seat-notice-title", hidden: true });
  const seatSelect = h("select", { id: "seat-select", "data-testid": "seat-select" });
  const clocks = h("section", { class: "clocks", "data-testid": "clocks", hidden: true });
  const outcome = h("section", { class: "outcome", "data-testid": "outcome", "aria-labelledby": "outcome-title", hidden: true });
  const tableHost = h("div", { class: "table-host" });
  const legend = h("div", { class: "legend-host" });
  const log = h("ol", {
    class: "log",
    "data-testid": "log",
    // A live list (a role of "log" would unmake the list its items need).
    "aria-live": "polite",
    "aria-relevant": "additions",
    "aria-label": T.logLabel,
    tabindex: 0,
  });
  const links = h("details", { class: "seat-links" });
  const seatsBox = h("section", { class: "seats-box", "aria-labelledby": "seats-title", "data-testid": "seats" });
  const rulesLink = h("a", { href: "/rules/", "data-testid": "rules-link" }, T.rulesOfThisGame);

  fill(
    root,
    h(
      "header",
      { class: "page-head" },
      h(
        "nav",
        {},
        h("a", { href: "/" }, T.lobby),
        " · ",
        h("a", { href: `/replay/${gameId}` }, T.replay),
        " · ",
        rulesLink,
        " · ",
        langSwitch(),
      ),
      title,
      h("p", { class: "seat-bar" }, h("label", { for: "seat-select" }, T.playAs), seatSelect),
      status,
      alert,
      seatNotice,
      clocks,
    ),
    outcome,
    h(
      "main",
      { class: "play-main" },
      h("div", { class: "table-column" }, tableHost, legend),
      h("aside", { class: "log-box" }, seatsBox, h("h2", {}, T.log), log),
    ),
    links,
  );
  return { root, title, status, alert, seatNotice, seatSelect, clocks, outcome, tableHost, legend, log, links, seatsBox, rulesLink };
}
