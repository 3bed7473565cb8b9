/**
 * Deck of Spies as docs/protocol.md ("Deck of Spies") and docs/rules/deck-of-spies.md define
 * it: one seat, a spy deck of 36, a draw deck of the sixteen cards A-4.
 */

import { arrayOf, command, event, nullable, oneOf, opt, req, type Shape } from "../decode";
import type { Plain } from "../json";
import type { Stream } from "../rng";
import { emitting, FoldFailed, isRecord, type Outcome, Refused, type Rules, type Tagged, without } from "./rules";

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"] as const;
const SUITS = ["C", "D", "H", "S"] as const;

/** The 52 cards in canonical order: clubs, diamonds, hearts, spades, each A to K. */
export const CARDS: readonly string[] = SUITS.flatMap((s) => RANKS.map((r) => `${r}${s}`));
const POSITION = new Map(CARDS.map((c, i) => [c, i]));

const value = (card: string): number => RANKS.indexOf(card.slice(0, -1) as (typeof RANKS)[number]) + 1;
const suit = (card: string): string => card.slice(-1);
const isAce = (card: string): boolean => card.startsWith("A");
const isFace = (card: string): boolean => value(card) >= 11;
const sum = (cards: readonly string[]): number => cards.reduce((t, c) => t + value(c), 0);
const sorted = (cards: readonly string[]): string[] =>
  [...cards].sort((a, b) => (POSITION.get(a) ?? 0) - (POSITION.get(b) ?? 0));
const isCard = (text: Plain): text is string => typeof text === "string" && POSITION.has(text);

interface Flags {
  readonly strict_necessity: boolean;
  readonly ace_counts_in_necessity: boolean;
  readonly retire_multiple_ranks: boolean;
}

export interface DeckState {
  readonly flags: Flags;
  readonly spyDeck: readonly string[];
  readonly drawDeck: readonly string[];
  readonly hand: readonly string[];
  readonly drawDiscard: readonly string[];
  readonly spyDiscard: readonly string[];
  readonly removed: readonly string[];
  readonly turn: number;
  /** A spy is revealed and waits for the player's command. */
  readonly facing: boolean;
  readonly result: "won" | "lost" | "lost_no_ace" | null;
  readonly ownedFaces: number;
}

const cards = arrayOf("string");
const nullableCards = nullable(cards);
const flagsShape: Shape = {
  fields: {
    strict_necessity: opt("bool", true),
    ace_counts_in_necessity: opt("bool", true),
    retire_multiple_ranks: opt("bool", false),
  },
  closed: true,
};

const EVENTS = new Map<string, Shape>([
  [
    "deck_of_spies_started",
    event("deck_of_spies_started", {
      flags: req(flagsShape),
      spy_deck: req(nullableCards),
      spy_deck_count: req("int"),
      draw_deck: req(nullableCards),
      draw_deck_count: req("int"),
      hand: opt(nullableCards, []),
      hand_count: opt("int", 0),
      draw_discard: opt(cards, []),
      spy_discard: opt(nullableCards, []),
      spy_discard_count: opt("int", 0),
      removed: opt(cards, []),
    }),
  ],
  ["spy_revealed", event("spy_revealed", { spy: req("string"), turn: req("int") })],
  ["cards_drawn", event("cards_drawn", { cards: req(nullableCards), count: req("int") })],
  ["discard_reshuffled", event("discard_reshuffled", { order: req(nullableCards), count: req("int") })],
  ["draw_deck_shuffled", event("draw_deck_shuffled", { order: req(nullableCards), count: req("int") })],
  ["spy_countered", event("spy_countered", { spy: req("string"), cards: req(cards) })],
  [
    "spy_recruited",
    event("spy_recruited", { spy: req("string"), cards: req(cards), double_agent: opt(nullable("string"), null) }),
  ],
  ["cards_retired", event("cards_retired", { cards: req(nullableCards), count: req("int") })],
  [
    "spy_assassinated",
    event("spy_assassinated", {
      spy: req("string"),
      ace: req("string"),
      ace_zone: req(oneOf("draw_deck", "draw_discard", "hand")),
      discarded: req(cards),
    }),
  ],
  [
    "deck_of_spies_ended",
    event("deck_of_spies_ended", { result: req(oneOf("lost", "lost_no_ace", "won")), owned_faces: req("int") }),
  ],
]);

