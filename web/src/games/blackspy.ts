/** Black Spy: the seats around the table, the trick, your hand, the three-card pass. */

import type { Command, Schemas } from "../api/client";
import { blackSpyCard, blackSpyName, blackSpyRank, cardBack, symbolIcon } from "../cards";
import { h } from "../dom";
import { GAMES } from "../generated/rules";
import { T } from "../i18n/index";
import type { Namer } from "../names";
import {
  type BlackSpyView,
  commandButton,
  type Explained,
  type GameUi,
  legendBox,
  listWords,
  movesArea,
  type RulesEvent,
  sameItems,
  selectableCard,
  selectedCards,
  type TableContext,
  zone,
} from "./common";

const FIGURES = GAMES["black-spy"].figures;
/** The colours in their order (a hand sorts by it). */
const COLOUR_ORDER: readonly string[] = FIGURES.colours;

function describe(command: Command): string {
  switch (command.type) {
    case "pass_cards":
      return T.bsPass(command.cards.map(blackSpyName).join(", "));
    case "play_card":
      return T.bsPlay(blackSpyName(command.card));
    default:
      return command.type;
  }
}

function cardList(cards: readonly string[]): string {
  return listWords(cards.map(blackSpyName));
}

function narrate(event: RulesEvent, name: Namer): string | null {
  switch (event.type) {
    case "black_spy_started":
      return T.bsStarted(event.players, name(event.dealer));
    case "black_spy_dealt":
      return T.bsDealt(event.deal, name(event.dealer), event.hand_size, T.bsDirection(event.direction));
    case "black_spy_cards_passed":
      // Only the passer sees the cards: the others read that three cards went.
      return T.bsPassed(name(event.seat), name(event.to_seat), event.cards === null ? "" : cardList(event.cards));
    case "black_spy_cards_exchanged":
      return T.bsExchangedFirst(name(event.leader));
    case "black_spy_card_played":
      return T.bsPlayed(name(event.seat), blackSpyName(event.card));
    case "black_spy_trick_won":
      return T.bsTrickWon(name(event.winner), event.trick, event.points);
    case "black_spy_deal_scored":
      return T.bsDealScored(event.deal, event.scores.map((score, i) => T.scoreOf(name(i), score)).join(", "));
    case "black_spy_game_ended":
      return T.bsGameEnded(listWords(event.winners.map(name)), event.winners.length > 1);
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
    return movesArea(T.bsHintPlay);
  }
  const passes = ctx.legal.filter((command) => command.type === "pass_cards");
  if (passes.length === 0) return movesArea(null);
  const chosen = selectedCards(hand, ctx.selection);
  const matching = passes.filter((command) => sameItems(command.cards, chosen));
  const target = ctx.name(view.pass_to);
  const hint =
    chosen.length < FIGURES.pass_size
      ? T.bsHintPass(target, chosen.length)
      : matching.length === 0
        ? T.bsHintCannot
        : null;
  return movesArea(
    hint,
    ...matching.map((command) => commandButton(ctx, command, describe(command))),
  );
}

function seatPanel(ctx: TableContext<BlackSpyView>, seat: number): HTMLElement {
  const view = ctx.view;
  const acting = view.to_act.includes(seat);
  const tags = [
    seat === view.dealer ? T.bsDealer : null,
    view.phase === "passing" && view.passed[seat] === true ? T.bsPassedTag : null,
    acting ? T.bsToAct : null,
  ].filter((tag) => tag !== null);
  return h(
    "li",
    { class: `seat${acting ? " acting" : ""}${seat === view.seat ? " mine" : ""}` },
    h("strong", {}, ctx.name(seat)),
    // after a dot, not in parentheses: the name may end in its own ("seat 1 (you)")
    tags.length > 0 ? h("span", { class: "tags" }, ` · ${tags.join(", ")}`) : null,
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
      T.bsSeatStats(view.hand_sizes[seat] ?? 0, view.pile_sizes[seat] ?? 0, view.pile_points[seat] ?? 0, view.totals[seat] ?? 0),
    ),
  );
}

