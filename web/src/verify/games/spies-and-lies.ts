/**
 * Spies & Lies as docs/protocol.md ("Spies & Lies") and docs/rules/spies-and-lies.md define it:
 * two sides (red 0, blue 1) of one seat each, or of two seats in teams; three days of
 * deploy, intel and eight guess-turns; the Double Agent's tug-of-war.
 */

import { arrayOf, command, event, nullable, oneOf, opt, req, type Shape } from "../decode";
import type { Plain } from "../json";
import type { Stream } from "../rng";
import { emitting, FoldFailed, isRecord, type Outcome, Refused, type Rules, type Tagged } from "./rules";

const DEFAULT_INTEL = [
  [1, 2, 3, 4],
  [1, 2, 3, 4],
  [4, 5, 6, 7],
  [4, 5, 6, 7],
  [7, 8, 9, 10],
  [7, 8, 9, 10],
];
const SERGEANT = 4;
const RANKS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

interface Options {
  readonly board_length: number;
  readonly intel_cards: readonly (readonly number[])[];
  readonly deception_pays_on_forced_retreat: boolean;
  readonly deception_reserve: "shared" | "per-side";
  readonly deal: Plain;
}

interface Slot {
  readonly rank: number;
  readonly revealed: boolean;
  readonly retreated: boolean;
  readonly intel: boolean;
  readonly deception: boolean;
}

interface Side {
  readonly exhausted: readonly number[];
  readonly missions: readonly (Slot | null)[];
  readonly tower: number;
  readonly tokens: number;
  readonly reserveUsed: boolean;
  readonly scout: boolean;
  readonly spy: boolean;
  readonly miner: boolean;
  readonly bomb: boolean;
  readonly doubleDamage: boolean;
}

interface Choice {
  readonly kind: "marshal" | "captain";
  readonly side: number;
  readonly mission: number;
}

export interface SpiesState {
  readonly players: number;
  readonly options: Options;
  readonly day: number;
  readonly phase: "deploy" | "intel" | "mission" | "choice" | "over";
  readonly startingSide: number;
  readonly position: number;
  readonly intelDeck: readonly (readonly number[])[];
  readonly currentIntel: readonly number[] | null;
  readonly oldIntel: readonly (readonly number[])[];
  readonly reserve: number;
  readonly sides: readonly [Side, Side];
  readonly deployed: readonly boolean[];
  readonly marked: readonly (boolean | null | undefined)[];
  readonly turn: number;
  readonly windowDone: boolean;
  readonly choice: Choice | null;
  readonly result: { readonly winner: number | null; readonly reason: string; readonly draw: boolean } | null;
}

const ints = arrayOf("int");
const dealShape: Shape = {
  fields: {
    intel: opt(nullable(arrayOf(ints)), null),
    exhausted: opt(nullable({ array: "int", min: 2, max: 2 }), null),
    starting: opt(nullable("int"), null),
  },
  closed: true,
};
const optionsShape: Shape = {
  fields: {
    board_length: opt("int", 3),
    intel_cards: opt(arrayOf(ints), DEFAULT_INTEL),
    deception_pays_on_forced_retreat: opt("bool", true),
    deception_reserve: opt(oneOf("per-side", "shared"), "shared"),
    deal: opt(nullable(dealShape), null),
  },
  closed: true,
};
const seatSideMission = { seat: req("int"), side: req("int"), mission: req("int") };
const cause = oneOf("general", "infiltration", "lieutenant");

