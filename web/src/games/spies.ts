/** Stratego Spies & Lies: the Double Agent's board, both sides' missions, intel and guesses. */

import type { Command } from "../api/client";
import { cardBack, soldierCard, soldierName } from "../cards";
import { h, s } from "../dom";
import {
  commandButton,
  type GameUi,
  movesArea,
  type RulesEvent,
  sameItems,
  seatName,
  selectableCard,
  selectedCards,
  type SpiesView,
  type TableContext,
  zone,
} from "./common";

type Side = SpiesView["sides"][number];

const SIDE_NAMES = ["red", "blue"];

function sideName(side: number): string {
  return SIDE_NAMES[side] ?? `side ${side}`;
}

/** The viewer's side, whose hand the page shows; none for a spectator. */
function ownSide(view: SpiesView): Side | undefined {
  return view.sides.find((side) => side.side === view.side);
}

function describe(command: Command): string {
  switch (command.type) {
    case "deploy":
      return `deploy ${command.soldiers.map((rank, i) => `${soldierName(rank)} on mission ${i + 1}`).join(", ")}`;
    case "mark_sergeant":
      return command.token ? "put an intel token on the Sergeant" : "leave the Sergeant unmarked";
    case "confirm_intel":
      return "confirm the intel tokens";
    case "deceive":
      return "play a deception token";
    case "decline_deception":
      return "play no deception token";
    case "guess":
      return `guess ${soldierName(command.rank)}`;
    case "choose_marshal":
      return command.option === "points"
        ? "Marshal: take 10 points"
        : "Marshal: sabotage (5 points, the opponent loses 5)";
    case "choose_captain":
      return command.borrow === null || command.borrow === undefined
        ? "Captain: take 6 points"
        : `Captain: borrow the exhausted ${soldierName(command.borrow)}`;
    default:
      return command.type;
  }
}

function narrate(event: RulesEvent): string | null {
  switch (event.type) {
    case "spies_and_lies_started":
      return `${event.players} players; the first intel card is public.`;
    case "soldiers_deployed": {
      // Another side's soldiers stay hidden: only how many were deployed.
      const which = event.soldiers === null ? "" : `: ${event.soldiers.map((rank) => soldierName(rank)).join(", ")}`;
      return `${sideName(event.side)} (${seatName(event.seat)}) deploys ${event.count} soldiers${which}.`;
    }
    case "intel_card_turned":
      return `Day ${event.day}: the intel card shows ${event.card.join(", ")}.`;
    case "intel_marked":
      return `${sideName(event.side)} has placed its intel tokens.`;
    case "intel_tokens_revealed": {
      const start = event.starting_side;
      return `Intel tokens revealed${start === null || start === undefined ? "" : `; ${sideName(start)} starts`}.`;
    }
    case "deception_played":
      return `${sideName(event.side)} plays a deception token on mission ${event.mission}.`;
    case "deception_declined":
      return `${sideName(event.side)} plays no deception token on mission ${event.mission}.`;
    case "soldier_revealed": {
      const verdict = event.correct ? "right" : "wrong";
      const forced = event.forced_by;
      const retreat = forced === null || forced === undefined ? "" : `, forced back by the ${forced}`;
      return `${sideName(event.guesser)} guesses ${soldierName(event.guess)} at ${sideName(event.side)}'s mission ${event.mission}: it is the ${soldierName(event.rank)}, ${verdict}${retreat}.`;
    }
    case "infiltration_points_gained":
      return `${sideName(event.side)} gains ${event.amount} infiltration points (${event.source}), tower at ${event.tower}${event.infiltrated ? ": infiltration!" : ""}.`;
    case "infiltration_points_lost":
      return `${sideName(event.side)} loses ${event.amount} infiltration points, tower at ${event.tower}.`;
    case "double_agent_moved":
      return `${sideName(event.side)} moves the Double Agent ${event.steps} step(s) (${event.cause}) to ${event.position}.`;
    case "soldier_effect_started":
      return `${sideName(event.side)}'s ${event.effect} effect lasts until the end of the day.`;
    case "marshal_chosen":
      return `${sideName(event.side)}'s Marshal: ${event.option}.`;
    case "captain_chosen": {
      const borrow = event.borrow;
      return borrow === null || borrow === undefined
        ? `${sideName(event.side)}'s Captain takes 6 points.`
        : `${sideName(event.side)}'s Captain borrows the ${soldierName(borrow)}.`;
    }
    case "deception_token_gained":
      return `${sideName(event.side)} gains a deception token.`;
    case "double_damage_earned":
      return `${sideName(event.side)} earns double damage.`;
    case "flag_captured":
      return `${sideName(event.side)} captures the flag!`;
    case "spies_and_lies_day_ended":
      return `Day ${event.day} ends; ${sideName(event.next_starting_side)} starts the next.`;
    case "spies_and_lies_ended": {
      const winner = event.winner;
      return event.draw || winner === null
        ? `Game over: a draw (${event.reason}).`
        : `Game over: ${sideName(winner)} wins (${event.reason}).`;
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
    "aria-label": `Double Agent at ${view.double_agent} (red flag at -${reach}, blue flag at +${reach})`,
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
    s("title", {}, "Double Agent"),
  );
  return h("div", { class: "board-wrap" }, svg);
}

function tower(side: Side): HTMLElement {
  return h(
    "div",
    { class: "tower", role: "meter", "aria-valuemin": 0, "aria-valuemax": 10, "aria-valuenow": side.tower, "aria-label": `${side.colour} infiltration` },
    h("span", { class: `tower-fill side-${side.colour}`, style: `width:${side.tower * 10}%` }),
    h("span", { class: "tower-text" }, `${side.tower} / 10`),
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
        face = cardBack(`${side.colour} soldier, face down`, side.colour);
      } else {
        face = h("span", { class: "slot" }, "empty");
      }
      return h(
        "li",
        { class: `mission${current ? " current" : ""}` },
        h("span", { class: "mission-name" }, `Mission ${mission.mission}`),
        face,
        h(
          "span",
          { class: "markers" },
          mission.intel === true ? h("span", { class: "intel-token", title: "intel token" }, "intel") : null,
          mission.deception ? h("span", { class: "deception-token", title: "deception token" }, "deception") : null,
          mission.rank !== null && !mission.face_up ? h("span", { class: "note" }, "face down") : null,
        ),
      );
    }),
  );
}

