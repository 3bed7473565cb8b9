/** Stratego Spies & Lies: the Double Agent's board, both sides' missions, intel and guesses. */

import type { Command, Schemas } from "../api/client";
import { cardBack, soldierCard, soldierName } from "../cards";
import { h, s } from "../dom";
import { GAMES } from "../generated/rules";
import { T } from "../i18n/index";
import type { Namer } from "../names";
import {
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
  type SpiesView,
  type TableContext,
  zone,
} from "./common";

type Side = SpiesView["sides"][number];

const FIGURES = GAMES["spies-and-lies"].figures;

function sideName(side: number): string {
  return T.slSide(side);
}

/** The viewer's side, whose hand the page shows; none for a spectator. */
function ownSide(view: SpiesView): Side | undefined {
  return view.sides.find((side) => side.side === view.side);
}

function describe(command: Command): string {
  switch (command.type) {
    case "deploy":
      return T.slDeploy(command.soldiers.map((rank, i) => T.slDeployOn(soldierName(rank), i + 1)).join(", "));
    case "mark_sergeant":
      return command.token ? T.slMark : T.slNoMark;
    case "confirm_intel":
      return T.slConfirm;
    case "deceive":
      return T.slDeceive;
    case "decline_deception":
      return T.slDecline;
    case "guess":
      return T.slGuess(soldierName(command.rank));
    case "choose_marshal":
      return command.option === "points" ? T.slMarshalPoints : T.slMarshalSabotage;
    case "choose_captain":
      return command.borrow === null || command.borrow === undefined
        ? T.slCaptainPoints
        : T.slCaptainBorrow(soldierName(command.borrow));
    default:
      return command.type;
  }
}

function narrate(event: RulesEvent, name: Namer): string | null {
  switch (event.type) {
    case "spies_and_lies_started":
      return T.slStarted(event.players);
    case "soldiers_deployed":
      // Another side's soldiers stay hidden: only how many were deployed.
      return T.slDeployed(
        sideName(event.side),
        name(event.seat),
        event.count,
        event.soldiers === null ? "" : event.soldiers.map((rank) => soldierName(rank)).join(", "),
      );
    case "intel_card_turned":
      return T.slIntelTurned(event.day, event.card.join(", "));
    case "intel_marked":
      return T.slIntelMarked(sideName(event.side));
    case "intel_tokens_revealed": {
      const start = event.starting_side;
      return T.slIntelRevealed(start === null || start === undefined ? "" : sideName(start));
    }
    case "deception_played":
      return T.slDeceived(sideName(event.side), event.mission);
    case "deception_declined":
      return T.slDeclined(sideName(event.side), event.mission);
    case "soldier_revealed": {
      const forced = event.forced_by;
      return T.slRevealed(
        sideName(event.guesser),
        soldierName(event.guess),
        sideName(event.side),
        event.mission,
        soldierName(event.rank),
        event.correct,
        forced === null || forced === undefined ? "" : T.slForcedBy(String(forced)),
      );
    }
    case "infiltration_points_gained":
      return T.slGained(sideName(event.side), T.slPoints(event.amount), T.slPointSource(String(event.source)), event.tower, event.infiltrated);
    case "infiltration_points_lost":
      return T.slLost(sideName(event.side), T.slPoints(event.amount), event.tower);
    case "double_agent_moved":
      return T.slMoved(sideName(event.side), T.slSteps(event.steps), T.slMoveCause(String(event.cause)), event.position);
    case "soldier_effect_started":
      return T.slEffect(sideName(event.side), T.slEffectName(String(event.effect)));
    case "marshal_chosen":
      return T.slMarshal(sideName(event.side), event.option === "points" ? T.slMarshalPoints : T.slMarshalSabotage);
    case "captain_chosen": {
      const borrow = event.borrow;
      return borrow === null || borrow === undefined
        ? T.slCaptainTook(sideName(event.side))
        : T.slCaptainBorrowed(sideName(event.side), soldierName(borrow));
    }
    case "deception_token_gained":
      return T.slTokenGained(sideName(event.side));
    case "double_damage_earned":
      return T.slDoubleDamage(sideName(event.side));
    case "flag_captured":
      return T.slFlagCaptured(sideName(event.side));
    case "spies_and_lies_day_ended":
      return T.slDayEnded(event.day, sideName(event.next_starting_side));
    case "spies_and_lies_ended": {
      const winner = event.winner;
      return event.draw || winner === null ? T.slEndedDraw : T.slEnded(sideName(winner));
    }
    default:
      return null;
  }
}