const EVENTS = new Map<string, Shape>([
  [
    "spies_and_lies_started",
    event("spies_and_lies_started", {
      players: req("int"),
      options: req(optionsShape),
      old_intel: req(ints),
      intel_deck: req(nullable(arrayOf(ints))),
      exhausted: req({ array: "int", min: 2, max: 2 }),
      starting_side: req(nullable("int")),
    }),
  ],
  [
    "soldiers_deployed",
    event("soldiers_deployed", { seat: req("int"), side: req("int"), first_mission: req("int"), count: req("int"), soldiers: req(nullable(ints)) }),
  ],
  ["intel_card_turned", event("intel_card_turned", { day: req("int"), card: req(ints) })],
  ["intel_marked", event("intel_marked", { seat: req("int"), side: req("int"), sergeant_token: opt(nullable("bool"), null) })],
  ["intel_tokens_revealed", event("intel_tokens_revealed", { tokens: req(arrayOf(arrayOf("bool"))), starting_side: opt(nullable("int"), null) })],
  ["deception_played", event("deception_played", seatSideMission)],
  ["deception_declined", event("deception_declined", seatSideMission)],
  [
    "soldier_revealed",
    event("soldier_revealed", {
      day: req("int"),
      turn: req("int"),
      guesser: req("int"),
      side: req("int"),
      mission: req("int"),
      guess: req("int"),
      rank: req("int"),
      correct: req("bool"),
      forced_by: opt(nullable(oneOf("bomb", "miner", "spy")), null),
    }),
  ],
  [
    "infiltration_points_gained",
    event("infiltration_points_gained", {
      side: req("int"),
      source: req(oneOf("deception", "guess", "soldier")),
      rank: opt(nullable("int"), null),
      amount: req("int"),
      infiltrated: req("bool"),
      carried: opt("int", 0),
      tower: req("int"),
    }),
  ],
  ["infiltration_points_lost", event("infiltration_points_lost", { side: req("int"), amount: req("int"), tower: req("int") })],
  ["deception_token_gained", event("deception_token_gained", { side: req("int") })],
  ["soldier_effect_started", event("soldier_effect_started", { side: req("int"), effect: req(oneOf("bomb", "miner", "scout", "spy")) })],
  ["double_damage_earned", event("double_damage_earned", { side: req("int") })],
  ["marshal_chosen", event("marshal_chosen", { seat: req("int"), side: req("int"), option: req(oneOf("points", "sabotage")) })],
  ["captain_chosen", event("captain_chosen", { seat: req("int"), side: req("int"), borrow: opt(nullable("int"), null) })],
  ["double_agent_moved", event("double_agent_moved", { side: req("int"), cause: req(cause), steps: req("int"), position: req("int") })],
  ["flag_captured", event("flag_captured", { side: req("int"), cause: req(cause) })],
  [
    "spies_and_lies_day_ended",
    event("spies_and_lies_day_ended", { day: req("int"), exhausted: req(arrayOf(ints)), next_starting_side: req("int") }),
  ],
  [
    "spies_and_lies_ended",
    event("spies_and_lies_ended", {
      winner: req(nullable("int")),
      reason: req(oneOf("flag-captured", "infiltration", "territory")),
      draw: opt("bool", false),
      double_agent: req("int"),
      towers: req(ints),
    }),
  ],
]);

const COMMANDS = new Map<string, Shape>([
  ["deploy", command("deploy", { soldiers: req(ints) })],
  ["mark_sergeant", command("mark_sergeant", { token: req("bool") })],
  ["confirm_intel", command("confirm_intel", {})],
  ["deceive", command("deceive", {})],
  ["decline_deception", command("decline_deception", {})],
  ["guess", command("guess", { rank: req("int") })],
  ["choose_marshal", command("choose_marshal", { option: req(oneOf("points", "sabotage")) })],
  ["choose_captain", command("choose_captain", { borrow: opt(nullable("int"), null) })],
]);

// Seats: 0 and 1 are red and blue; with four, 2 and 3 are their teammates for missions 3-4.
const sideOf = (seat: number): number => seat % 2;
const seatOf = (s: SpiesState, side: number, mission: number): number => (s.players === 2 || mission <= 2 ? side : side + 2);
const missionsOf = (s: SpiesState, seat: number): number[] => (s.players === 2 ? [1, 2, 3, 4] : seat < 2 ? [1, 2] : [3, 4]);
const guesserSide = (s: SpiesState, turn: number): number => (turn % 2 === 1 ? s.startingSide : 1 - s.startingSide);
const missionOfTurn = (turn: number): number => Math.ceil(turn / 2);
const gate = (s: SpiesState, side: number): number => (side === 0 ? 1 : -1) * s.options.board_length;

const replaceSide = (s: SpiesState, side: number, change: (x: Side) => Side): SpiesState => {
  const sides: [Side, Side] = [s.sides[0], s.sides[1]];
  sides[side] = change(sides[side] ?? s.sides[0]);
  return { ...s, sides };
};

const freshSide = (exhausted: number): Side => ({
  exhausted: [exhausted],
  missions: [null, null, null, null],
  tower: 0,
  tokens: 1,
  reserveUsed: false,
  scout: false,
  spy: false,
  miner: false,
  bomb: false,
  doubleDamage: false,
});

const sideAt = (s: SpiesState, side: number): Side => {
  const x = s.sides[side];
  if (x === undefined) throw new FoldFailed("no such side");
  return x;
};

const slotAt = (s: SpiesState, side: number, mission: number): Slot => {
  const slot = sideAt(s, side).missions[mission - 1];
  if (slot === undefined || slot === null) throw new FoldFailed("no soldier at that mission");
  return slot;
};

/** Whether a choice waits after this reveal: a wrong, unforced guess on a Captain or Marshal. */
const choiceAfter = (rank: number, correct: boolean, forced: boolean): "marshal" | "captain" | null =>
  correct || forced ? null : rank === 10 ? "marshal" : rank === 6 ? "captain" : null;

