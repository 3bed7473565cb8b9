/**
 * Black Spy as docs/protocol.md ("Black Spy") and docs/rules/black-spy.md define it: 3 to 6
 * seats, 60 cards, a pass, tricks, deals until a total reaches the threshold.
 */

import { arrayOf, command, event, nullable, oneOf, opt, req, type Shape } from "../decode";
import type { Plain } from "../json";
import type { Stream } from "../rng";
import { emitting, FoldFailed, isRecord, Refused, type Rules, type Tagged, without } from "./rules";

const COLOURS = ["blue", "yellow", "red", "green", "black"] as const;

/** The 60 cards in canonical order: each colour 1 to 11, then five more black 7s. */
export const DECK: readonly string[] = [
  ...COLOURS.flatMap((c) => Array.from({ length: 11 }, (_, i) => `${c}-${i + 1}`)),
  ...Array.from({ length: 5 }, () => "black-7"),
];
const FIRST = new Map<string, number>();
DECK.forEach((c, i) => {
  if (!FIRST.has(c)) FIRST.set(c, i);
});

const colour = (card: string): string => card.slice(0, card.indexOf("-"));
const rank = (card: string): number => Number(card.slice(card.indexOf("-") + 1));
const isCard = (v: Plain): v is string => typeof v === "string" && FIRST.has(v);
const sortCards = (cards: readonly string[]): string[] => [...cards].sort((a, b) => (FIRST.get(a) ?? 0) - (FIRST.get(b) ?? 0));
const BLACK_VALUES = [0, 1, 1, 1, 1, 1, 1, 10, 2, 3, 4, 5];

interface Flags {
  readonly no_good_spies: boolean;
  readonly classic: boolean;
}

export interface BlackSpyState {
  readonly players: number;
  readonly flags: Flags;
  readonly dealer: number;
  readonly deal: number;
  readonly direction: string;
  readonly hands: readonly (readonly string[])[];
  /** Each seat's pass this deal, or null before it passed. */
  readonly passes: readonly (readonly string[] | null)[];
  readonly phase: "deal" | "pass" | "play" | "over";
  readonly leader: number;
  readonly trick: readonly string[];
  readonly trickNo: number;
  /** The cards of the tricks each seat took this deal. */
  readonly taken: readonly (readonly string[])[];
  readonly totals: readonly number[];
  readonly winners: readonly number[];
}

const cards = arrayOf("string");
const flagsShape: Shape = { fields: { no_good_spies: opt("bool", false), classic: opt("bool", false) }, closed: true };

const EVENTS = new Map<string, Shape>([
  ["black_spy_started", event("black_spy_started", { players: req("int"), flags: req(flagsShape), dealer: req("int"), fixed_deal: opt("bool", false) })],
  [
    "black_spy_dealt",
    event("black_spy_dealt", {
      deal: req("int"),
      dealer: req("int"),
      direction: req(oneOf("across", "left", "right")),
      hand_size: req("int"),
      hands: req(arrayOf(nullable(cards))),
    }),
  ],
  ["black_spy_cards_passed", event("black_spy_cards_passed", { seat: req("int"), to_seat: req("int"), cards: req(nullable(cards)) })],
  ["black_spy_cards_exchanged", event("black_spy_cards_exchanged", { received: req(arrayOf(nullable(cards))), leader: req("int") })],
  ["black_spy_card_played", event("black_spy_card_played", { seat: req("int"), card: req("string") })],
  ["black_spy_trick_won", event("black_spy_trick_won", { trick: req("int"), winner: req("int"), cards: req(cards), points: req("int") })],
  [
    "black_spy_deal_scored",
    event("black_spy_deal_scored", { deal: req("int"), scores: req(arrayOf("int")), totals: req(arrayOf("int")), moon: opt(nullable("int"), null) }),
  ],
  ["black_spy_game_ended", event("black_spy_game_ended", { winners: req(arrayOf("int")), totals: req(arrayOf("int")), threshold: req("int") })],
]);

const COMMANDS = new Map<string, Shape>([
  ["pass_cards", command("pass_cards", { cards: req(cards) })],
  ["play_card", command("play_card", { card: req("string") })],
]);

const OFFSETS: Readonly<Record<string, number>> = { left: 1, right: -1, across: 2 };
const mod = (a: number, n: number): number => ((a % n) + n) % n;

/** The pass direction of deal `d` (1 first), §3.3 and Appendix A. */
function direction(players: number, classic: boolean, d: number): string {
  if (classic) return "left";
  if (players === 4) return ["left", "right", "across"][(d - 1) % 3] ?? "left";
  return (d - 1) % 2 === 0 ? "left" : "right";
}

const THRESHOLDS: Readonly<Record<number, number>> = { 3: 200, 4: 150, 5: 120, 6: 100 };
const threshold = (s: BlackSpyState): number => (s.flags.classic ? 200 : (THRESHOLDS[s.players] ?? 200));

