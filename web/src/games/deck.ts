/** Deck of Spies: the spy deck, your draw deck and piles, your hand, counters and recruits. */

import type { Command } from "../api/client";
import { cardBack, standardCard, standardName, standardValue } from "../cards";
import { h } from "../dom";
import {
  commandButton,
  type DeckView,
  type GameUi,
  listWords,
  movesArea,
  type RulesEvent,
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

function narrate(event: RulesEvent): string | null {
  switch (event.type) {
    case "deck_of_spies_started":
      return `The spy deck holds ${event.spy_deck_count} spies; your draw deck ${event.draw_deck_count} cards.`;
    case "cards_drawn":
      return event.cards === null ? `${event.count} cards drawn.` : `Drew ${names(event.cards)}.`;
    case "spy_revealed":
      return `Turn ${event.turn}: the spy ${standardName(event.spy)} is revealed.`;
    case "spy_countered":
      return `Countered the ${standardName(event.spy)} with ${names(event.cards)}.`;
    case "spy_recruited": {
      const ace = event.double_agent;
      const agent = ace === null || ace === undefined ? "" : ` (double agent ${standardName(ace)})`;
      return `Recruited the ${standardName(event.spy)} with ${names(event.cards)}${agent}.`;
    }
    case "spy_assassinated":
      return `Assassinated the ${standardName(event.spy)} with the ${standardName(event.ace)} (from the ${event.ace_zone.replace("_", " ")}).`;
    case "cards_retired":
      return event.cards === null ? `Retired ${event.count} cards.` : `Retired ${names(event.cards)}.`;
    case "discard_reshuffled":
      return `The draw discard pile (${event.count} cards) is shuffled into the draw deck.`;
    case "draw_deck_shuffled":
      return `The draw deck (${event.count} cards) is shuffled.`;
    case "deck_of_spies_ended":
      return `Game over: ${event.result.replaceAll("_", " ")}, with ${event.owned_faces} of 12 key spies.`;
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
  handKey: (view) => JSON.stringify(view.hand),
  describe,
  narrate,
  scoreLabel: "key spies",
};