const COMMANDS = new Map<string, Shape>([
  ["counter", command("counter", { cards: req(cards), retire: opt(cards, []) })],
  ["recruit", command("recruit", { cards: req(cards), retire: opt(cards, []) })],
  ["assassinate", command("assassinate", { ace: req("string") })],
]);

const strings = (value: Plain | undefined): string[] => {
  if (!Array.isArray(value)) throw new FoldFailed("a list of cards was expected");
  return (value as readonly Plain[]).map((v) => {
    if (!isCard(v)) throw new FoldFailed(`not a card: ${JSON.stringify(v)}`);
    return v;
  });
};

const owned = (s: DeckState): string[] => [...s.hand, ...s.drawDeck, ...s.drawDiscard];
const ownedFaces = (s: DeckState): number => owned(s).filter(isFace).length;

function fold(state: DeckState | null, e: Tagged): DeckState {
  if (e.type === "deck_of_spies_started") {
    if (state !== null) throw new FoldFailed("the game has already started");
    const f = e["flags"] as unknown as Flags;
    return {
      flags: f,
      spyDeck: strings(e["spy_deck"]),
      drawDeck: strings(e["draw_deck"]),
      hand: sorted(strings(e["hand"])),
      drawDiscard: sorted(strings(e["draw_discard"])),
      spyDiscard: sorted(strings(e["spy_discard"])),
      removed: sorted(strings(e["removed"])),
      turn: 0,
      facing: false,
      result: null,
      ownedFaces: 0,
    };
  }
  if (state === null) throw new FoldFailed("the game has not started");
  if (state.result !== null) throw new FoldFailed("the game is over");
  const s = state;
  switch (e.type) {
    case "spy_revealed": {
      if (s.facing || s.spyDeck[0] !== e["spy"]) throw new FoldFailed("not the top spy");
      return { ...s, facing: true, turn: e["turn"] as number };
    }
    case "cards_drawn": {
      const drawn = strings(e["cards"]);
      const count = e["count"] as number;
      const top = s.drawDeck.slice(0, count);
      if (count !== drawn.length || top.length !== count || sorted(top).join() !== sorted(drawn).join()) {
        throw new FoldFailed("the cards drawn are not the draw deck's top");
      }
      return { ...s, drawDeck: s.drawDeck.slice(count), hand: sorted([...s.hand, ...drawn]) };
    }
    case "discard_reshuffled": {
      const order = strings(e["order"]);
      if (s.drawDeck.length > 0 || sorted(order).join() !== s.drawDiscard.join()) {
        throw new FoldFailed("not the draw discard pile reshuffled");
      }
      return { ...s, drawDeck: order, drawDiscard: [] };
    }
    case "draw_deck_shuffled": {
      const order = strings(e["order"]);
      if (sorted(order).join() !== sorted(s.drawDeck).join()) throw new FoldFailed("not the draw deck shuffled");
      return { ...s, drawDeck: order };
    }
    case "spy_countered":
    case "spy_recruited": {
      const spy = s.spyDeck[0];
      const used = strings(e["cards"]);
      const hand = without(s.hand, used);
      if (!s.facing || spy === undefined || spy !== e["spy"] || hand === null) throw new FoldFailed("not the top spy or not in hand");
      const recruited = e.type === "spy_recruited";
      return {
        ...s,
        facing: false,
        spyDeck: s.spyDeck.slice(1),
        hand,
        drawDiscard: sorted([...s.drawDiscard, ...used, ...(recruited ? [spy] : [])]),
        spyDiscard: recruited ? s.spyDiscard : sorted([...s.spyDiscard, spy]),
      };
    }
    case "cards_retired": {
      const retired = strings(e["cards"]);
      const hand = without(s.hand, retired);
      if (hand === null) throw new FoldFailed("retired cards not in hand");
      return { ...s, hand, spyDiscard: sorted([...s.spyDiscard, ...retired]) };
    }
    case "spy_assassinated": {
      const spy = s.spyDeck[0];
      const ace = e["ace"] as string;
      if (!s.facing || spy === undefined || spy !== e["spy"] || !isAce(ace)) throw new FoldFailed("not the top spy or not an Ace");
      const zone = e["ace_zone"] as string;
      let hand = s.hand;
      let drawDeck = s.drawDeck;
      let drawDiscard = s.drawDiscard;
      const take = (from: readonly string[]): string[] => {
        const rest = without(from, [ace]);
        if (rest === null) throw new FoldFailed("the Ace is not in its zone");
        return rest;
      };
      if (zone === "hand") hand = take(hand);
      else if (zone === "draw_deck") drawDeck = take(drawDeck);
      else drawDiscard = take(drawDiscard);
      if (sorted(strings(e["discarded"])).join() !== hand.join()) throw new FoldFailed("the discarded cards are not the hand");
      return {
        ...s,
        facing: false,
        spyDeck: s.spyDeck.slice(1),
        hand: [],
        drawDeck,
        drawDiscard: sorted([...drawDiscard, ...hand]),
        spyDiscard: sorted([...s.spyDiscard, spy]),
        removed: sorted([...s.removed, ace]),
      };
    }
    case "deck_of_spies_ended":
      return { ...s, facing: false, result: e["result"] as DeckState["result"], ownedFaces: e["owned_faces"] as number };
    default:
      throw new FoldFailed(`not an event of this game: ${e.type}`);
  }
}