/** §6.2: a card's points. */
function points(flags: Flags, card: string): number {
  if (colour(card) === "black") return BLACK_VALUES[rank(card)] ?? 0;
  return rank(card) === 7 && !flags.no_good_spies && !flags.classic ? -5 : 0;
}

/** §5.4, §5.5: the index in play order of the trick's winning card. */
function winningIndex(trick: readonly string[]): number {
  const led = trick[0] ?? "";
  let best = 0;
  trick.forEach((card, i) => {
    if (colour(card) === colour(led) && rank(card) > rank(trick[best] ?? led)) best = i;
  });
  return best;
}

const strings = (value: Plain | undefined): string[] => {
  if (!Array.isArray(value) || !(value as readonly Plain[]).every(isCard)) throw new FoldFailed("a list of cards was expected");
  return [...(value as string[])];
};

/** The seat whose turn it is in the trick. */
const turnOf = (s: BlackSpyState): number => mod(s.leader + s.trick.length, s.players);

function fold(state: BlackSpyState | null, e: Tagged): BlackSpyState {
  if (e.type === "black_spy_started") {
    if (state !== null) throw new FoldFailed("the game has already started");
    const players = e["players"] as number;
    if (players < 3 || players > 6) throw new FoldFailed("3 to 6 seats");
    return {
      players,
      flags: e["flags"] as unknown as Flags,
      dealer: e["dealer"] as number,
      deal: 0,
      direction: "left",
      hands: [],
      passes: [],
      phase: "deal",
      leader: 0,
      trick: [],
      trickNo: 0,
      taken: [],
      totals: Array.from({ length: players }, () => 0),
      winners: [],
    };
  }
  if (state === null) throw new FoldFailed("the game has not started");
  const s = state;
  const n = s.players;
  switch (e.type) {
    case "black_spy_dealt": {
      if (s.phase !== "deal") throw new FoldFailed("not between deals");
      const hands = (e["hands"] as Plain[]).map(strings);
      if (hands.length !== n || (e["deal"] as number) !== s.deal + 1) throw new FoldFailed("not the next deal");
      return {
        ...s,
        deal: e["deal"] as number,
        dealer: e["dealer"] as number,
        direction: e["direction"] as string,
        hands: hands.map(sortCards),
        passes: Array.from({ length: n }, () => null),
        phase: "pass",
        trick: [],
        trickNo: 0,
        taken: Array.from({ length: n }, () => []),
      };
    }
    case "black_spy_cards_passed": {
      const seat = e["seat"] as number;
      const passed = strings(e["cards"]);
      const hand = s.hands[seat];
      const rest = hand === undefined ? null : without(hand, passed);
      if (s.phase !== "pass" || rest === null || s.passes[seat] !== null) throw new FoldFailed("not a pass of this seat");
      return {
        ...s,
        hands: s.hands.map((h, i) => (i === seat ? rest : h)),
        passes: s.passes.map((p, i) => (i === seat ? sortCards(passed) : p)),
      };
    }
    case "black_spy_cards_exchanged": {
      if (s.phase !== "pass" || s.passes.some((p) => p === null)) throw new FoldFailed("not every seat has passed");
      const received = (e["received"] as Plain[]).map(strings);
      if (received.length !== n) throw new FoldFailed("one list per seat");
      return {
        ...s,
        hands: s.hands.map((h, i) => sortCards([...h, ...(received[i] ?? [])])),
        passes: s.passes.map(() => null),
        phase: "play",
        leader: e["leader"] as number,
        trickNo: 1,
      };
    }
    case "black_spy_card_played": {
      const seat = e["seat"] as number;
      const card = e["card"] as string;
      const hand = s.hands[seat];
      const rest = hand === undefined ? null : without(hand, [card]);
      if (s.phase !== "play" || seat !== turnOf(s) || s.trick.length >= n || rest === null) throw new FoldFailed("not this seat's card");
      return { ...s, hands: s.hands.map((h, i) => (i === seat ? rest : h)), trick: [...s.trick, card] };
    }
    case "black_spy_trick_won": {
      const winner = e["winner"] as number;
      if (s.trick.length !== n || winner < 0 || winner >= n) throw new FoldFailed("the trick is not complete");
      return {
        ...s,
        taken: s.taken.map((t, i) => (i === winner ? [...t, ...s.trick] : t)),
        trick: [],
        leader: winner,
        trickNo: s.trickNo + 1,
      };
    }
    case "black_spy_deal_scored": {
      const totals = e["totals"] as number[];
      if (s.hands.some((h) => h.length > 0) || totals.length !== n) throw new FoldFailed("the deal is not over");
      return { ...s, totals, phase: "deal" };
    }
    case "black_spy_game_ended":
      return { ...s, phase: "over", winners: e["winners"] as number[] };
    default:
      throw new FoldFailed(`not an event of this game: ${e.type}`);
  }
}