/** The next guess-turn (the day's end events follow turn 8 in the same batch). */
const nextTurn = (s: SpiesState): SpiesState => ({ ...s, phase: "mission", choice: null, turn: s.turn + 1, windowDone: false });

function fold(state: SpiesState | null, e: Tagged): SpiesState {
  if (e.type === "spies_and_lies_started") {
    if (state !== null) throw new FoldFailed("the game has already started");
    const players = e["players"] as number;
    const exhausted = e["exhausted"] as number[];
    const deck = e["intel_deck"];
    if (players !== 2 && players !== 4) throw new FoldFailed("2 or 4 seats");
    if (!Array.isArray(deck)) throw new FoldFailed("the intel deck is hidden");
    return {
      players,
      options: e["options"] as unknown as Options,
      day: 1,
      phase: "deploy",
      startingSide: (e["starting_side"] as number | null) ?? 0,
      position: 0,
      intelDeck: deck as number[][],
      currentIntel: null,
      oldIntel: [e["old_intel"] as number[]],
      reserve: 2,
      sides: [freshSide(exhausted[0] ?? 0), freshSide(exhausted[1] ?? 0)],
      deployed: Array.from({ length: players }, () => false),
      marked: Array.from({ length: players }, () => undefined),
      turn: 0,
      windowDone: false,
      choice: null,
      result: null,
    };
  }
  if (state === null) throw new FoldFailed("the game has not started");
  const s = state;
  if (s.phase === "over") throw new FoldFailed("the game is over");
  switch (e.type) {
    case "soldiers_deployed": {
      const seat = e["seat"] as number;
      const first = e["first_mission"] as number;
      const soldiers = e["soldiers"];
      if (s.phase !== "deploy" || !Array.isArray(soldiers) || s.deployed[seat] !== false) throw new FoldFailed("not a deployment of this seat");
      const next = replaceSide(s, sideOf(seat), (x) => ({
        ...x,
        missions: x.missions.map((m, i) => {
          const r = (soldiers as number[])[i + 1 - first];
          return r === undefined ? m : { rank: r, revealed: false, retreated: false, intel: false, deception: false };
        }),
      }));
      return { ...next, deployed: s.deployed.map((d, i) => d || i === seat) };
    }
    case "intel_card_turned": {
      const top = s.intelDeck[0];
      if (s.phase !== "deploy" || top === undefined) throw new FoldFailed("no intel card to turn");
      return { ...s, phase: "intel", currentIntel: top, intelDeck: s.intelDeck.slice(1), marked: s.marked.map(() => undefined) };
    }
    case "intel_marked": {
      const seat = e["seat"] as number;
      if (s.phase !== "intel" || seat < 0 || seat >= s.players || s.marked[seat] !== undefined) throw new FoldFailed("not this seat's intel");
      return { ...s, marked: s.marked.map((m, i) => (i === seat ? (e["sergeant_token"] as boolean | null) : m)) };
    }
    case "intel_tokens_revealed": {
      const tokens = e["tokens"] as boolean[][];
      if (s.phase !== "intel") throw new FoldFailed("not the intel phase");
      let next = s;
      for (const side of [0, 1]) {
        next = replaceSide(next, side, (x) => ({
          ...x,
          missions: x.missions.map((m, i) => (m === null ? m : { ...m, intel: tokens[side]?.[i] === true })),
        }));
      }
      const starting = e["starting_side"] as number | null;
      return { ...next, phase: "mission", startingSide: starting ?? s.startingSide, turn: 1, windowDone: false };
    }
    case "deception_played":
    case "deception_declined": {
      if (s.phase !== "mission" || s.windowDone) throw new FoldFailed("no deception window");
      const side = e["side"] as number;
      const mission = e["mission"] as number;
      if (e.type === "deception_declined") return { ...s, windowDone: true };
      const next = replaceSide(s, side, (x) => ({
        ...x,
        tokens: x.tokens - 1,
        missions: x.missions.map((m, i) => (m !== null && i === mission - 1 ? { ...m, deception: true } : m)),
      }));
      return { ...next, windowDone: true };
    }
    case "soldier_revealed": {
      if (s.phase !== "mission") throw new FoldFailed("not a guess-turn");
      const side = e["side"] as number;
      const mission = e["mission"] as number;
      const rank = e["rank"] as number;
      const correct = e["correct"] as boolean;
      const forcedBy = e["forced_by"] as string | null;
      const slot = slotAt(s, side, mission);
      if (slot.revealed || slot.rank !== rank) throw new FoldFailed("not the soldier at that mission");
      let next = replaceSide(s, side, (x) => ({
        ...x,
        missions: x.missions.map((m, i) => (m !== null && i === mission - 1 ? { ...m, revealed: true, retreated: correct || forcedBy !== null } : m)),
      }));
      if (forcedBy === "bomb") next = replaceSide(next, 1 - side, (x) => ({ ...x, bomb: false }));
      const kind = choiceAfter(rank, correct, forcedBy !== null);
      return kind === null ? nextTurn(next) : { ...next, phase: "choice", choice: { kind, side, mission } };
    }
    case "infiltration_points_gained":
    case "infiltration_points_lost":
      return replaceSide(s, e["side"] as number, (x) => ({ ...x, tower: e["tower"] as number }));
    case "double_agent_moved":
      return { ...s, position: e["position"] as number };
    case "flag_captured":
      return s;
    case "deception_token_gained": {
      const side = e["side"] as number;
      const next = replaceSide(s, side, (x) => ({ ...x, tokens: x.tokens + 1, reserveUsed: true }));
      return { ...next, reserve: s.reserve - 1 };
    }
    case "soldier_effect_started": {
      const effect = e["effect"] as "bomb" | "miner" | "scout" | "spy";
      return replaceSide(s, e["side"] as number, (x) => ({ ...x, [effect]: true }));
    }
    case "double_damage_earned":
      return replaceSide(s, e["side"] as number, (x) => ({ ...x, doubleDamage: true }));
    case "marshal_chosen": {
      if (s.phase !== "choice" || s.choice?.kind !== "marshal") throw new FoldFailed("no Marshal to choose for");
      return nextTurn(s);
    }
    case "captain_chosen": {
      if (s.phase !== "choice" || s.choice?.kind !== "captain") throw new FoldFailed("no Captain to choose for");
      return e["borrow"] === 10 ? { ...s, choice: { ...s.choice, kind: "marshal" } } : nextTurn(s);
    }
    case "spies_and_lies_day_ended": {
      const exhausted = e["exhausted"] as number[][];
      const renew = (x: Side, i: number): Side => ({
        ...x,
        exhausted: exhausted[i] ?? [],
        missions: [null, null, null, null],
        scout: false,
        spy: false,
        miner: false,
        bomb: false,
        doubleDamage: false,
      });
      return {
        ...s,
        day: s.day + 1,
        phase: "deploy",
        startingSide: e["next_starting_side"] as number,
        sides: [renew(s.sides[0], 0), renew(s.sides[1], 1)],
        oldIntel: s.currentIntel === null ? s.oldIntel : [...s.oldIntel, s.currentIntel],
        currentIntel: null,
        deployed: s.deployed.map(() => false),
        turn: 0,
        windowDone: false,
        choice: null,
      };
    }
    case "spies_and_lies_ended":
      return {
        ...s,
        phase: "over",
        position: e["double_agent"] as number,
        result: { winner: e["winner"] as number | null, reason: e["reason"] as string, draw: e["draw"] as boolean },
      };
    default:
      throw new FoldFailed(`not an event of this game: ${e.type}`);
  }
}

