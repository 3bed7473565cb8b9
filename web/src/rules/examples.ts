/**
 * The rulebooks' worked examples drawn with the cards the table shows. A fenced block
 * ```` ```cards ```` in a rulebook holds one line per row, `Label: CARD CARD …`, each card
 * written as the API writes it: `5C` (Deck of Spies), `red-4` (Black Spy), or a Spies &
 * Lies soldier as `red:2` (its side's colour, its rank).
 */

import { blackSpyCard, soldierCard, standardCard } from "../cards";
import { h } from "../dom";

const STANDARD = /^(?:A|[2-9]|10|J|Q|K)[CDHS]$/;
const BLACK_SPY = /^(?:blue|yellow|red|green|black)-(?:[1-9]|1[01])$/;
const SOLDIER = /^(red|blue):([1-9]|10)$/;

/** The card a token names, drawn as the table draws it; null for a token that names none. */
export function exampleCard(token: string): SVGElement | null {
  if (STANDARD.test(token)) return standardCard(token);
  if (BLACK_SPY.test(token)) return blackSpyCard(token);
  const soldier = SOLDIER.exec(token);
  if (soldier !== null) return soldierCard(Number(soldier[2]), soldier[1] ?? "red");
  return null;
}

/**
 * A worked example's cards: one row per line of `body`, its label and its cards. A token
 * that names no card is shown as written, marked for the rulebook's test to find.
 */
export function drawExample(body: string): HTMLElement {
  const rows = body
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .map((line) => {
      const colon = line.indexOf(":");
      const label = colon < 0 ? "" : line.slice(0, colon).trim();
      const tokens = (colon < 0 ? line : line.slice(colon + 1)).trim().split(/\s+/).filter((t) => t !== "");
      return h(
        "div",
        { class: "example-row" },
        label === "" ? null : h("span", { class: "example-label" }, label),
        h(
          "span",
          { class: "example-cards" },
          ...tokens.map((token) => exampleCard(token) ?? h("code", { "data-unknown-card": token }, token)),
        ),
      );
    });
  return h("div", { class: "rules-example", "data-testid": "rules-example" }, ...rows);
}