/** §2.3: the 60 cards shuffled in canonical order, dealt from the dealer's left. */
function dealHands(players: number, dealer: number, stream: Stream): string[][] {
  const shuffled = stream.shuffle(DECK);
  const hands: string[][] = Array.from({ length: players }, () => []);
  shuffled.forEach((card, i) => hands[mod(dealer + 1 + i, players)]?.push(card));
  return hands.map(sortCards);
}

function dealEvent(s: BlackSpyState, d: number, dealer: number, hands: readonly (readonly string[])[]): Tagged {
  return {
    type: "black_spy_dealt",
    deal: d,
    dealer,
    direction: direction(s.players, s.flags.classic, d),
    hand_size: 60 / s.players,
    hands: hands.map((h) => [...h]),
  };
}

const UNSUPPORTED = ["capture_or_release", "mole", "call_colour", "follow_rank", "reduce_points"];

function start(players: number, options: { readonly [key: string]: Plain }, deal: Plain, stream: Stream): Tagged[] {
  if (players < 3 || players > 6) throw new Refused("Black Spy has 3 to 6 seats");
  const flags = { no_good_spies: false, classic: false };
  for (const [key, v] of Object.entries(options)) {
    if (UNSUPPORTED.includes(key)) throw new Refused(`unsupported variant ${key}`);
    if ((key !== "no_good_spies" && key !== "classic") || typeof v !== "boolean") throw new Refused(`option ${key}`);
    flags[key] = v;
  }
  return emitting(RULES, null, (emit) => {
    if (deal === null) {
      const dealer = stream.randrange(players);
      const s = emit({ type: "black_spy_started", players, flags, dealer, fixed_deal: false });
      emit(dealEvent(s, 1, dealer, dealHands(players, dealer, stream)));
      return;
    }
    if (!isRecord(deal) || Object.keys(deal).some((k) => k !== "dealer" && k !== "hands")) throw new Refused("a deal is {dealer, hands}");
    const dealer = deal["dealer"];
    const hands = deal["hands"];
    if (typeof dealer !== "number" || !Number.isInteger(dealer) || dealer < 0 || dealer >= players) throw new Refused("deal: dealer");
    if (!Array.isArray(hands) || hands.length !== players) throw new Refused("deal: one hand per seat");
    const given = (hands as readonly Plain[]).map((h) => {
      if (!Array.isArray(h) || !(h as readonly Plain[]).every(isCard) || h.length !== 60 / players) throw new Refused("deal: a hand");
      return sortCards(h as string[]);
    });
    if (without(given.flat(), DECK)?.length !== 0 || given.flat().length !== 60) throw new Refused("deal: the 60 cards");
    const s = emit({ type: "black_spy_started", players, flags, dealer, fixed_deal: true });
    emit(dealEvent(s, 1, dealer, given));
  });
}

/** §4.3, §5.2, Appendix A: the cards a seat may play now. */
function playable(s: BlackSpyState, hand: readonly string[]): string[] {
  const led = s.trick[0];
  if (led === undefined) {
    if (s.trickNo !== 1) return [...hand];
    const coloured = hand.filter((c) => colour(c) !== "black");
    return coloured.length > 0 ? coloured : [...hand];
  }
  const follow = hand.filter((c) => colour(c) === colour(led) || rank(c) === rank(led));
  return follow.length > 0 ? follow : [...hand];
}

/** §6: the deal's scores, and the moon's shooter (not in classic). */
function dealScores(s: BlackSpyState): { scores: number[]; moon: number | null } {
  const goodSpies = !s.flags.no_good_spies && !s.flags.classic;
  const good = s.taken.map((t) => (goodSpies ? -5 * t.filter((c) => colour(c) !== "black" && rank(c) === 7).length : 0));
  const black = s.taken.map((t) => t.filter((c) => colour(c) === "black").reduce((a, c) => a + points(s.flags, c), 0));
  const shooter = s.flags.classic ? -1 : s.taken.findIndex((t) => t.filter((c) => colour(c) === "black").length === 16);
  if (shooter >= 0) {
    const total = goodSpies ? 60 : 80;
    return { scores: s.taken.map((_, i) => (i === shooter ? 0 : total) + (good[i] ?? 0)), moon: shooter };
  }
  return { scores: s.taken.map((_, i) => (black[i] ?? 0) + (good[i] ?? 0)), moon: null };
}

