/** Deck of Spies: the spy deck, your draw deck and piles, your hand, counters and recruits. */

import type { Command, GameEvent } from "../api/client";
import { cardBack, standardCard, standardName, standardValue } from "../cards";
import { h } from "../dom";
import {
  commandButton,
  type DeckView,
  type GameUi,
  listWords,
  movesArea,
  sameItems,
  selectableCard,
  selectedCards,
  type TableContext,
  zone,
} from "./common";

function names(cards: readonly string[]): string {
  return listWords(cards.map(standardName));
}

function describe(command: Command): string {
  switch (command.type) {
    case "counter":
    case "recruit": {
      const retire = command.retire ?? [];
      const verb = command.type === "counter" ? "counter" : "recruit";
      const total = command.cards.reduce((sum, card) => sum + standardValue(card), 0);
      const tail = retire.length > 0 ? `, retire ${names(retire)}` : "";
      return `${verb} with ${names(command.cards)} (${total})${tail}`;
    }
    case "assassinate":
      return `assassinate with ${standardName(command.ace)}`;
    default:
      return command.type;
  }
}

function narrate(event: GameEvent): string | null {
  const cards = (key: string): string[] | null => {
    const value = event[key];
    return Array.isArray(value) ? value.map(String) : null;
  };
  const spy = standardName(String(event["spy"] ?? ""));
  switch (event.type) {
    case "deck_of_spies_started":
      return `The spy deck holds ${String(event["spy_deck_count"])} spies; your draw deck ${String(event["draw_deck_count"])} cards.`;
    case "cards_drawn": {
      const drawn = cards("cards");
      return drawn === null
        ? `${String(event["count"])} cards drawn.`
        : `Drew ${names(drawn)}.`;
    }
    case "spy_revealed":
      return `Turn ${String(event["turn"])}: the spy ${spy} is revealed.`;
    case "spy_countered":
      return `Countered the ${spy} with ${names(cards("cards") ?? [])}.`;
    case "spy_recruited": {
      const ace = event["double_agent"];
      const agent = typeof ace === "string" ? ` (double agent ${standardName(ace)})` : "";
      return `Recruited the ${spy} with ${names(cards("cards") ?? [])}${agent}.`;
    }
    case "spy_assassinated":
      return `Assassinated the ${spy} with the ${standardName(String(event["ace"]))} (from the ${String(event["ace_zone"]).replace("_", " ")}).`;
    case "cards_retired": {
      const retired = cards("cards");
      return retired === null
        ? `Retired ${String(event["count"])} cards.`
        : `Retired ${names(retired)}.`;
    }
    case "discard_reshuffled":
      return `The draw discard pile (${String(event["count"])} cards) is shuffled into the draw deck.`;
    case "draw_deck_shuffled":
      return `The draw deck (${String(event["count"])} cards) is shuffled.`;
    case "deck_of_spies_ended":
      return `Game over: ${String(event["result"]).replaceAll("_", " ")}, with ${String(event["owned_faces"])} of 12 key spies.`;
    default:
      return null;
  }
}

function pile(cards: readonly string[], empty: string): HTMLElement {
  return cards.length === 0
    ? h("p", { class: "empty" }, empty)
    : h("div", { class: "fan" }, ...cards.map(standardCard));
}

function moves(ctx: TableContext<DeckView>, hand: readonly string[]): HTMLElement {
  const chosen = selectedCards(hand, ctx.selection);
  const matching = ctx.legal.filter((command) => {
    if (command.type === "assassinate") return chosen.length === 0 || sameItems(chosen, [command.ace]);
    if (command.type !== "counter" && command.type !== "recruit") return false;
    const retire = command.retire ?? [];
    if (chosen.length === 0) return retire.length === 0;
    return sameItems(chosen, [...command.cards, ...retire]);
  });
  let hint: string | null = null;
  if (ctx.legal.length > 0) {
    hint =
      chosen.length === 0
        ? "Pick a move, or select cards of your hand (also the ones to retire) to see the moves that use exactly them."
        : matching.length === 0
          ? `No legal move uses exactly ${names(chosen)}.`
          : null;
  }
  return movesArea(hint, ...matching.map((command) => commandButton(ctx, command, describe(command))));
}

function table(ctx: TableContext<DeckView>): HTMLElement {
  const view = ctx.view;
  const hand = view.hand ?? [];
  const top = view.top_spy;
  return h(
    "div",
    { class: "table deck-table" },
    h(
      "div",
      { class: "row" },
      zone(
        "Spy deck",
        "spy-deck",
        top === null ? cardBack("no spy revealed", "red") : standardCard(top),
        h("p", {}, `${view.spies_left} spies left`),
      ),
      zone(
        "Draw deck",
        "draw-deck",
        cardBack(`draw deck, ${view.draw_deck_count} cards`),
        h("p", {}, `${view.draw_deck_count} cards`),
      ),
      zone(
        "Key spies",
        "score",
        h("p", { class: "big-number" }, view.owned_faces ?? "?"),
        h("p", {}, "of 12 owned (7 win)"),
        h("p", {}, `Turn ${view.turn}`),
      ),
    ),
    zone(
      `Your hand${view.hand_total === null ? "" : `, total ${view.hand_total}`}`,
      "hand-zone",
      h(
        "div",
        { class: "hand", "data-testid": "hand", role: "group", "aria-label": "your hand" },
        ...hand.map((card, i) => selectableCard(ctx, i, card, standardCard(card), standardName(card))),
        hand.length === 0 ? h("p", { class: "empty" }, `${view.hand_count} cards`) : null,
      ),
    ),
    moves(ctx, hand),
    zone("Draw discard pile", "discard", pile(view.draw_discard, "empty")),
    h(
      "div",
      { class: "row small-zones" },
      zone("Spy discard pile", "spy-discard", h("p", {}, `${view.spy_discard_count} cards`)),
      zone("Removed", "removed", pile(view.removed, "none")),
    ),
  );
}

export const deckOfSpies: GameUi<DeckView> = {
  id: "deck-of-spies",
  title: "Deck of Spies",
  minPlayers: 1,
  maxPlayers: 1,
  options: [
    { kind: "flag", key: "strict_necessity", label: "Strict necessity", initial: true },
    { kind: "flag", key: "ace_counts_in_necessity", label: "Ace counts in necessity", initial: true },
    { kind: "flag", key: "retire_multiple_ranks", label: "Retire several ranks", initial: false },
  ],
  table,
  describe,
  narrate,
  scoreLabel: "key spies",
};
