/** What every game's table module provides, and the pieces they share (moves, cards). */

import type { Command, EventOf, GameEvent, GameId, Schemas, Summary, View, ViewOf } from "../api/client";
import { type Child, h } from "../dom";
import { T } from "../i18n/index";
import type { Namer } from "../names";

export { listWords } from "../i18n/index";
export { seatName } from "../names";

export type DeckView = ViewOf<"deck-of-spies">;
export type BlackSpyView = ViewOf<"black-spy">;
export type SpiesView = ViewOf<"spies-and-lies">;

/** The events every game has: its creation, the seats changing hands, the seed at the end. */
export type SharedEvent = EventOf<
  | "game_created"
  | "seat_joined"
  | "seat_handed_to_bot"
  | "seat_taken_back"
  | "seat_claimed"
  | "seed_revealed"
  | "entropy_added"
  | "clock_expired"
  | "clocks_resumed"
  | "clocks_updated"
  | "game_aborted"
>;
/** The events of a game's own rules: everything but the {@link SharedEvent}s. */
export type RulesEvent = Exclude<GameEvent, SharedEvent>;

/** A game over explained: the reason in words and the figures that decided it. */
export interface Explained {
  why: string;
  figures: string | null;
}

/** Everything a table is drawn from, and what it may ask the page to do. */
export interface TableContext<V> {
  view: V;
  summary: Summary;
  /** The legal commands of the seat this page plays (empty for a spectator). */
  legal: readonly Command[];
  /** Indices into the hand of the selected cards, in the order they were selected. */
  selection: readonly number[];
  /** Whether the page can act now (a seat, not waiting for an answer, not a replay). */
  live: boolean;
  /** Seats by name: display names, bots, "(you)". */
  name: Namer;
  toggle(index: number): void;
  send(command: Command): void;
}

/** The option names `POST /games` accepts for game `G` (the keys of its options schema). */
export type OptionKey<G extends GameId> = keyof NonNullable<Extract<Schemas["CreateGameRequest"], { game: G }>["options"]> &
  string;

/**
 * A creation option shown in the lobby's form; `Key` ties it to its game's options schema.
 * Its default, and a choice's values, are the server's (`generated/rules.ts`).
 */
export type OptionField<Key extends string = string> =
  | { kind: "flag"; key: Key; label: string }
  | { kind: "number"; key: Key; label: string; min: number; max: number }
  | { kind: "choice"; key: Key; label: string };

/**
 * One game's table, words and lobby form: everything the generic pages ask a game for, so
 * that they never look at a game id themselves (the registry in `index.ts` finds the module).
 */
export interface GameUi<V extends View> {
  /** The game id, the `game` tag of its views. */
  id: V["game"];
  title: string;
  options: readonly OptionField<OptionKey<V["game"]>>[];
  /** The table: board, hands (one with `data-testid="hand"`) and the moves. */
  table(ctx: TableContext<V>): HTMLElement;
  /**
   * The cards a selection's indices point into, as a string: a selection is kept while it
   * stays the same (another seat's move leaves it as the person built it).
   */
  handKey(view: V): string;
  /** The accessible name of a command ("pass red 3, red 9, blue 11"). */
  describe(command: Command): string;
  /** One line of the log for an event of its rules, or null for an event it has no line for. */
  narrate(event: RulesEvent, name: Namer): string | null;
  /** Why the game ended, in a player's words, and the figures that decided it. */
  explain(view: V, outcome: Schemas["Outcome"], name: Namer): Explained;
  /** The legend of the table's symbols (none when nothing needs explaining). */
  legend?(view: V): HTMLElement | null;
  /** Scores, by seat, as the table shows them under the outcome. */
  scoreLabel: string;
}

/** A clickable legal move: the automation hook is `data-testid="command"` + `data-command`. */
export function commandButton<V>(
  ctx: TableContext<V>,
  command: Command,
  label: string,
  ...content: Child[]
): HTMLButtonElement {
  const json = JSON.stringify(command);
  // A card face names the move itself (its SVG is an image named by the label), so that the
  // button's name and its visible content never disagree.
  const face = content[0];
  if (face instanceof SVGElement) face.setAttribute("aria-label", label);
  return h(
    "button",
    {
      type: "button",
      class: "command",
      "data-testid": "command",
      "data-command": json,
      "data-key": `command:${json}`,
      "aria-label": content.length > 0 ? null : label,
      disabled: !ctx.live,
      onclick: () => ctx.send(command),
    },
    ...(content.length > 0 ? content : [label]),
  );
}

/** A card of the hand that can be selected for a multi-card choice. */
export function selectableCard<V>(
  ctx: TableContext<V>,
  index: number,
  card: string | number,
  face: SVGElement,
  name: string,
): HTMLButtonElement {
  const selected = ctx.selection.includes(index);
  face.setAttribute("aria-label", name);
  return h(
    "button",
    {
      type: "button",
      class: `hand-card${selected ? " selected" : ""}`,
      "data-card": card,
      "data-index": index,
      "data-key": `card:${index}`,
      "aria-pressed": selected ? "true" : "false",
      disabled: !ctx.live,
      onclick: () => ctx.toggle(index),
    },
    face,
  );
}

/** The cards of a selection (a multiset, so the three black 7s stay three). */
export function selectedCards<T>(hand: readonly T[], selection: readonly number[]): T[] {
  return selection.flatMap((i) => (i < hand.length ? [hand[i] as T] : []));
}

/** Whether two lists hold the same items the same number of times. */
export function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  const sorted = (xs: readonly T[]) => xs.map(String).sort();
  const x = sorted(a);
  const y = sorted(b);
  return x.every((item, i) => item === y[i]);
}

/** A titled block of the table. */
export function zone(title: string, cls: string, ...content: Child[]): HTMLElement {
  return h("section", { class: `zone ${cls}`, "aria-label": title }, h("h3", {}, title), ...content);
}

/** The moves area: the legal moves, with a hint when none is clickable yet. */
export function movesArea(hint: string | null, ...buttons: HTMLElement[]): HTMLElement {
  return h(
    "section",
    { class: "moves", "aria-label": T.yourMoves, "data-testid": "moves" },
    h("h3", {}, T.yourMoves),
    hint !== null
      ? h("p", { class: "hint", "aria-live": "polite" }, hint)
      : buttons.length === 0
        ? h("p", { class: "hint" }, T.noMove)
        : null,
    h("div", { class: "move-list" }, ...buttons),
  );
}

/** A legend: what the table's symbols mean, as a list with each symbol drawn beside its words. */
export function legendBox(...items: [Child, Child][]): HTMLElement {
  return h(
    "details",
    { class: "legend", "data-testid": "legend", open: true },
    h("summary", {}, T.legend),
    h("ul", {}, ...items.map(([symbol, words]) => h("li", {}, symbol === null ? null : h("span", { class: "legend-symbol" }, symbol), " ", words))),
  );
}