function decide(state: BlackSpyState, seat: number, c: Tagged, stream: Stream): Tagged[] {
  const n = state.players;
  const hand = state.hands[seat];
  if (hand === undefined) throw new Refused("no such seat");
  return emitting(RULES, state, (emit) => {
    if (c.type === "pass_cards") {
      const passed = c["cards"] as string[];
      if (state.phase !== "pass" || state.passes[seat] !== null) throw new Refused("not passing now");
      if (passed.length !== 3 || !passed.every(isCard) || without(hand, passed) === null) throw new Refused("three cards of the hand");
      const offset = OFFSETS[state.direction] ?? 1;
      let s = emit({ type: "black_spy_cards_passed", seat, to_seat: mod(seat + offset, n), cards: sortCards(passed) });
      if (s.passes.every((p) => p !== null)) {
        const received = s.passes.map((_, i) => [...(s.passes[mod(i - offset, n)] ?? [])]);
        const after = s.hands.map((h, i) => [...h, ...(received[i] ?? [])]);
        const leader = s.flags.classic ? mod(s.dealer + 1, n) : after.findIndex((h) => h.includes("red-1"));
        s = emit({ type: "black_spy_cards_exchanged", received, leader });
      }
      return;
    }
    const card = c["card"] as string;
    if (state.phase !== "play" || turnOf(state) !== seat) throw new Refused("not the seat's turn");
    if (!isCard(card) || !hand.includes(card)) throw new Refused("not in hand");
    if (!playable(state, hand).includes(card)) throw new Refused("must follow the led colour or rank (§5.2)");
    let s = emit({ type: "black_spy_card_played", seat, card });
    if (s.trick.length < n) return;
    const trick = s.trick;
    const winner = mod(s.leader + winningIndex(trick), n);
    s = emit({
      type: "black_spy_trick_won",
      trick: s.trickNo,
      winner,
      cards: [...trick],
      points: trick.reduce((a, x) => a + points(s.flags, x), 0),
    });
    if (s.hands.some((h) => h.length > 0)) return;
    const { scores, moon } = dealScores(s);
    const totals = s.totals.map((t, i) => t + (scores[i] ?? 0));
    s = emit({ type: "black_spy_deal_scored", deal: s.deal, scores, totals, moon });
    const limit = threshold(s);
    if (totals.some((t) => t >= limit)) {
      const low = Math.min(...totals);
      emit({ type: "black_spy_game_ended", winners: totals.flatMap((t, i) => (t === low ? [i] : [])), totals, threshold: limit });
      return;
    }
    const dealer = mod(s.dealer + 1, n);
    emit(dealEvent(s, s.deal + 1, dealer, dealHands(n, dealer, stream)));
  });
}

/** Distinct items, in their first order. */
const distinct = (items: readonly string[]): string[] => [...new Set(items)];

/** Three-card combinations of a sorted hand, each once (the black 7s are alike), in lexicographic order. */
function passOptions(hand: readonly string[]): string[][] {
  const out: string[][] = [];
  const seen = new Set<string>();
  for (let i = 0; i < hand.length; i++) {
    for (let j = i + 1; j < hand.length; j++) {
      for (let k = j + 1; k < hand.length; k++) {
        const combo = [hand[i] ?? "", hand[j] ?? "", hand[k] ?? ""];
        const key = combo.join();
        if (!seen.has(key)) {
          seen.add(key);
          out.push(combo);
        }
      }
    }
  }
  return out;
}

function legal(s: BlackSpyState, seat: number): Tagged[] {
  const hand = s.hands[seat];
  if (hand === undefined) return [];
  if (s.phase === "pass") return s.passes[seat] === null ? passOptions(hand).map((cards) => ({ type: "pass_cards", cards })) : [];
  if (s.phase === "play" && turnOf(s) === seat) return distinct(playable(s, hand)).map((card) => ({ type: "play_card", card }));
  return [];
}

function toAct(s: BlackSpyState): number[] {
  if (s.phase === "pass") return s.passes.flatMap((p, i) => (p === null ? [i] : []));
  if (s.phase === "play") return [turnOf(s)];
  return [];
}

function invariant(s: BlackSpyState): string | null {
  const places = [...s.hands.flat(), ...s.passes.flatMap((p) => p ?? []), ...s.trick, ...s.taken.flat()];
  if (s.phase !== "over" && s.phase !== "deal" && (places.length !== 60 || without(places, DECK)?.length !== 0)) {
    return "the 60 cards are not each in exactly one place";
  }
  for (const h of s.hands) if (sortCards(h).join() !== h.join()) return "a hand is not sorted";
  return null;
}

export const RULES: Rules<BlackSpyState> = {
  game: "black-spy",
  events: EVENTS,
  commands: COMMANDS,
  start,
  fold,
  decide,
  toAct,
  outcome: (s) => (s.phase === "over" ? { winners: s.winners, reason: "threshold-reached", draw: false, scores: s.totals } : null),
  forfeit: () => {
    throw new Refused("Black Spy cannot be forfeited");
  },
  legal,
  invariant,
};