/** The Double Agent's track: red's flag, red's territory, the centre, blue's, blue's flag. */
function board(view: SpiesView): HTMLElement {
  const reach = view.board_length + 1;
  const width = (2 * reach + 1) * 40;
  const svg = s("svg", {
    viewBox: `0 0 ${width} 70`,
    class: "board",
    role: "img",
    "aria-label": T.slBoardLabel(view.double_agent, reach),
  });
  for (let position = -reach; position <= reach; position++) {
    const x = (position + reach) * 40 + 20;
    const flag = Math.abs(position) === reach;
    const colour = position < 0 ? "#b3261e" : position > 0 ? "#1f4fa8" : "#777";
    svg.append(
      flag
        ? s("path", { d: `M${x - 8} 52V14l18 8-18 8`, stroke: colour, "stroke-width": 3, fill: colour })
        : s("circle", { cx: x, cy: 35, r: 14, fill: "#fff", stroke: colour, "stroke-width": 3 }),
      s("text", { x, y: 66, class: "board-label", "text-anchor": "middle" }, position),
    );
  }
  const agentX = (view.double_agent + reach) * 40 + 20;
  svg.append(
    s("circle", { cx: agentX, cy: 35, r: 10, class: "double-agent" }),
    s("title", {}, T.slDoubleAgent),
  );
  return h("div", { class: "board-wrap" }, svg);
}

function tower(side: Side): HTMLElement {
  const fill = h("span", { class: `tower-fill side-${side.colour}` });
  // Through the CSSOM, not a style attribute: a Content-Security-Policy may forbid those.
  fill.style.width = `${(side.tower * 100) / FIGURES.infiltration_at}%`;
  return h(
    "div",
    {
      class: "tower",
      role: "meter",
      "aria-valuemin": 0,
      "aria-valuemax": FIGURES.infiltration_at,
      "aria-valuenow": side.tower,
      "aria-valuetext": T.slTowerText(side.tower),
      "aria-label": T.slInfiltrationOf(T.slSide(side.side)),
    },
    fill,
    h("span", { class: "tower-text" }, `${side.tower} / ${FIGURES.infiltration_at}`),
  );
}

function missions(view: SpiesView, side: Side): HTMLElement {
  return h(
    "ol",
    { class: "missions" },
    ...side.missions.map((mission) => {
      const current = view.mission === mission.mission && view.defender === side.side;
      let face: SVGElement | HTMLElement;
      if (mission.rank !== null) {
        const state = mission.retreated ? "retreated" : mission.face_up ? "activated" : "hidden-own";
        face = soldierCard(mission.rank, side.colour, state);
      } else if (mission.deployed) {
        face = cardBack(T.slFaceDownSoldier(T.slSide(side.side)), side.colour);
      } else {
        face = h("span", { class: "slot" }, T.slEmpty);
      }
      return h(
        "li",
        { class: `mission${current ? " current" : ""}` },
        h("span", { class: "mission-name" }, T.slMission(mission.mission)),
        face,
        h(
          "span",
          { class: "markers" },
          mission.intel === true ? h("span", { class: "intel-token", title: T.slIntelToken }, T.slIntel) : null,
          mission.deception ? h("span", { class: "deception-token", title: T.slDeceptionToken }, T.slDeception) : null,
          mission.rank !== null && !mission.face_up ? h("span", { class: "note" }, T.slFaceDown) : null,
        ),
      );
    }),
  );
}

function sidePanel(view: SpiesView, side: Side, name: Namer): HTMLElement {
  return zone(
    T.sideOf(T.slSideCap(side.side), listWords(side.seats.map(name))),
    `side side-${side.colour}${view.to_act.some((seat) => side.seats.includes(seat)) ? " acting" : ""}`,
    tower(side),
    h(
      "p",
      { class: "side-stats" },
      T.slSideStats(side.hand_size, side.deception_tokens),
      side.double_damage ? T.slDoubleDamageTag : "",
      side.effects.length > 0 ? T.slEffects(side.effects.map((effect) => T.slEffectName(String(effect))).join(", ")) : "",
    ),
    missions(view, side),
    side.exhausted.length === 0
      ? null
      : h(
          "div",
          { class: "exhausted" },
          h("span", {}, T.slExhausted),
          ...side.exhausted.map((rank) => soldierCard(rank, side.colour, "exhausted")),
        ),
  );
}

function moves(ctx: TableContext<SpiesView>, hand: readonly number[]): HTMLElement {
  const deploys = ctx.legal.filter((command) => command.type === "deploy");
  const others = ctx.legal.filter((command) => command.type !== "deploy");
  const buttons = others.map((command) => commandButton(ctx, command, describe(command)));
  if (deploys.length === 0) return movesArea(null, ...buttons);
  const chosen = selectedCards(hand, ctx.selection);
  const matching = deploys.filter((command) => sameItems(command.soldiers, chosen));
  // how many this seat deploys: four, or two in team play; its legal deploys say
  const wanted = deploys[0]?.soldiers.length ?? 0;
  const hint =
    chosen.length < wanted
      ? T.slHintDeploy(chosen.length, wanted)
      : matching.length === 0
        ? T.slHintCannot
        : T.slHintWhere;
  return movesArea(
    hint,
    ...matching.map((command) => commandButton(ctx, command, describe(command))),
    ...buttons,
  );
}

