/** Black Spy: the seats around the table, the trick, your hand, the three-card pass. */

import type { Command } from "../api/client";
import { blackSpyCard, blackSpyName, blackSpyRank, cardBack } from "../cards";
import { h } from "../dom";
import {
  type BlackSpyView,
  commandButton,
  type GameUi,
  listWords,
  movesArea,
  type RulesEvent,
  sameItems,
  seatName,
  selectableCard,
  selectedCards,
  type TableContext,
  zone,
} from "./common";

const COLOUR_ORDER = ["blue", "yellow", "red", "green", "black"];

function describe(command: Command): string {
  switch (command.type) {
    case "pass_cards":
      return `pass ${command.cards.map(blackSpyName).join(", ")}`;
    case "play_card":
      return `play ${blackSpyName(command.card)}`;
    default:
      return command.type;
  }
}

function cardList(cards: readonly string[]): string {
  return listWords(cards.map(blackSpyName));
}

function narrate(event: RulesEvent): string | null {
  switch (event.type) {
    case "black_spy_started":
      return `${event.players} players; seat ${event.dealer} deals first.`;
    case "black_spy_dealt":
      return `Deal ${event.deal}: ${seatName(event.dealer)} deals ${event.hand_size} cards each; pass ${event.direction}.`;
    case "black_spy_cards_passed": {
      // Only the passer sees the cards: the others read that three cards went.
      const cards = event.cards === null ? "" : `: ${cardList(event.cards)}`;
      return `${seatName(event.seat)} passes three cards to ${seatName(event.to_seat)}${cards}.`;
    }
    case "black_spy_cards_exchanged":
      return event.received.some((cards) => cards !== null)
        ? `The passed cards change hands; ${seatName(event.leader)} leads the first trick.`
        : `The passed cards change hands; ${seatName(event.leader)} leads.`;
    case "black_spy_card_played":
      return `${seatName(event.seat)} plays ${blackSpyName(event.card)}.`;
    case "black_spy_trick_won":
      return `${seatName(event.winner)} wins trick ${event.trick} (${event.points} points).`;
    case "black_spy_deal_scored":
      return `Deal ${event.deal} scored: ${event.scores.map((score, i) => `seat ${i} ${score}`).join(", ")}.`;
    case "black_spy_game_ended":
      return `Game over: ${listWords(event.winners.map(seatName))} ${event.winners.length === 1 ? "wins" : "win"} with the fewest points.`;
    default:
      return null;
  }
}

function sortHand(hand: readonly string[]): number[] {
  const key = (card: string) =>
    COLOUR_ORDER.indexOf(card.split("-")[0] ?? "") * 100 + blackSpyRank(card);
  return hand.map((_, i) => i).sort((a, b) => key(hand[a] ?? "") - key(hand[b] ?? "") || a - b);
}

function handCards(ctx: TableContext<BlackSpyView>, hand: readonly string[]): HTMLElement[] {
  const plays = new Map<string, Command>();
  for (const command of ctx.legal) {
    if (command.type === "play_card") plays.set(command.card, command);
  }
  const passing = ctx.legal.some((command) => command.type === "pass_cards");
  return sortHand(hand).map((i) => {
    const card = hand[i] ?? "";
    const play = plays.get(card);
    if (play !== undefined) {
      return commandButton(ctx, play, describe(play), blackSpyCard(card));
    }
    if (passing) return selectableCard(ctx, i, card, blackSpyCard(card), blackSpyName(card));
    return h("span", { class: "hand-card idle" }, blackSpyCard(card));
  });
}

function moves(ctx: TableContext<BlackSpyView>, hand: readonly string[]): HTMLElement {
  const view = ctx.view;
  if (ctx.legal.some((command) => command.type === "play_card")) {
    return movesArea("Play one of the highlighted cards of your hand.");
  }
  const passes = ctx.legal.filter((command) => command.type === "pass_cards");
  if (passes.length === 0) return movesArea(null);
  const chosen = selectedCards(hand, ctx.selection);
  const matching = passes.filter((command) => sameItems(command.cards, chosen));
  const target = seatName(view.pass_to);
  const hint =
    chosen.length < 3
      ? `Select three cards of your hand to pass to ${target} (${chosen.length} selected).`
      : matching.length === 0
        ? "These three cards cannot be passed together."
        : null;
  return movesArea(
    hint,
    ...matching.map((command) => commandButton(ctx, command, describe(command))),
  );
}