function trickCards(name: Namer, cards: readonly { card: string; seat: number }[]): HTMLElement {
  return h(
    "div",
    { class: "trick" },
    ...cards.map((played) =>
      h(
        "figure",
        {},
        blackSpyCard(played.card),
        h("figcaption", {}, name(played.seat)),
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
      T.bsDealLine(view.deal, T.bsDirection(view.pass_direction), T.bsPhase(view.phase), view.trick_number, view.threshold),
    ),
    zone(
      T.seats,
      "seats",
      h("ul", { class: "seat-list" }, ...view.hand_sizes.map((_, seat) => seatPanel(ctx, seat))),
    ),
    h(
      "div",
      { class: "row" },
      zone(
        view.turn === null ? T.bsTrick : T.bsTrickTurn(view.trick_number, ctx.name(view.turn)),
        "current-trick felt",
        view.trick.length === 0 ? h("p", { class: "empty" }, T.bsNoCard) : trickCards(ctx.name, view.trick),
      ),
      last === undefined
        ? null
        : zone(
            T.bsLastTrick(ctx.name(last.winner), last.points),
            "last-trick felt",
            trickCards(ctx.name, last.cards),
          ),
    ),
    zone(
      view.seat === null ? T.handHidden : T.yourHand,
      "hand-zone",
      h(
        "div",
        { class: "hand", "data-testid": "hand", role: "group", "aria-label": T.yourHand },
        ...handCards(ctx, hand),
      ),
      view.my_pass === null ? null : h("p", {}, T.bsYouPassed(listWords(view.my_pass.map(blackSpyName)))),
      view.received === null ? null : h("p", {}, T.bsYouReceived(listWords(view.received.map(blackSpyName)))),
    ),
    moves(ctx, hand),
    view.deal_scores.length === 0
      ? null
      : zone(
          T.bsScores,
          "score-table",
          h(
            "table",
            {},
            h(
              "thead",
              {},
              h("tr", {}, h("th", { scope: "col" }, T.bsDeal), ...view.totals.map((_, seat) => h("th", { scope: "col" }, ctx.name(seat)))),
            ),
            h(
              "tbody",
              {},
              ...view.deal_scores.map((scores, i) =>
                h("tr", {}, h("td", {}, i + 1), ...scores.map((score) => h("td", {}, score))),
              ),
              h("tr", { class: "totals" }, h("td", {}, T.bsTotal), ...view.totals.map((t) => h("td", {}, t))),
            ),
          ),
        ),
  );
}

/** What the cards' colours, symbols and marks mean. */
function legend(): HTMLElement {
  return legendBox(
    // The label ends in a colon: it comes before the colours it introduces.
    [null, h("span", {}, T.bsLegendColours, " ", h("span", { class: "legend-colours" }, ...COLOUR_ORDER.map((colour) => h("span", { class: "legend-colour" }, symbolIcon(colour), ` ${T.bsColour(colour)}`))))],
    [null, T.bsLegendSpy],
    [null, T.bsLegendBlack],
    [null, T.bsLegendStar],
    [null, T.bsLegendFollow],
  );
}

function explain(view: BlackSpyView, outcome: Schemas["Outcome"], name: Namer): Explained {
  const totals = outcome.scores.length > 0 ? outcome.scores : view.totals;
  return { why: T.bsEnded(view.threshold), figures: T.bsTotals(totals.map((total, seat) => T.scoreOf(name(seat), total)).join(", ")) };
}

export const blackSpy: GameUi<BlackSpyView> = {
  id: "black-spy",
  title: T.bsTitle,
  options: [
    { kind: "flag", key: "no_good_spies", label: T.bsNoGoodSpies },
    { kind: "flag", key: "classic", label: T.bsClassic },
  ],
  table,
  handKey: (view) => JSON.stringify(view.hand),
  describe,
  narrate,
  scoreLabel: T.bsScoreLabel,
  explain,
  legend,
};