type Emit = (event: Tagged) => SpiesState;

/** Resolves what follows a command, emitting its events on a working state. */
class Resolver {
  s: SpiesState;
  private readonly emitter: Emit;
  private readonly stream: Stream;

  constructor(state: SpiesState, emit: Emit, stream: Stream) {
    this.s = state;
    this.emitter = emit;
    this.stream = stream;
  }

  emit(event: Tagged): void {
    this.s = this.emitter(event);
  }

  get over(): boolean {
    return this.s.phase === "over";
  }

  towers(): number[] {
    return [this.s.sides[0].tower, this.s.sides[1].tower];
  }

  /** §8: a move of the Double Agent by a side; a move from the gate captures the flag. */
  move(side: number, steps: number, cause: string): void {
    const g = gate(this.s, side);
    const dir = side === 0 ? 1 : -1;
    if (this.s.position === g) {
      this.emit({ type: "flag_captured", side, cause });
      this.emit({ type: "spies_and_lies_ended", winner: side, reason: "flag-captured", draw: false, double_agent: g + dir, towers: this.towers() });
      return;
    }
    const target = this.s.position + dir * steps;
    const position = dir > 0 ? Math.min(target, g) : Math.max(target, g);
    this.emit({ type: "double_agent_moved", side, cause, steps, position });
  }