function seatPanel(view: BlackSpyView, seat: number): HTMLElement {
  const acting = view.to_act.includes(seat);
  const tags = [
    seat === view.seat ? "you" : null,
    seat === view.dealer ? "dealer" : null,
    view.phase === "passing" && view.passed[seat] === true ? "passed" : null,
    acting ? "to act" : null,
  ].filter((tag) => tag !== null);
  return h(
    "li",
    { class: `seat${acting ? " acting" : ""}${seat === view.seat ? " mine" : ""}` },
    h("strong", {}, seatName(seat)),
    tags.length > 0 ? h("span", { class: "tags" }, ` (${tags.join(", ")})`) : null,
    h(
      "span",
      { class: "backs", "aria-hidden": "true" },
      ...Array.from({ length: Math.min(view.hand_sizes[seat] ?? 0, 12) }, () =>
        cardBack("", "dark"),
      ),
    ),
    h(
      "span",
      { class: "seat-stats" },
      `${view.hand_sizes[seat] ?? 0} cards · tricks ${view.pile_sizes[seat] ?? 0} cards, ${view.pile_points[seat] ?? 0} pts · total ${view.totals[seat] ?? 0}`,
    ),
  );
}

function trickCards(cards: readonly { card: string; seat: number }[]): HTMLElement {
  return h(
    "div",
    { class: "trick" },
    ...cards.map((played) =>
      h(
        "figure",
        {},
        blackSpyCard(played.card),
        h("figcaption", {}, seatName(played.seat)),
      ),
    ),
  );
}

function table(ctx: TableContext<BlackSpyView>): HTMLElement {
  const view = ctx.view;
  const hand = view.hand ?? [];
  const last = view.tricks[view.tricks.length - 1];
  return h(
    "div",
    { class: "table black-spy-table" },
    h(
      "p",
      { class: "deal-line" },
      `Deal ${view.deal} · pass ${view.pass_direction} · ${view.phase} · trick ${view.trick_number} · game ends at ${view.threshold} points (fewest wins)`,
    ),
    zone(
      "Seats",
      "seats",
      h("ul", { class: "seat-list" }, ...view.hand_sizes.map((_, seat) => seatPanel(view, seat))),
    ),
    h(
      "div",
      { class: "row" },
      zone(
        view.turn === null ? "Trick" : `Trick ${view.trick_number}, ${seatName(view.turn)} to play`,
        "current-trick felt",
        view.trick.length === 0 ? h("p", { class: "empty" }, "no card yet") : trickCards(view.trick),
      ),
      last === undefined
        ? null
        : zone(
            `Last trick (${seatName(last.winner)}, ${last.points} pts)`,
            "last-trick felt",
            trickCards(last.cards),
          ),
    ),
    zone(
      view.seat === null ? "Hand (spectator: hidden)" : "Your hand",
      "hand-zone",
      h(
        "div",
        { class: "hand", "data-testid": "hand", role: "group", "aria-label": "your hand" },
        ...handCards(ctx, hand),
      ),
      view.my_pass === null ? null : h("p", {}, `You passed ${listWords(view.my_pass.map(blackSpyName))}.`),
      view.received === null
        ? null
        : h("p", {}, `You received ${listWords(view.received.map(blackSpyName))}.`),
    ),
    moves(ctx, hand),
    view.deal_scores.length === 0
      ? null
      : zone(
          "Scores by deal",
          "score-table",
          h(
            "table",
            {},
            h(
              "thead",
              {},
              h("tr", {}, h("th", {}, "Deal"), ...view.totals.map((_, seat) => h("th", {}, seatName(seat)))),
            ),
            h(
              "tbody",
              {},
              ...view.deal_scores.map((scores, i) =>
                h("tr", {}, h("td", {}, i + 1), ...scores.map((score) => h("td", {}, score))),
              ),
              h("tr", { class: "totals" }, h("td", {}, "Total"), ...view.totals.map((t) => h("td", {}, t))),
            ),
          ),
        ),
  );
}

export const blackSpy: GameUi<BlackSpyView> = {
  id: "black-spy",
  title: "Black Spy",
  minPlayers: 3,
  maxPlayers: 6,
  options: [
    { kind: "flag", key: "no_good_spies", label: "No good spies (coloured 7s score 0)", initial: false },
    { kind: "flag", key: "classic", label: "Classic 1981 rules", initial: false },
  ],
  table,
  handKey: (view) => JSON.stringify(view.hand),
  describe,
  narrate,
  scoreLabel: "points (fewest wins)",
};
