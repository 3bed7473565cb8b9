/**
 * Card faces drawn as SVG in code, and their accessible names: the 52-card deck (Deck of
 * Spies, "7H"), the 60 Black Spy cards ("red-7") and the Spies & Lies soldiers (rank 1-10).
 */

import { s } from "./dom";
import { GAMES } from "./generated/rules";
import { T } from "./i18n/index";

const DECK = GAMES["deck-of-spies"].figures;
const BLACK_SPY = GAMES["black-spy"].figures;

const SUITS: Record<string, { name: string; colour: string; path: string }> = {
  C: {
    name: "clubs",
    colour: "#1b1b1b",
    path:
      "M50 8a19 19 0 0 1 17 27a19 19 0 1 1-6 34l7 23H32l7-23a19 19 0 1 1-6-34A19 19 0 0 1 50 8z",
  },
  D: { name: "diamonds", colour: "#c8102e", path: "M50 4L90 50L50 96L10 50z" },
  H: {
    name: "hearts",
    colour: "#c8102e",
    path:
      "M50 90C22 66 6 50 6 31C6 17 16 7 29 7c9 0 17 5 21 13c4-8 12-13 21-13c13 0 23 10 23 24c0 19-16 35-44 59z",
  },
  S: {
    name: "spades",
    colour: "#1b1b1b",
    path:
      "M50 6C75 32 94 45 94 63c0 13-10 21-22 21c-8 0-14-4-17-9l5 19H40l5-19c-3 5-9 9-17 9C16 84 6 76 6 63C6 45 25 32 50 6z",
  },
};

function standardParts(card: string): { rank: string; suit: string } {
  return { rank: card.slice(0, -1), suit: card.slice(-1) };
}

/** "7 of hearts", "ace of spades". */
export function standardName(card: string): string {
  const { rank, suit } = standardParts(card);
  return T.deckCard(T.deckRank(rank), T.deckSuit(suit));
}

/** The value of a standard card (A 1, J 11, Q 12, K 13: the rules' values). */
export function standardValue(card: string): number {
  const values: Readonly<Record<string, number | undefined>> = DECK.card_values;
  return values[standardParts(card).rank] ?? 0;
}

function frame(label: string, extra: string): SVGElement {
  return s("svg", {
    viewBox: "0 0 100 140",
    class: `card ${extra}`,
    role: "img",
    "aria-label": label,
  });
}

function pip(suit: string, x: number, y: number, size: number): SVGElement {
  const info = SUITS[suit];
  const scale = size / 100;
  return s("path", {
    d: info?.path ?? "",
    fill: info?.colour ?? "#000",
    transform: `translate(${x - size / 2} ${y - size / 2}) scale(${scale})`,
  });
}

/** A face of the 52-card deck. */
export function standardCard(card: string): SVGElement {
  const { rank, suit } = standardParts(card);
  const colour = SUITS[suit]?.colour ?? "#000";
  const face = rank === "J" || rank === "Q" || rank === "K";
  const svg = frame(standardName(card), face ? "face-card" : "");
  svg.append(
    s("rect", { x: 2, y: 2, width: 96, height: 136, rx: 9, class: "card-paper" }),
    s("text", { x: 10, y: 28, fill: colour, class: "card-rank" }, rank),
    pip(suit, 17, 42, 16),
  );
  if (face) {
    svg.append(
      s("rect", { x: 24, y: 30, width: 52, height: 80, rx: 6, fill: colour, opacity: 0.12 }),
      s("text", { x: 50, y: 84, fill: colour, class: "card-big", "text-anchor": "middle" }, rank),
      pip(suit, 50, 100, 14),
    );
  } else {
    svg.append(pip(suit, 56, 82, rank === "A" ? 52 : 40));
  }
  svg.append(
    s("text", { x: 90, y: 130, fill: colour, class: "card-rank", "text-anchor": "end" }, rank),
  );
  return svg;
}

/** A face-down card (a deck, an opponent's hand, a hidden soldier). */
export function cardBack(label: string, tone = "blue"): SVGElement {
  const svg = frame(label, `card-back back-${tone}`);
  svg.append(
    s("rect", { x: 2, y: 2, width: 96, height: 136, rx: 9, class: "back-paper" }),
    s("rect", { x: 10, y: 10, width: 80, height: 120, rx: 5, class: "back-inner" }),
    s("circle", { cx: 50, cy: 70, r: 18, class: "back-emblem" }),
  );
  return svg;
}

/** Each colour's paint; the type makes every colour of the rules have one. */
const BLACK_SPY_PAINT: Readonly<Record<(typeof BLACK_SPY.colours)[number], string>> = {
  blue: "#1f5fbf",
  yellow: "#d9a400",
  red: "#c8102e",
  green: "#23804a",
  black: "#1b1b1b",
};

function paint(colour: string): string {
  const paints: Readonly<Record<string, string | undefined>> = BLACK_SPY_PAINT;
  return paints[colour] ?? "#444";
}

/**
 * Each Black Spy colour's own symbol, so that colour is never the only carrier: blue a
 * circle, yellow a triangle, red a square, green a diamond, black a cross.
 */