  /** §7: a gain of infiltration points; at 10 the Double Agent moves by the day's steps. */
  gain(side: number, amount: number, source: string, rank: number | null): void {
    const t = sideAt(this.s, side).tower + amount;
    if (t < 10) {
      this.emit({ type: "infiltration_points_gained", side, source, rank, amount, infiltrated: false, carried: 0, tower: t });
      return;
    }
    const captures = this.s.position === gate(this.s, side);
    const carried = source === "soldier" && rank === 8 && !captures ? t - 10 : 0;
    this.emit({ type: "infiltration_points_gained", side, source, rank, amount, infiltrated: true, carried, tower: carried });
    this.move(side, this.s.day, "infiltration");
  }

  /** §9: a soldier's activation for its owner; Captain and Marshal wait for their choice. */
  activate(side: number, rank: number): void {
    if (rank === 6 || rank === 10) return;
    if (rank === 5) this.move(side, 1, "lieutenant");
    else if (rank === 9) this.move(side, 2, "general");
    else if (rank !== 7) this.gain(side, ({ 1: 1, 2: 2, 3: 3, 4: 4, 8: 8 } as Record<number, number>)[rank] ?? 0, "soldier", rank);
    if (this.over) return;
    const x = sideAt(this.s, side);
    if (rank === 1 && x.tokens < 2) {
      const allowed = this.s.options.deception_reserve === "shared" ? this.s.reserve > 0 : !x.reserveUsed;
      if (allowed) this.emit({ type: "deception_token_gained", side });
    }
    const effect = ({ 1: "spy", 2: "scout", 3: "miner", 7: "bomb" } as Record<number, "spy" | "scout" | "miner" | "bomb">)[rank];
    if (effect !== undefined && !sideAt(this.s, side)[effect]) this.emit({ type: "soldier_effect_started", side, effect });
  }

  /** The close of a wrong guess: the deception's 4 (when it pays), then the end of the turn. */
  closeWrong(side: number, mission: number, pays: boolean, turn: number): void {
    const slot = slotAt(this.s, side, mission);
    if (slot.deception && pays && !this.over) this.gain(side, 4, "deception", null);
    this.endTurn(turn);
  }

  /** §11, §12: after guess-turn 8, the day's end or the game's. */
  endTurn(turn: number): void {
    if (this.over || turn < 8) return;
    const s = this.s;
    if (s.day >= 3) {
      const [red, blue] = this.towers();
      const p = s.position;
      const winner = p > 0 ? 0 : p < 0 ? 1 : (red ?? 0) > (blue ?? 0) ? 0 : (blue ?? 0) > (red ?? 0) ? 1 : null;
      this.emit({
        type: "spies_and_lies_ended",
        winner,
        reason: p !== 0 ? "territory" : "infiltration",
        draw: winner === null,
        double_agent: p,
        towers: this.towers(),
      });
      return;
    }
    const exhausted = [0, 1].map((side) => {
      const ranks = sideAt(s, side).missions.map((m) => m?.rank ?? 0);
      const take = sideAt(s, 1 - side).doubleDamage ? 2 : 1;
      return this.stream.shuffle(ranks).slice(0, take).sort((a, b) => a - b);
    });
    this.emit({ type: "spies_and_lies_day_ended", day: s.day, exhausted, next_starting_side: 1 - s.startingSide });
  }
}

/** §5.1.2: reading the missions in order, every rank but the Sergeant's strictly increases. */
function ordered(ranks: readonly (number | null)[]): boolean {
  let last = 0;
  for (const r of ranks) {
    if (r === null || r === SERGEANT) continue;
    if (r <= last) return false;
    last = r;
  }
  return true;
}

/**
 * Whether the missions still empty can be filled from `free` in order: the first teammate's
 * deployment must leave its teammate a legal one (§14.4; docs/protocol.md does not say so,
 * see web/verify/SPEC-NOTES.md).
 */
function completable(layout: readonly (number | null)[], free: readonly number[]): boolean {
  const empty = layout.flatMap((r, i) => (r === null ? [i] : []));
  if (empty.length === 0) return true;
  return arrangements(free, empty.length).some((fill) => ordered(layout.map((r, i) => (r === null ? (fill[empty.indexOf(i)] ?? null) : r))));
}

const DEAL_KEYS = ["intel", "exhausted", "starting"];