function table(ctx: TableContext<SpiesView>): HTMLElement {
  const view = ctx.view;
  const mySide = view.side ?? 0;
  const ordered = [...view.sides].sort((a, b) => (a.side === mySide ? 1 : 0) - (b.side === mySide ? 1 : 0));
  const hand = ownSide(view)?.hand ?? [];
  const colour = ownSide(view)?.colour ?? "red";
  const deploying = ctx.legal.some((command) => command.type === "deploy");
  const [top, bottom] = ordered;
  return h(
    "div",
    { class: "table spies-table" },
    h(
      "p",
      { class: "deal-line" },
      `${T.slDayLine(view.day, T.slPhase(view.phase))}${view.stage === null ? "" : ` (${T.slStage(view.stage)})`}${view.turn === null ? "" : T.slGuessTurn(view.turn)}${view.guesser === null ? "" : T.slGuesses(sideName(view.guesser))}`,
    ),
    top === undefined ? null : sidePanel(view, top, ctx.name),
    zone(
      T.slBoard,
      "board-zone",
      board(view),
      h(
        "div",
        { class: "intel" },
        h("span", {}, T.slIntelLabel),
        view.current_intel === null
          ? h("span", { class: "empty" }, T.slNotTurned)
          : h("strong", { class: "intel-card" }, view.current_intel.join(" ")),
        h("span", {}, T.slOldIntel(view.old_intel.map((card) => card.join(" ")).join(" | "), view.intel_deck_size, view.deception_reserve_left)),
      ),
    ),
    bottom === undefined ? null : sidePanel(view, bottom, ctx.name),
    zone(
      view.side === null ? T.handHidden : T.yourHand,
      "hand-zone",
      h(
        "div",
        { class: "hand", "data-testid": "hand", role: "group", "aria-label": T.yourHand },
        ...hand.map((rank, i) =>
          deploying
            ? selectableCard(ctx, i, rank, soldierCard(rank, colour), soldierName(rank))
            : h("span", { class: "hand-card idle" }, soldierCard(rank, colour)),
        ),
      ),
    ),
    moves(ctx, hand),
  );
}

/** What the board's and the missions' marks mean. */
function legend(): HTMLElement {
  const flag = s("svg", { viewBox: "0 0 24 24", class: "symbol-icon", "aria-hidden": "true" }, s("path", { d: "M6 22V3l12 5-12 5", stroke: "#b3261e", "stroke-width": 2.5, fill: "#b3261e" }));
  const agent = s("svg", { viewBox: "0 0 24 24", class: "symbol-icon", "aria-hidden": "true" }, s("circle", { cx: 12, cy: 12, r: 8, class: "double-agent" }));
  const sideways = s("svg", { viewBox: "0 0 24 24", class: "symbol-icon", "aria-hidden": "true" }, s("rect", { x: 2, y: 7, width: 20, height: 12, rx: 2, fill: "#fff", stroke: "#333" }));
  const upright = s("svg", { viewBox: "0 0 24 24", class: "symbol-icon", "aria-hidden": "true" }, s("rect", { x: 6, y: 2, width: 12, height: 20, rx: 2, fill: "#fff", stroke: "#333" }));
  const bar = s("svg", { viewBox: "0 0 24 24", class: "symbol-icon", "aria-hidden": "true" }, s("rect", { x: 1, y: 8, width: 22, height: 8, rx: 2, fill: "#ccc" }), s("rect", { x: 1, y: 8, width: 12, height: 8, rx: 2, fill: "#4a7fd9" }));
  return legendBox(
    [flag, T.slLegendFlag],
    [agent, T.slLegendAgent],
    [sideways, T.slLegendSideways],
    [upright, T.slLegendFaceUp],
    [h("span", { class: "intel-token" }, T.slIntel), T.slLegendIntel],
    [h("span", { class: "deception-token" }, T.slDeception), T.slLegendDeception],
    [bar, T.slLegendTower],
  );
}

function explain(view: SpiesView, outcome: Schemas["Outcome"]): Explained {
  const winner = view.sides.find((side) => outcome.winners.some((seat) => side.seats.includes(seat)));
  const loser = view.sides.find((side) => side !== winner);
  const figures = T.slMarkers(view.sides.map((side) => `${T.slSideCap(side.side)} ${side.tower}`).join(", "));
  let why: string;
  if (outcome.draw || winner === undefined) why = T.slInfiltrationDraw;
  else if (outcome.reason === "flag-captured") why = T.slFlag(T.slSideCap(winner.side), T.slSide(loser?.side ?? 1 - winner.side));
  else if (outcome.reason === "territory") why = T.slTerritory(T.slSideCap(winner.side), T.slSide(loser?.side ?? 1 - winner.side));
  else why = T.slInfiltration;
  return { why, figures };
}

export const spiesAndLies: GameUi<SpiesView> = {
  id: "spies-and-lies",
  title: T.slTitle,
  options: [
    { kind: "number", key: "board_length", label: T.slBoardLength, min: 1, max: FIGURES.max_board_length },
    { kind: "flag", key: "deception_pays_on_forced_retreat", label: T.slDeceptionPays },
    { kind: "choice", key: "deception_reserve", label: T.slReserve },
  ],
  table,
  handKey: (view) => JSON.stringify(ownSide(view)?.hand ?? null),
  describe,
  narrate,
  scoreLabel: T.slScoreLabel,
  explain,
  legend,
};