type Emit = (event: Tagged) => DeckState;

/** §8: draw up to five, reshuffling the draw discard pile when the draw deck is empty. */
function refill(s0: DeckState, emit: Emit, stream: Stream): DeckState {
  let s = s0;
  while (s.hand.length < 5) {
    if (s.drawDeck.length === 0) {
      if (s.drawDiscard.length === 0) break;
      const order = stream.shuffle(s.drawDiscard);
      s = emit({ type: "discard_reshuffled", order, count: order.length });
    }
    const n = Math.min(5 - s.hand.length, s.drawDeck.length);
    s = emit({ type: "cards_drawn", cards: sorted(s.drawDeck.slice(0, n)), count: n });
  }
  return s;
}

/** The next spy, or the end (§3.5, §6.2, §9). */
function nextSpy(s: DeckState, emit: Emit): void {
  const top = s.spyDeck[0];
  if (top === undefined) {
    const faces = ownedFaces(s);
    emit({ type: "deck_of_spies_ended", result: faces >= 7 ? "won" : "lost", owned_faces: faces });
    return;
  }
  const after = emit({ type: "spy_revealed", spy: top, turn: s.turn + 1 });
  if (sum(after.hand) < value(top) && !owned(after).some(isAce)) {
    emit({ type: "deck_of_spies_ended", result: "lost_no_ace", owned_faces: ownedFaces(after) });
  }
}

const FLAG_NAMES = ["strict_necessity", "ace_counts_in_necessity", "retire_multiple_ranks"] as const;
const DEAL_KEYS = ["spies", "draw", "hand", "discard", "spy_discard", "removed"];

function start(players: number, options: { readonly [key: string]: Plain }, deal: Plain, stream: Stream): Tagged[] {
  if (players !== 1) throw new Refused("Deck of Spies has one seat");
  const flags: { [key: string]: boolean } = { strict_necessity: true, ace_counts_in_necessity: true, retire_multiple_ranks: false };
  for (const [key, v] of Object.entries(options)) {
    if (!(FLAG_NAMES as readonly string[]).includes(key) || typeof v !== "boolean") throw new Refused(`option ${key}`);
    flags[key] = v;
  }
  return emitting(RULES, null, (emit) => {
    let spyDeck: string[];
    let drawDeck: string[];
    let hand: string[] = [];
    let discard: string[] = [];
    let spyDiscard: string[] = [];
    let removed: string[] = [];
    const dealt = deal !== null;
    if (!dealt) {
      const band = (low: number, high: number): string[] => CARDS.filter((c) => value(c) >= low && value(c) <= high);
      spyDeck = [...stream.shuffle(band(5, 7)), ...stream.shuffle(band(8, 10)), ...stream.shuffle(band(11, 13))];
      drawDeck = stream.shuffle(band(1, 4));
    } else {
      if (!isRecord(deal)) throw new Refused("a deal is an object");
      for (const key of Object.keys(deal)) if (!DEAL_KEYS.includes(key)) throw new Refused(`deal field ${key}`);
      const list = (key: string, required: boolean): string[] => {
        const v = deal[key];
        if (v === undefined || v === null) {
          if (required) throw new Refused(`the deal needs ${key}`);
          return [];
        }
        if (!Array.isArray(v) || !(v as readonly Plain[]).every(isCard)) throw new Refused(`deal ${key}: cards`);
        return [...(v as string[])];
      };
      spyDeck = list("spies", true);
      drawDeck = list("draw", true);
      hand = list("hand", false);
      discard = list("discard", false);
      spyDiscard = list("spy_discard", false);
      removed = list("removed", false);
      const all = [...spyDeck, ...drawDeck, ...hand, ...discard, ...spyDiscard, ...removed];
      if (all.length !== 52 || new Set(all).size !== 52) throw new Refused("a deal holds the 52 cards once each");
      if (!removed.every(isAce) || hand.length > 5) throw new Refused("only Aces are removed; a hand holds at most 5");
    }
    let s = emit({
      type: "deck_of_spies_started",
      flags: { strict_necessity: flags["strict_necessity"] ?? true, ace_counts_in_necessity: flags["ace_counts_in_necessity"] ?? true, retire_multiple_ranks: flags["retire_multiple_ranks"] ?? false },
      spy_deck: spyDeck,
      spy_deck_count: spyDeck.length,
      draw_deck: drawDeck,
      draw_deck_count: drawDeck.length,
      hand: sorted(hand),
      hand_count: hand.length,
      draw_discard: sorted(discard),
      spy_discard: sorted(spyDiscard),
      spy_discard_count: spyDiscard.length,
      removed: sorted(removed),
    });
    if (!(dealt && hand.length > 0)) s = refill(s, emit, stream);
    nextSpy(s, emit);
  });
}