function start(players: number, options: { readonly [key: string]: Plain }, deal: Plain, stream: Stream): Tagged[] {
  if (players !== 2 && players !== 4) throw new Refused("Spies & Lies has 2 or 4 seats");
  const board = options["board_length"] ?? 3;
  const intel = options["intel_cards"] ?? DEFAULT_INTEL;
  const pays = options["deception_pays_on_forced_retreat"] ?? true;
  const reserve = options["deception_reserve"] ?? "shared";
  for (const key of Object.keys(options)) {
    if (!["board_length", "intel_cards", "deception_pays_on_forced_retreat", "deception_reserve"].includes(key)) throw new Refused(`option ${key}`);
  }
  if (typeof board !== "number" || !Number.isInteger(board) || board < 1) throw new Refused("board_length");
  const isRankList = (v: Plain): v is number[] => Array.isArray(v) && (v as readonly Plain[]).every((r) => typeof r === "number" && RANKS.includes(r));
  if (!Array.isArray(intel) || !(intel as readonly Plain[]).every(isRankList)) throw new Refused("intel_cards");
  if (typeof pays !== "boolean" || (reserve !== "shared" && reserve !== "per-side")) throw new Refused("options");
  let given: { intel: number[][] | null; exhausted: number[] | null; starting: number | null } | null = null;
  if (deal !== null) {
    if (!isRecord(deal) || Object.keys(deal).some((k) => !DEAL_KEYS.includes(k))) throw new Refused("deal");
    const dIntel = deal["intel"] ?? null;
    const dExhausted = deal["exhausted"] ?? null;
    const dStarting = deal["starting"] ?? null;
    if (dIntel !== null && (!Array.isArray(dIntel) || !(dIntel as readonly Plain[]).every(isRankList))) throw new Refused("deal: intel");
    if (dExhausted !== null && (!isRankList(dExhausted) || dExhausted.length !== 2)) throw new Refused("deal: exhausted");
    if (dStarting !== null && dStarting !== 0 && dStarting !== 1) throw new Refused("deal: starting");
    given = { intel: dIntel as number[][] | null, exhausted: dExhausted as number[] | null, starting: dStarting as number | null };
  }
  return emitting(RULES, null, (emit) => {
    const deck = given?.intel ?? stream.shuffle(intel as number[][]);
    const exhausted = given?.exhausted ?? [stream.shuffle(RANKS)[0] ?? 1, stream.shuffle(RANKS)[0] ?? 1];
    const starting = given?.starting ?? stream.randrange(2);
    const [old, ...rest] = deck;
    if (old === undefined) throw new Refused("no intel cards");
    emit({
      type: "spies_and_lies_started",
      players,
      options: {
        board_length: board,
        intel_cards: intel as number[][],
        deception_pays_on_forced_retreat: pays,
        deception_reserve: reserve,
        deal: given === null ? null : { intel: given.intel, exhausted: given.exhausted, starting: given.starting },
      },
      old_intel: old,
      intel_deck: rest,
      exhausted,
      starting_side: starting,
    });
  });
}

/** Whether a seat may deploy now (§5.1, §14.4: the second teammate after the first). */
const mayDeploy = (s: SpiesState, seat: number): boolean =>
  s.phase === "deploy" && s.deployed[seat] === false && (s.players === 2 || seat < 2 || s.deployed[seat - 2] === true);

const hasSergeant = (s: SpiesState, seat: number): boolean =>
  missionsOf(s, seat).some((m) => sideAt(s, sideOf(seat)).missions[m - 1]?.rank === SERGEANT);

/** The ranks a seat may still deploy (not exhausted, not deployed by its side). */
function deployable(s: SpiesState, seat: number): number[] {
  const x = sideAt(s, sideOf(seat));
  return RANKS.filter((r) => !x.exhausted.includes(r) && !x.missions.some((m) => m?.rank === r));
}

/** The defender's deception window is open: it holds a token and has not answered. */
function windowOpen(s: SpiesState): boolean {
  const defender = 1 - guesserSide(s, s.turn);
  return s.phase === "mission" && !s.windowDone && sideAt(s, defender).tokens > 0;
}

