/** Deck of Spies: the spy deck, your draw deck and piles, your hand, counters and recruits. */

import type { Command, Schemas } from "../api/client";
import { cardBack, standardCard, standardName, standardValue } from "../cards";
import { h } from "../dom";
import { T } from "../i18n/index";
import {
  commandButton,
  type DeckView,
  type Explained,
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
      const verb = command.type === "counter" ? T.deckCounter : T.deckRecruit;
      const total = command.cards.reduce((sum, card) => sum + standardValue(card), 0);
      return T.deckWith(verb, names(command.cards), total, retire.length > 0 ? names(retire) : "");
    }
    case "assassinate":
      return T.deckAssassinate(standardName(command.ace));
    default:
      return command.type;
  }
}

function narrate(event: RulesEvent): string | null {
  switch (event.type) {
    case "deck_of_spies_started":
      return T.deckStarted(event.spy_deck_count, event.draw_deck_count);
    case "cards_drawn":
      return event.cards === null ? T.deckDrewCount(event.count) : T.deckDrew(names(event.cards));
    case "spy_revealed":
      return T.deckRevealed(event.turn, standardName(event.spy));
    case "spy_countered":
      return T.deckCountered(standardName(event.spy), names(event.cards));
    case "spy_recruited": {
      const ace = event.double_agent;
      return T.deckRecruited(standardName(event.spy), names(event.cards), ace === null || ace === undefined ? "" : standardName(ace));
    }
    case "spy_assassinated":
      return T.deckAssassinated(standardName(event.spy), standardName(event.ace), T.deckZone(event.ace_zone));
    case "cards_retired":
      return event.cards === null ? T.deckRetiredCount(event.count) : T.deckRetired(names(event.cards));
    case "discard_reshuffled":
      return T.deckReshuffled(event.count);
    case "draw_deck_shuffled":
      return T.deckShuffled(event.count);
    case "deck_of_spies_ended":
      return event.result === "won" ? T.deckEndedWon(event.owned_faces) : T.deckEndedLost(event.owned_faces);
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
        ? T.deckHintPick
        : matching.length === 0
          ? T.deckHintNone(names(chosen))
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
        T.deckSpyDeck,
        "spy-deck",
        top === null ? cardBack(T.deckNoSpy, "red") : standardCard(top),
        h("p", {}, T.deckSpiesLeft(view.spies_left)),
      ),
      zone(
        T.deckDrawDeck,
        "draw-deck",
        cardBack(T.deckDrawDeckCards(view.draw_deck_count)),
        h("p", {}, T.deckCards(view.draw_deck_count)),
      ),
      zone(
        T.deckKeySpies,
        "score",
        h("p", { class: "big-number" }, view.owned_faces ?? "?"),
        h("p", {}, T.deckOwnedOf),
        h("p", {}, T.deckTurn(view.turn)),
      ),
    ),
    zone(
      view.hand_total === null ? T.yourHand : T.deckHandTotal(view.hand_total),
      "hand-zone",
      h(
        "div",
        { class: "hand", "data-testid": "hand", role: "group", "aria-label": T.yourHand },
        ...hand.map((card, i) => selectableCard(ctx, i, card, standardCard(card), standardName(card))),
        hand.length === 0 ? h("p", { class: "empty" }, T.deckCards(view.hand_count)) : null,
      ),
    ),
    moves(ctx, hand),
    zone(T.deckDiscard, "discard", pile(view.draw_discard, T.deckEmpty)),
    h(
      "div",
      { class: "row small-zones" },
      zone(T.deckSpyDiscard, "spy-discard", h("p", {}, T.deckCards(view.spy_discard_count))),
      zone(T.deckRemoved, "removed", pile(view.removed, T.deckNone)),
    ),
  );
}

function explain(view: DeckView, outcome: Schemas["Outcome"]): Explained {
  const owned = outcome.scores[0] ?? view.owned_faces ?? 0;
  const why =
    outcome.reason === "no-ace-left"
      ? T.deckLostAces(owned)
      : outcome.winners.length > 0
        ? T.deckWon(owned)
        : T.deckLostFaces(owned);
  return { why, figures: T.deckScore(owned) };
}

export const deckOfSpies: GameUi<DeckView> = {
  id: "deck-of-spies",
  title: T.deckTitle,
  options: [
    { kind: "flag", key: "strict_necessity", label: T.deckStrict },
    { kind: "flag", key: "ace_counts_in_necessity", label: T.deckAceCounts },
    { kind: "flag", key: "retire_multiple_ranks", label: T.deckRetireMany },
  ],
  table,
  handKey: (view) => JSON.stringify(view.hand),
  describe,
  narrate,
  scoreLabel: T.deckKeySpies,
  explain,
};
