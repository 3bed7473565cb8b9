/** What every game's table module provides, and the pieces they share (moves, cards). */

import type { Command, GameEvent, Schemas, Summary } from "../api/client";
import { type Child, h } from "../dom";

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
  toggle(index: number): void;
  send(command: Command): void;
}

/** A creation option shown in the lobby's form. */
export type OptionField =
  | { kind: "flag"; key: string; label: string; initial: boolean }
  | { kind: "number"; key: string; label: string; initial: number; min: number; max: number }
  | { kind: "choice"; key: string; label: string; initial: string; choices: readonly string[] };

/** One game's table, words and lobby form. */
export interface GameUi<V> {
  id: string;
  title: string;
  minPlayers: number;
  maxPlayers: number;
  options: readonly OptionField[];
  /** The table: board, hands (one with `data-testid="hand"`) and the moves. */
  table(ctx: TableContext<V>): HTMLElement;
  /** The accessible name of a command ("pass red 3, red 9, blue 11"). */
  describe(command: Command): string;
  /** One line of the log for an event, or null for events not worth a line. */
  narrate(event: GameEvent): string | null;
  /** Scores, by seat, as the table shows them under the outcome. */
  scoreLabel: string;
}

export type DeckView = Schemas["DeckOfSpiesView"];
export type BlackSpyView = Schemas["BlackSpyView"];
export type SpiesView = Schemas["SpiesAndLiesView"];

/** A clickable legal move: the automation hook is `data-testid="command"` + `data-command`. */
export function commandButton<V>(
  ctx: TableContext<V>,
  command: Command,
  label: string,
  ...content: Child[]
): HTMLButtonElement {
  const json = JSON.stringify(command);
  return h(
    "button",
    {
      type: "button",
      class: "command",
      "data-testid": "command",
      "data-command": json,
      "data-key": `command:${json}`,
      "aria-label": label,
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
  return h(
    "button",
    {
      type: "button",
      class: `hand-card${selected ? " selected" : ""}`,
      "data-card": card,
      "data-index": index,
      "data-key": `card:${index}`,
      "aria-pressed": selected ? "true" : "false",
      "aria-label": name,
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
    { class: "moves", "aria-label": "Your moves", "data-testid": "moves" },
    h("h3", {}, "Your moves"),
    hint !== null
      ? h("p", { class: "hint" }, hint)
      : buttons.length === 0
        ? h("p", { class: "hint" }, "No move for you now.")
        : null,
    h("div", { class: "move-list" }, ...buttons),
  );
}

/** "seat 2". */
export function seatName(seat: number | null | undefined): string {
  return seat === null || seat === undefined ? "spectator" : `seat ${seat}`;
}

/** "a, b and c". */
export function listWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1] ?? ""}`;
}