function decide(state: SpiesState, seat: number, c: Tagged, stream: Stream): Tagged[] {
  if (seat < 0 || seat >= state.players) throw new Refused("no such seat");
  const side = sideOf(seat);
  return emitting(RULES, state, (emit) => {
    const r = new Resolver(state, emit, stream);
    const s = state;
    switch (c.type) {
      case "deploy": {
        const soldiers = c["soldiers"] as number[];
        const missions = missionsOf(s, seat);
        if (!mayDeploy(s, seat)) throw new Refused("not deploying now");
        const free = deployable(s, seat);
        if (soldiers.length !== missions.length || new Set(soldiers).size !== soldiers.length || !soldiers.every((x) => free.includes(x))) {
          throw new Refused("soldiers of the hand, one per mission");
        }
        const layout = sideAt(s, side).missions.map((m, i) => {
          const at = missions.indexOf(i + 1);
          return at >= 0 ? (soldiers[at] ?? null) : (m?.rank ?? null);
        });
        if (!ordered(layout)) throw new Refused("ranks must increase from Mission 1 to 4 (§5.1.2)");
        if (!completable(layout, free.filter((x) => !soldiers.includes(x)))) throw new Refused("the teammate could not complete the order (§14.4)");
        r.emit({ type: "soldiers_deployed", seat, side, first_mission: missions[0] ?? 1, count: soldiers.length, soldiers: [...soldiers] });
        if (r.s.sides[0].missions[3] != null && r.s.sides[1].missions[3] != null && missions.includes(4)) {
          const card = r.s.intelDeck[0];
          if (card === undefined) throw new Refused("no intel card left");
          r.emit({ type: "intel_card_turned", day: r.s.day, card: [...card] });
        }
        return;
      }
      case "mark_sergeant":
      case "confirm_intel": {
        if (s.phase !== "intel" || s.marked[seat] !== undefined) throw new Refused("not marking now");
        const sergeant = hasSergeant(s, seat);
        if ((c.type === "mark_sergeant") !== sergeant) throw new Refused(sergeant ? "mark the Sergeant" : "no Sergeant deployed");
        r.emit({ type: "intel_marked", seat, side, sergeant_token: c.type === "mark_sergeant" ? (c["token"] as boolean) : null });
        if (r.s.marked.every((m) => m !== undefined)) {
          const card = r.s.currentIntel ?? [];
          const tokens = [0, 1].map((sd) =>
            sideAt(r.s, sd).missions.map((m, i) => {
              if (m === null) return false;
              if (m.rank === SERGEANT) return r.s.marked[seatOf(r.s, sd, i + 1)] === true;
              return card.includes(m.rank);
            }),
          );
          r.emit({ type: "intel_tokens_revealed", tokens, starting_side: r.s.startingSide });
        }
        return;
      }
      case "deceive":
      case "decline_deception": {
        const defender = 1 - guesserSide(s, s.turn);
        const mission = missionOfTurn(s.turn);
        if (!windowOpen(s) || seat !== seatOf(s, defender, mission)) throw new Refused("no deception window for this seat");
        r.emit({ type: c.type === "deceive" ? "deception_played" : "deception_declined", seat, side: defender, mission });
        return;
      }
      case "guess": {
        const guess = c["rank"] as number;
        const gSide = guesserSide(s, s.turn);
        const target = 1 - gSide;
        const mission = missionOfTurn(s.turn);
        if (s.phase !== "mission" || windowOpen(s) || seat !== seatOf(s, gSide, mission)) throw new Refused("not this seat's guess");
        if (!RANKS.includes(guess)) throw new Refused("a rank from 1 to 10");
        const slot = slotAt(s, target, mission);
        const g = sideAt(s, gSide);
        const forcedBy = g.bomb ? "bomb" : g.spy && slot.rank === 10 ? "spy" : g.miner && slot.rank === 7 ? "miner" : null;
        const correct = guess === slot.rank;
        const turn = s.turn;
        r.emit({ type: "soldier_revealed", day: s.day, turn, guesser: seat, side: target, mission, guess, rank: slot.rank, correct, forced_by: forcedBy });
        if (correct) {
          r.gain(gSide, g.scout ? 4 : 2, "guess", null);
          if (forcedBy === "bomb" && !r.over) r.emit({ type: "double_damage_earned", side: gSide });
          r.endTurn(turn);
        } else if (forcedBy !== null) {
          r.closeWrong(target, mission, s.options.deception_pays_on_forced_retreat, turn);
        } else if (slot.rank !== 6 && slot.rank !== 10) {
          r.activate(target, slot.rank);
          r.closeWrong(target, mission, true, turn);
        }
        return;
      }
      case "choose_marshal":
      case "choose_captain": {
        const choice = s.choice;
        const kind = c.type === "choose_marshal" ? "marshal" : "captain";
        if (s.phase !== "choice" || choice === null || choice.kind !== kind || seat !== seatOf(s, choice.side, choice.mission)) {
          throw new Refused("no such choice for this seat");
        }
        const turn = s.turn;
        if (kind === "marshal") {
          const option = c["option"] as string;
          r.emit({ type: "marshal_chosen", seat, side: choice.side, option });
          if (option === "points") r.gain(choice.side, 10, "soldier", 10);
          else {
            r.gain(choice.side, 5, "soldier", 10);
            if (!r.over) {
              const other = 1 - choice.side;
              r.emit({ type: "infiltration_points_lost", side: other, amount: 5, tower: Math.max(0, sideAt(r.s, other).tower - 5) });
            }
          }
          r.closeWrong(choice.side, choice.mission, true, turn);
          return;
        }
        const borrow = c["borrow"] as number | null;
        if (borrow !== null && (borrow === 6 || !sideAt(s, choice.side).exhausted.includes(borrow))) throw new Refused("borrow one of one's exhausted soldiers");
        r.emit({ type: "captain_chosen", seat, side: choice.side, borrow });
        if (borrow === null) r.gain(choice.side, 6, "soldier", 6);
        else if (borrow === 10) return;
        else r.activate(choice.side, borrow);
        r.closeWrong(choice.side, choice.mission, true, turn);
        return;
      }
      default:
        throw new Refused(`not a command of this game: ${c.type}`);
    }
  });
}