/** §4.2 and §12 I-15: a legal counter. */
function legalCounter(flags: Flags, used: readonly string[], v: number): boolean {
  if (used.length === 0) return false;
  const total = sum(used);
  if (total < v) return false;
  if (!flags.strict_necessity) return true;
  return total - Math.min(...used.map(value)) < v;
}

/** §5.2, §5.3, I-2, I-3: a legal recruit. */
function legalRecruit(flags: Flags, used: readonly string[], spy: string): boolean {
  const v = value(spy);
  const s = suit(spy);
  const ace = `A${s}`;
  if (used.length === 0 || sum(used) < v) return false;
  if (used.includes(ace)) {
    const others = used.filter((c) => c !== ace);
    if (others.length === 0) return false;
    if (!flags.strict_necessity) return true;
    const total = flags.ace_counts_in_necessity ? sum(used) : sum(others);
    return total - Math.min(...others.map(value)) < v;
  }
  if (!used.every((c) => suit(c) === s)) return false;
  return legalCounter(flags, used, v);
}

/** §7, I-6: a legal retire (possibly empty) from the cards left in hand. */
function legalRetire(flags: Flags, retire: readonly string[]): boolean {
  if (retire.length === 0) return true;
  const byRank = new Map<number, number>();
  for (const c of retire) byRank.set(value(c), (byRank.get(value(c)) ?? 0) + 1);
  if (!flags.retire_multiple_ranks && byRank.size !== 1) return false;
  return [...byRank.values()].every((n) => n >= 2);
}

const distinctCards = (list: readonly string[]): boolean => list.every(isCard) && new Set(list).size === list.length;

function decide(state: DeckState, seat: number, c: Tagged, stream: Stream): Tagged[] {
  const spy = state.spyDeck[0];
  if (seat !== 0 || !state.facing || state.result !== null || spy === undefined) throw new Refused("not the seat's turn");
  const v = value(spy);
  const mustAssassinate = sum(state.hand) < v;
  return emitting(RULES, state, (emit) => {
    if (c.type === "assassinate") {
      const ace = c["ace"] as string;
      if (!mustAssassinate) throw new Refused("an assassination needs a hand below the spy (§6.1)");
      if (!isCard(ace) || !isAce(ace)) throw new Refused("not an Ace");
      const zone = state.hand.includes(ace) ? "hand" : state.drawDeck.includes(ace) ? "draw_deck" : state.drawDiscard.includes(ace) ? "draw_discard" : null;
      if (zone === null) throw new Refused("the Ace is not owned");
      const discarded = state.hand.filter((x) => x !== ace);
      let s = emit({ type: "spy_assassinated", spy, ace, ace_zone: zone, discarded });
      if (zone === "draw_deck" && s.drawDeck.length > 0) {
        const order = stream.shuffle(s.drawDeck);
        s = emit({ type: "draw_deck_shuffled", order, count: order.length });
      }
      if (s.spyDeck.length > 0) s = refill(s, emit, stream);
      nextSpy(s, emit);
      return;
    }
    const used = c["cards"] as string[];
    const retire = c["retire"] as string[];
    if (mustAssassinate) throw new Refused("the hand cannot reach the spy: assassinate (§3.2)");
    if (!distinctCards(used) || !distinctCards(retire)) throw new Refused("cards given twice or unknown");
    const rest = without(state.hand, used);
    if (rest === null || without(rest, retire) === null) throw new Refused("cards not in hand");
    if (c.type === "counter" && !legalCounter(state.flags, used, v)) throw new Refused("not a legal counter (§4.2)");
    if (c.type === "recruit" && !legalRecruit(state.flags, used, spy)) throw new Refused("not a legal recruit (§5)");
    if (!legalRetire(state.flags, retire)) throw new Refused("not a legal retire (§7)");
    let s =
      c.type === "counter"
        ? emit({ type: "spy_countered", spy, cards: sorted(used) })
        : emit({ type: "spy_recruited", spy, cards: sorted(used), double_agent: used.includes(`A${suit(spy)}`) ? `A${suit(spy)}` : null });
    if (retire.length > 0) s = emit({ type: "cards_retired", cards: sorted(retire), count: retire.length });
    if (s.spyDeck.length > 0) s = refill(s, emit, stream);
    nextSpy(s, emit);
  });
}