export function colourSymbol(colour: string, x: number, y: number, r: number): SVGElement {
  const attrs = { fill: "#fff", stroke: "#111", "stroke-width": 1.5, class: `symbol symbol-${colour}` };
  switch (colour) {
    case "blue":
      return s("circle", { ...attrs, cx: x, cy: y, r });
    case "yellow":
      return s("path", { ...attrs, d: `M${x} ${y - r}L${x + r} ${y + r}H${x - r}z` });
    case "red":
      return s("rect", { ...attrs, x: x - r * 0.85, y: y - r * 0.85, width: r * 1.7, height: r * 1.7 });
    case "green":
      return s("path", { ...attrs, d: `M${x} ${y - r}L${x + r} ${y}L${x} ${y + r}L${x - r} ${y}z` });
    default:
      return s("path", {
        ...attrs,
        d: `M${x - r} ${y - r * 0.5}L${x - r * 0.5} ${y - r}L${x} ${y - r * 0.5}L${x + r * 0.5} ${y - r}L${x + r} ${y - r * 0.5}L${x + r * 0.5} ${y}L${x + r} ${y + r * 0.5}L${x + r * 0.5} ${y + r}L${x} ${y + r * 0.5}L${x - r * 0.5} ${y + r}L${x - r} ${y + r * 0.5}L${x - r * 0.5} ${y}z`,
      });
  }
}

/** A small SVG of one colour's symbol, for legends. */
export function symbolIcon(colour: string): SVGElement {
  const svg = s("svg", { viewBox: "0 0 24 24", class: "symbol-icon", "aria-hidden": "true" });
  svg.append(s("rect", { x: 0, y: 0, width: 24, height: 24, rx: 4, fill: paint(colour) }), colourSymbol(colour, 12, 12, 7));
  return svg;
}

/** "red 3". */
export function blackSpyName(card: string): string {
  const [colour, rank] = card.split("-");
  return T.bsCardName(T.bsColour(colour ?? card), Number(rank ?? ""));
}

/** The rank of a Black Spy card id. */
export function blackSpyRank(card: string): number {
  return Number(card.split("-")[1]);
}

/** A Black Spy card: its colour, rank and name; the black 7 is the black spy. */
export function blackSpyCard(card: string): SVGElement {
  const [colourName = "black", rankText = "?"] = card.split("-");
  const colour = paint(colourName);
  const rank = Number(rankText);
  const svg = frame(blackSpyName(card), `bs-card bs-${colourName}`);
  svg.append(
    s("rect", { x: 2, y: 2, width: 96, height: 136, rx: 9, class: "card-paper" }),
    s("rect", { x: 8, y: 8, width: 84, height: 124, rx: 6, fill: colour }),
    s("text", { x: 15, y: 30, class: "bs-corner" }, rankText),
    s("circle", { cx: 50, cy: 70, r: 27, fill: "#fff", opacity: 0.92 }),
    s("text", { x: 50, y: 81, class: "bs-rank", fill: colour, "text-anchor": "middle" }, rankText),
    s(
      "text",
      { x: 50, y: 121, class: "bs-name", "text-anchor": "middle" },
      T.bsNames[rank] ?? "",
    ),
    colourSymbol(colourName, 84, 24, 9),
  );
  if (rank === BLACK_SPY.spy_rank) {
    // The spies: a hat over the rank (a black one costs points, a coloured one takes some off).
    svg.append(
      s("path", { d: "M30 47h40l-7-11H37z", fill: colourName === "black" ? "#ddd" : "#111" }),
    );
  }
  if (card === BLACK_SPY.star_card) {
    svg.append(
      s("path", {
        d: "M80 14l3 7 7 .6-5.4 4.6 1.7 7-6.3-3.8-6.3 3.8 1.7-7-5.4-4.6 7-.6z",
        fill: "#fff",
      }),
    );
  }
  return svg;
}


/** "3 Miner". */
export function soldierName(rank: number): string {
  return T.slSoldier(rank, T.slSoldiers[rank] ?? "");
}

const SIDE_COLOURS: Record<string, string> = { red: "#b3261e", blue: "#1f4fa8" };

/** A Spies & Lies soldier of a side's colour. */
export function soldierCard(rank: number, colour: string, state = ""): SVGElement {
  const tint = SIDE_COLOURS[colour] ?? "#555";
  const side = T.slSide(colour === "blue" ? 1 : 0);
  const svg = frame(`${side} ${soldierName(rank)}`, `soldier ${state}`);
  svg.append(
    s("rect", { x: 2, y: 2, width: 96, height: 136, rx: 9, class: "card-paper" }),
    s("rect", { x: 8, y: 8, width: 84, height: 30, rx: 5, fill: tint }),
    s("text", { x: 50, y: 31, class: "soldier-rank", "text-anchor": "middle" }, rank),
    s("path", {
      // A helmet and shoulders.
      d: "M30 112c0-18 9-28 20-28s20 10 20 28zM36 76c0-14 6-22 14-22s14 8 14 22z",
      fill: tint,
      opacity: 0.85,
    }),
    s(
      "text",
      { x: 50, y: 130, class: "soldier-name", "text-anchor": "middle" },
      T.slSoldiers[rank] ?? "",
    ),
  );
  return svg;
}