function sidePanel(view: SpiesView, side: Side): HTMLElement {
  const mine = side.side === view.side;
  return zone(
    `${side.colour} (${side.seats.map(seatName).join(", ")})${mine ? ", you" : ""}`,
    `side side-${side.colour}${view.to_act.some((seat) => side.seats.includes(seat)) ? " acting" : ""}`,
    tower(side),
    h(
      "p",
      { class: "side-stats" },
      `${side.hand_size} in hand · ${side.deception_tokens} deception token(s)`,
      side.double_damage ? " · double damage" : "",
      side.effects.length > 0 ? ` · effects: ${side.effects.join(", ")}` : "",
    ),
    missions(view, side),
    side.exhausted.length === 0
      ? null
      : h(
          "div",
          { class: "exhausted" },
          h("span", {}, "Exhausted: "),
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
  const hint =
    chosen.length < 4
      ? `Select four soldiers of your hand to deploy (${chosen.length} selected); the missions take them in rising order, the Sergeant anywhere.`
      : matching.length === 0
        ? "These four soldiers cannot be deployed."
        : "Choose where they go:";
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
      `Day ${view.day} of 3 · ${view.phase}${view.stage === null ? "" : ` (${view.stage})`}${view.turn === null ? "" : ` · guess-turn ${view.turn} of 8`}${view.guesser === null ? "" : ` · ${sideName(view.guesser)} guesses`}`,
    ),
    top === undefined ? null : sidePanel(view, top),
    zone(
      "Board",
      "board-zone",
      board(view),
      h(
        "div",
        { class: "intel" },
        h("span", {}, "Intel: "),
        view.current_intel === null
          ? h("span", { class: "empty" }, "not turned yet")
          : h("strong", { class: "intel-card" }, view.current_intel.join(" ")),
        h("span", {}, ` · old: ${view.old_intel.map((card) => card.join(" ")).join(" | ")} · ${view.intel_deck_size} left · reserve ${view.deception_reserve_left}`),
      ),
    ),
    bottom === undefined ? null : sidePanel(view, bottom),
    zone(
      view.side === null ? "Hand (spectator: hidden)" : "Your hand",
      "hand-zone",
      h(
        "div",
        { class: "hand", "data-testid": "hand", role: "group", "aria-label": "your hand" },
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

export const spiesAndLies: GameUi<SpiesView> = {
  id: "spies-and-lies",
  title: "Stratego Spies & Lies",
  minPlayers: 2,
  maxPlayers: 4,
  options: [
    { kind: "number", key: "board_length", label: "Board length (spaces to each gate)", initial: 3, min: 1, max: 20 },
    { kind: "flag", key: "deception_pays_on_forced_retreat", label: "Deception pays on a forced retreat", initial: true },
    { kind: "choice", key: "deception_reserve", label: "Reserve deception tokens", initial: "shared", choices: ["shared", "per-side"] },
  ],
  table,
  handKey: (view) => JSON.stringify(ownSide(view)?.hand ?? null),
  describe,
  narrate,
  scoreLabel: "infiltration",
};