/** The `k`-item combinations of a list, in lexicographic order of positions. */
function combinations<T>(items: readonly T[], k: number, from = 0): T[][] {
  if (k === 0) return [[]];
  const out: T[][] = [];
  for (let i = from; i <= items.length - k; i++) {
    for (const rest of combinations(items, k - 1, i + 1)) out.push([items[i] as T, ...rest]);
  }
  return out;
}

/** Non-empty subsets of a list: by size, then in lexicographic order of positions. */
function subsets<T>(items: readonly T[]): T[][] {
  return Array.from({ length: items.length }, (_, i) => combinations(items, i + 1)).flat();
}

/** §7: the retire options of the cards left in hand: none, then every legal retire, as subsets. */
function retireOptions(flags: Flags, rest: readonly string[]): string[][] {
  return [[], ...subsets(rest).filter((r) => r.length >= 2 && legalRetire(flags, r))];
}

/** §10.2: every legal command, in the order this verifier assumes (see SPEC-NOTES.md). */
function legal(state: DeckState, seat: number): Tagged[] {
  const spy = state.spyDeck[0];
  if (seat !== 0 || !state.facing || state.result !== null || spy === undefined) return [];
  const v = value(spy);
  if (sum(state.hand) < v) {
    const aces = sorted(owned(state).filter(isAce));
    return aces.map((ace) => ({ type: "assassinate", ace }));
  }
  const out: Tagged[] = [];
  for (const used of subsets(state.hand)) {
    const rest = state.hand.filter((x) => !used.includes(x));
    if (legalCounter(state.flags, used, v)) for (const r of retireOptions(state.flags, rest)) out.push({ type: "counter", cards: used, retire: r });
    if (legalRecruit(state.flags, used, spy)) for (const r of retireOptions(state.flags, rest)) out.push({ type: "recruit", cards: used, retire: r });
  }
  return out;
}

function invariant(s: DeckState): string | null {
  const all = [...s.spyDeck, ...s.drawDeck, ...s.hand, ...s.drawDiscard, ...s.spyDiscard, ...s.removed];
  if (all.length !== 52 || new Set(all).size !== 52) return "the six zones do not hold the 52 cards once each";
  if (!s.removed.every(isAce)) return "a card other than an Ace is removed";
  if (s.hand.length > 5) return "the hand holds more than five cards";
  return null;
}

function outcome(s: DeckState): Outcome | null {
  if (s.result === null) return null;
  return {
    winners: s.result === "won" ? [0] : [],
    reason: s.result === "lost_no_ace" ? "no-ace-left" : "owned-faces",
    draw: false,
    scores: [s.ownedFaces],
  };
}

export const RULES: Rules<DeckState> = {
  game: "deck-of-spies",
  events: EVENTS,
  commands: COMMANDS,
  start,
  fold,
  decide,
  toAct: (s) => (s.facing && s.result === null ? [0] : []),
  outcome,
  forfeit: (s) => ({ winners: [], reason: "timeout", draw: false, scores: [ownedFaces(s)] }),
  legal,
  invariant,
};