/** Every ordered choice of `k` items of `from` (in lexicographic order of positions). */
function arrangements(from: readonly number[], k: number): number[][] {
  if (k === 0) return [[]];
  const out: number[][] = [];
  from.forEach((x, i) => {
    for (const rest of arrangements([...from.slice(0, i), ...from.slice(i + 1)], k - 1)) out.push([x, ...rest]);
  });
  return out;
}

function legal(s: SpiesState, seat: number): Tagged[] {
  if (!toAct(s).includes(seat)) return [];
  const side = sideOf(seat);
  switch (s.phase) {
    case "deploy": {
      const missions = missionsOf(s, seat);
      const current = sideAt(s, side).missions;
      const free = deployable(s, seat);
      return arrangements(free, missions.length)
        .filter((soldiers) => {
          const layout = current.map((m, i) => (missions.includes(i + 1) ? (soldiers[missions.indexOf(i + 1)] ?? null) : (m?.rank ?? null)));
          return ordered(layout) && completable(layout, free.filter((x) => !soldiers.includes(x)));
        })
        .map((soldiers) => ({ type: "deploy", soldiers }));
    }
    case "intel":
      return hasSergeant(s, seat)
        ? [
            { type: "mark_sergeant", token: true },
            { type: "mark_sergeant", token: false },
          ]
        : [{ type: "confirm_intel" }];
    case "mission":
      if (windowOpen(s)) return [{ type: "deceive" }, { type: "decline_deception" }];
      return RANKS.map((rank) => ({ type: "guess", rank }));
    case "choice":
      if (s.choice?.kind === "marshal") {
        return [
          { type: "choose_marshal", option: "points" },
          { type: "choose_marshal", option: "sabotage" },
        ];
      }
      return [
        { type: "choose_captain", borrow: null },
        ...sideAt(s, side)
          .exhausted.filter((x) => x !== 6)
          .map((borrow) => ({ type: "choose_captain", borrow })),
      ];
    default:
      return [];
  }
}

function toAct(s: SpiesState): number[] {
  const seats = Array.from({ length: s.players }, (_, i) => i);
  switch (s.phase) {
    case "deploy":
      return seats.filter((seat) => mayDeploy(s, seat));
    case "intel":
      return seats.filter((seat) => s.marked[seat] === undefined);
    case "mission": {
      const g = guesserSide(s, s.turn);
      const mission = missionOfTurn(s.turn);
      return [windowOpen(s) ? seatOf(s, 1 - g, mission) : seatOf(s, g, mission)];
    }
    case "choice":
      return s.choice === null ? [] : [seatOf(s, s.choice.side, s.choice.mission)];
    default:
      return [];
  }
}

function invariant(s: SpiesState): string | null {
  for (const x of s.sides) {
    const placed = x.missions.flatMap((m) => (m === null ? [] : [m.rank]));
    if (new Set([...placed, ...x.exhausted]).size !== placed.length + x.exhausted.length) return "a soldier is in two places";
    if (x.tower < 0 || x.tower > 9) return "a marker is outside 0-9";
    if (x.tokens < 0 || x.tokens > 2) return "a side holds outside 0-2 deception tokens";
    if (!ordered(x.missions.map((m) => m?.rank ?? null))) return "a deployment is out of order";
  }
  if (s.reserve < 0) return "the reserve is overdrawn";
  return null;
}

function outcome(s: SpiesState): Outcome | null {
  if (s.result === null) return null;
  const seats = Array.from({ length: s.players }, (_, i) => i);
  const winner = s.result.winner;
  return {
    winners: winner === null ? [] : seats.filter((seat) => sideOf(seat) === winner),
    reason: s.result.reason,
    draw: s.result.draw,
    scores: seats.map((seat) => sideAt(s, sideOf(seat)).tower),
  };
}

export const RULES: Rules<SpiesState> = {
  game: "spies-and-lies",
  events: EVENTS,
  commands: COMMANDS,
  start,
  fold,
  decide,
  toAct,
  outcome,
  forfeit: (s, seat) => {
    const seats = Array.from({ length: s.players }, (_, i) => i);
    return {
      winners: seats.filter((x) => sideOf(x) !== sideOf(seat)),
      reason: "timeout",
      draw: false,
      scores: seats.map((x) => sideAt(s, sideOf(x)).tower),
    };
  },
  legal,
  invariant,
};
