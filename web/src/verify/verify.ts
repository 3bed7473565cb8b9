/**
 * The second verifier of a game's log (docs/protocol.md, "Verify"): reads an export, checks
 * the chain, the seed and its commitments, re-derives the set-up and every command from the
 * seed through each game's rules, the clocks, the seats (a deal deferred to the last join too)
 * and the bots' marks, and the end; the
 * checks run in the specification's order, so the first problem is the one it names.
 *
 * Formats are dispatched on the header's `format`: format 1 (`spies-replay/1`), format 2
 * (`spies-replay/2`), which is format 1 with a mixed seed (docs/protocol.md, "Entropy"), and
 * format 3 (`spies-replay/3`): its own genesis, RFC 8785 canonical JSON (./jcs) for the chain
 * and the deal commitment, `game_created.log` saying it, and a strictly hex seed.
 */

import * as clocks from "./clocks";
import type { Limits, SeatClock, TimeControl } from "./clocks";
import { decode, decodeTagged, Invalid } from "./decode";
import { RULES as BLACK_SPY } from "./games/black-spy";
import { RULES as DECK_OF_SPIES } from "./games/deck-of-spies";
import { FoldFailed, type Outcome, Refused, type Rules, type Tagged } from "./games/rules";
import { RULES as SPIES_AND_LIES } from "./games/spies-and-lies";
import { jcsText } from "./jcs";
import { canonicalText, depthOf, fromPlain, JObject, type JValue, NotCanonicalisable, type Plain, toPlain, utf8 } from "./json";
import { CLOCK_EVENTS, META_EVENTS, type Seat, SEAT_EVENTS, seatEvent } from "./meta";
import { RANDOM_VERSIONS, randomChoice } from "./bots";
import { type Export, type Header, readExport, type Row } from "./read";
import { type KeyList, type Receipt, receiptProblem } from "./receipts";
import { hex, mixSeed, sha256, seedFromHex, type Stream, withStream } from "./rng";
import { printable, readsAsText, utf8Text } from "./text";
import { msText, parseLogTime } from "./times";
import { type Caveat, type CaveatCode, fail, Failure, type Verdict } from "./verdict";

/** What a verification is given besides the export. */
export interface VerifyOptions {
  /** The head hash the game's server published (`--head`). */
  readonly head?: string;
  /** Re-run `random@1` and `random@2` marks (default true); false reports every mark as not re-run. */
  readonly bots?: boolean;
  /** Receipts the server signed (`--receipt`): the log must hold each head at its seq. */
  readonly receipts?: readonly Receipt[];
  /** The server's keys (`GET /keys`, `--keys`): each receipt's signature is checked first. */
  readonly keys?: KeyList;
  /**
   * Told every re-derived batch that drew: the seq of its first game event, its nonce and its
   * `randrange` calls as [n, result] (the vectors' `draws`).
   */
  readonly onDraws?: (seq: number, nonce: number, draws: readonly (readonly [number, number])[]) => void;
}

/** The games this verifier knows, by id. */
// The rules are generic over their own state; the verifier only passes a state back to the rules it came from.
const GAMES: ReadonlyMap<string, Rules<unknown>> = new Map([
  [DECK_OF_SPIES.game, DECK_OF_SPIES as Rules<unknown>],
  [BLACK_SPY.game, BLACK_SPY as Rules<unknown>],
  [SPIES_AND_LIES.game, SPIES_AND_LIES as Rules<unknown>],
]);

const MARK = /^[^@]+(@[1-9][0-9]*)?$/;
const MAX_DEPTH = 64;
const FORMAT_1 = "spies-replay/1";
const FORMAT_2 = "spies-replay/2";
const FORMAT_3 = "spies-replay/3";
/** A format 3 seed: lower-case hex of whole bytes. */
const STRICT_HEX = /^(?:[0-9a-f]{2})+$/;
const ENTROPY = /^(?:[0-9a-f]{2}){16,64}$/;
const RNG_1 = "hmac-sha256-fisher-yates/1";

/** Verifies an export's bytes (or text). */
export async function verifyExport(input: Uint8Array | string, options: VerifyOptions = {}): Promise<Verdict> {
  const data = typeof input === "string" ? utf8(input) : input;
  const caveats = new Caveats();
  const tally = { rederived: 0, notRerun: 0, seed: false };
  try {
    const read = readExport(data);
    switch (read.header.format) {
      case FORMAT_1:
      case FORMAT_2:
      case FORMAT_3:
        await new Format1(read, options, caveats, tally).run();
        break;
      default:
        fail(null, "invalid-export", `format ${read.header.format}`);
    }
    return verdict(null, tally, caveats);
  } catch (error) {
    if (error instanceof Failure) return verdict(error, tally, caveats);
    throw error;
  }
}

function verdict(failure: Failure | null, tally: { rederived: number; notRerun: number; seed: boolean }, caveats: Caveats): Verdict {
  return {
    ok: failure === null,
    problem: failure?.problem ?? null,
    rederived: tally.seed ? "revealed-seed" : "not-checked",
    botMovesRederived: tally.rederived,
    botMovesNotRerun: tally.notRerun,
    caveats: caveats.list(),
  };
}

/** Caveats, once per kind and subject, with the first seq and a count. */
class Caveats {
  private readonly seen = new Map<string, Caveat>();
  add(code: CaveatCode, about: string, seq: number): void {
    const key = `${code}\u0000${about}`;
    const before = this.seen.get(key);
    this.seen.set(key, before === undefined ? { code, about, seq, count: 1 } : { ...before, count: before.count + 1 });
  }
  list(): Caveat[] {
    return [...this.seen.values()];
  }
}

/** `game_created`, decoded. */
interface Created {
  readonly game: string;
  readonly players: number;
  readonly options: { readonly [key: string]: Plain };
  readonly seed_commitment: string;
  readonly seed_source: string;
  readonly rng: string;
  readonly created_at: string | null;
  readonly deal_commitment: string | null;
  readonly seats: readonly Seat[] | null;
  readonly clock: TimeControl | null;
  readonly deal_deferred: boolean;
  readonly open_until: string | null;
}

/** What the log owes next: the batch's clocks, or a timeout's forced move. */
type Owed =
  | { readonly kind: "clocks"; readonly expected: Tagged }
  | { readonly kind: "forced"; readonly seat: number; readonly abandon: boolean; readonly handed: boolean };

/** The batch being read. */
interface Batch {
  readonly kind: "creation" | "command" | "timeout" | "resume" | "seat" | "abort";
  /** The seat and whether it was forced, for a command. */
  readonly seat: number | null;
  readonly forced: boolean;
  /** ms(recorded_at) of its first row. */
  readonly at: number;
  /** The re-derived events still to come (null without a seed). */
  pending: Tagged[] | null;
  /** Its game events are over (a meta event or the end came). */
  ended: boolean;
  /** Its `clocks_updated` came. */
  clocked: boolean;
  lastSeq: number;
  dirty: boolean;
}

const sameCanonical = (a: JValue, b: JValue): boolean => canonicalText(a) === canonicalText(b);

class Format1 {
  private readonly header: Header;
  private readonly rows: readonly Row[];
  private readonly options: VerifyOptions;
  private readonly caveats: Caveats;
  private readonly tally: { rederived: number; notRerun: number; seed: boolean };

  private rules: Rules<unknown> | null = null;
  private seed: Uint8Array | null = null;
  /** The seed the game draws from: the revealed one, or a mixed game's mix. */
  private play: Uint8Array | null = null;
  private deal: Plain = null;
  /** The revealed deal as read (format 3 hashes it as it was written). */
  private dealRead: JValue = null;
  /** The event of the row before the one being read, and of that one. */
  private previous: Tagged | null = null;
  /** The game waits for its deferred deal (an open seat left), and the set-up it deals. */
  private waiting = false;
  private deferred: Tagged[] | null = null;
  private current: Tagged | null = null;
  private revealSeq: number | null = null;
  private created: Created | null = null;
  private state: unknown = null;
  private started = false;
  private ended = false;
  private endOutcome: Outcome | null = null;
  private revealed = false;
  private seats: Seat[] = [];
  private limit: Limits | null = null;
  private clocks: SeatClock[] = [];
  private owed: Owed | null = null;
  private batch: Batch | null = null;
  private lastTime = 0n;

  /** Format 3's chain (RFC 8785, its own genesis, a strict seed) rather than format 1's. */
  private readonly jcs: boolean;

  constructor(read: Export, options: VerifyOptions, caveats: Caveats, tally: { rederived: number; notRerun: number; seed: boolean }) {
    this.jcs = read.header.format === FORMAT_3;
    this.header = read.header;
    this.rows = read.rows;
    this.options = options;
    this.caveats = caveats;
    this.tally = tally;
  }

  async run(): Promise<void> {
    const hashes = await this.chain();
    const rules = GAMES.get(this.header.game);
    if (rules === undefined) {
      this.headCheck(hashes);
      fail(null, "unknown-game", `this verifier does not know the game '${this.header.game}'`);
    }
    this.rules = rules;
    await this.seedStep();
    for (const row of this.rows) await this.row(row);
    this.end(hashes);
    await this.receipts(hashes);
  }

  // ---- 5. Receipts -----------------------------------------------------------------------

  private async receipts(hashes: readonly string[]): Promise<void> {
    for (const r of this.options.receipts ?? []) {
      const found = await receiptProblem(r, this.header.id, hashes, this.options.keys);
      if (found !== null) fail(r.seq >= 1 && r.seq <= hashes.length ? r.seq : null, found[0], found[1]);
    }
  }

  // ---- 1. The chain ----------------------------------------------------------------------

  private async chain(): Promise<string[]> {
    const seqs = new Set(this.rows.map((r) => r.seq));
    const chain = this.jcs ? FORMAT_3 : FORMAT_1;
    let previous = await sha256(utf8(`${chain}:genesis:${this.header.id}`));
    const hashes: string[] = [];
    for (const [i, row] of this.rows.entries()) {
      const want = i + 1;
      if (row.seq !== want) {
        if (!seqs.has(want) && row.seq > want) fail(want, "missing-event", `seq ${want} is not in the file`);
        fail(want, "out-of-order", `row ${want} has seq ${row.seq}`);
      }
      if (depthOf(row.event) > MAX_DEPTH || depthOf(row.command) > MAX_DEPTH) fail(row.seq, "malformed-row", "nested too deep");
      const members = new Map<string, JValue>([
        ["actor", row.actor === null ? null : { kind: "int", value: BigInt(row.actor) }],
        ["command", row.command],
        ["event", row.event],
        ["recorded_at", row.recordedAt],
        ["seq", { kind: "int", value: BigInt(row.seq) }],
        ["type", row.type],
      ]);
      if (row.bot !== null) members.set("bot", row.bot);
      let canonical: string;
      try {
        canonical = this.canonical(new JObject(members));
      } catch (error) {
        if (error instanceof NotCanonicalisable) return fail(row.seq, "malformed-row", error.message);
        throw error;
      }
      const bytes = utf8(canonical);
      const joined = new Uint8Array(previous.length + bytes.length);
      joined.set(previous);
      joined.set(bytes, previous.length);
      previous = await sha256(joined);
      const h = hex(previous);
      if (row.hash !== h) fail(row.seq, "hash-mismatch", `the row's hash is not the chain's (${h})`);
      hashes.push(h);
    }
    return hashes;
  }

  /** The chain's canonical text of a value: format 3's RFC 8785, or format 1's. */
  private canonical(value: JValue): string {
    return this.jcs ? jcsText(value) : canonicalText(value);
  }

  /** The revealed deal's canonical text for its commitment; null when it has none. */
  private dealText(): string | null {
    if (!this.jcs) return canonicalText(fromPlain(this.deal));
    try {
      return jcsText(this.dealRead);
    } catch (error) {
      if (error instanceof NotCanonicalisable) return null;
      throw error;
    }
  }

  private headCheck(hashes: readonly string[]): void {
    const last = hashes[hashes.length - 1];
    if (last !== undefined && this.header.head_hash !== last) fail(this.rows.length, "head-mismatch", "the header's head hash is not the last hash");
  }

  // ---- 2. The seed -----------------------------------------------------------------------

  private async seedStep(): Promise<void> {
    const last = this.rows[this.rows.length - 1];
    if (last === undefined || last.type !== "seed_revealed") return;
    const ev = last.event instanceof JObject ? last.event : null;
    const seedText = ev?.get("seed");
    const first = this.rows[0]?.event;
    const commitment = first instanceof JObject ? first.get("seed_commitment") : undefined;
    // Format 3: a seed that is not strict hex does not decode here; its row names it (step 3).
    if (this.jcs && !(typeof seedText === "string" && STRICT_HEX.test(seedText))) return;
    const seed = typeof seedText === "string" ? seedFromHex(seedText) : null;
    if (seed === null) fail(last.seq, "seed-mismatch", "the revealed seed is not hex");
    if (typeof commitment !== "string" || hex(await sha256(seed)) !== commitment) {
      fail(last.seq, "seed-mismatch", "sha256(seed) is not game_created.seed_commitment");
    }
    this.seed = seed;
    this.play = first instanceof JObject && first.get("seed_source") === "mixed" ? await this.mixed(seed) : seed;
    this.deal = ev === null ? null : toPlain(ev.get("deal") ?? null);
    this.dealRead = ev === null ? null : (ev.get("deal") ?? null);
    this.revealSeq = last.seq;
    this.tally.seed = true;
  }

  /**
   * docs/protocol.md, "Entropy": HMAC-SHA256(key = the server seed, "spies-entropy/1" and each
   * contribution, the creator's (seat null) first, then the joiners' by seat, each as its
   * length in 4 bytes big-endian and its bytes). Every entropy_added of the log, read ahead;
   * one that is not 16 to 64 bytes of lower-case hex leaves the seed unmixed (step 3 names it).
   */
  private async mixed(seed: Uint8Array): Promise<Uint8Array> {
    const added: { seat: number; bytes: Uint8Array }[] = [];
    for (const row of this.rows) {
      if (row.type !== "entropy_added") continue;
      const ev = decodeTagged(row.event, META_EVENTS);
      if (ev === null || ev.type !== "entropy_added") continue;
      const entropy = ev["entropy"] as string;
      if (!ENTROPY.test(entropy)) return seed;
      const seat = ev["seat"] as number | null;
      const bytes = new Uint8Array(entropy.length / 2);
      for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(entropy.slice(2 * i, 2 * i + 2), 16);
      added.push({ seat: seat === null ? -1 : seat, bytes });
    }
    return mixSeed(seed, added);
  }

  // ---- 3. Each row -----------------------------------------------------------------------

  private get game(): Rules<unknown> {
    if (this.rules === null) throw new Error("no rules");
    return this.rules;
  }

  private async row(row: Row): Promise<void> {
    const seq = row.seq;
    if (this.revealed) fail(seq, "event-after-end", "an event after seed_revealed");
    if (seq > 1) {
      const t = parseLogTime(row.recordedAt);
      if (t === null) fail(seq, "invalid-timestamp", `recorded_at '${row.recordedAt}' is not a log time`);
      if (t.ns < this.lastTime) fail(seq, "time-backwards", "recorded before the row before it");
      this.lastTime = t.ns;
    }
    const meta = decodeTagged(row.event, META_EVENTS);
    const gameEvent = meta === null ? decodeTagged(row.event, this.game.events) : null;
    const ev = meta ?? gameEvent;
    if (ev === null) fail(seq, "undecodable-event", "not one of the game's events or a meta event");
    if (ev.type !== row.type) fail(seq, "type-mismatch", `the row's type '${row.type}' is not its event's '${ev.type}'`);
    this.previous = this.current;
    this.current = ev;
    if (seq === 2 && this.created?.seed_source === "mixed" && !(ev.type === "entropy_added" && ev["seat"] === null)) {
      fail(2, "seed-source-mismatch", "game_created labels its seed 'mixed' but seq 2 is not the creator's entropy_added");
    }
    if (seq === 1) return this.gameCreated(row, ev);
    if (ev.type === "entropy_added") return this.entropy(row, ev);
    if (ev.type === "game_created") fail(seq, "misplaced-meta-event", "game_created after seq 1");
    if (meta !== null) return this.metaEvent(row, meta);
    return this.gameEvent(row, ev);
  }

  /** A player's contribution: in a mixed game, in its place, 16 to 64 bytes of hex. */
  private entropy(row: Row, ev: Tagged): void {
    const seq = row.seq;
    this.noCommand(row);
    if (this.created?.seed_source !== "mixed") fail(seq, "seed-source-mismatch", "entropy_added in a game whose seed is not labelled 'mixed'");
    const seat = ev["seat"] as number | null;
    const previous = this.previous;
    const placed = seat === null ? seq === 2 : previous !== null && previous.type === "seat_joined" && previous["seat"] === seat;
    if (!placed) fail(seq, "misplaced-meta-event", "an entropy_added out of its place (seq 2, or right after its seat's seat_joined)");
    if (!ENTROPY.test(ev["entropy"] as string)) fail(seq, "entropy-invalid", "entropy is not 16 to 64 bytes of lower-case hex");
  }

  private noCommand(row: Row): void {
    if (row.command !== null || row.actor !== null || row.bot !== null) {
      fail(row.seq, "misplaced-command", "a meta event carries a command, an actor or a mark");
    }
  }

  private async gameCreated(row: Row, ev: Tagged): Promise<void> {
    if (ev.type !== "game_created") fail(1, "missing-game-created", "seq 1 is not game_created");
    const created = ev as unknown as Created;
    const h = this.header;
    const raw = row.event instanceof JObject ? row.event : new JObject(new Map());
    const agrees =
      created.game === h.game &&
      created.players === h.players &&
      created.seed_commitment === h.seed_commitment &&
      created.seed_source === h.seed_source &&
      created.rng === h.rng &&
      (created.created_at === null || created.created_at === h.created_at) &&
      sameCanonical(raw.get("options") ?? null, h.options);
    const log = raw.get("log");
    if (log !== undefined && typeof log !== "string") fail(1, "undecodable-event", "game_created's log is not a string");
    if (!agrees) fail(1, "header-mismatch", "game_created disagrees with the header");
    // The log says its format: format 3's string, or (formats 1 and 2) no log at all.
    if (log !== (this.jcs ? FORMAT_3 : undefined)) fail(1, "header-mismatch", "game_created's log is not the header's format");
    this.noCommand(row);
    const createdAt = parseLogTime(created.created_at ?? h.created_at);
    if (createdAt === null) fail(1, "invalid-timestamp", "created_at is not a log time");
    const recorded = parseLogTime(row.recordedAt);
    if (recorded === null) fail(1, "invalid-timestamp", "recorded_at is not a log time");
    if (recorded.ns < createdAt.ns) fail(1, "time-backwards", "recorded before created_at");
    this.lastTime = recorded.ns;
    if (parseLogTime(h.updated_at) === null) fail(1, "invalid-timestamp", "the header's updated_at is not a log time");
    const seats = created.seats ?? Array.from({ length: created.players }, (_, seat): Seat => ({ seat, type: "creator", name: null, bot: null }));
    if (seats.length !== created.players || seats.some((s, i) => s.seat !== i)) fail(1, "header-mismatch", "seats do not list seats 0 to players - 1 in order");
    this.seats = [...seats];
    const dealLabel = created.seed_source === "deal";
    if (dealLabel && created.deal_commitment === null) fail(1, "seed-source-mismatch", "the label deal without a deal commitment");
    if (created.seed_source === "mixed" && created.deal_commitment !== null) fail(1, "seed-source-mismatch", "the label mixed with a deal commitment");
    if (!dealLabel && created.seed_source !== "mixed" && created.deal_commitment !== null) this.caveats.add("seed-source-predates-deal", "", 1);
    if (created.deal_deferred) {
      if (!seats.some((s) => s.type === "open")) fail(1, "header-mismatch", "game_created defers its deal to the last join but has no open seat");
      this.waiting = true;
    }
    if (created.open_until !== null && parseLogTime(created.open_until) === null) fail(1, "invalid-timestamp", "open_until is not a log time");
    this.created = created;
    if (created.clock !== null) {
      this.limit = clocks.limits(created.clock);
      // A table waiting for players: every clock stands still until the deal.
      if (this.waiting) this.clocks = clocks.start(this.limit, created.players, [], recorded.ms);
    }
    this.batch = { kind: "creation", seat: null, forced: false, at: recorded.ms, pending: null, ended: false, clocked: false, lastSeq: 1, dirty: false };
    if (this.seed === null) return;
    if (created.rng !== RNG_1) fail(1, "unsupported-rng", `rng ${created.rng}`);
    const revealAt = this.revealSeq ?? 1;
    if (created.deal_commitment !== null || this.deal !== null) {
      let matches = false;
      if (created.deal_commitment !== null && this.deal !== null) {
        const dealText = this.dealText();
        if (dealText !== null) {
          const dealBytes = utf8(dealText);
          const joined = new Uint8Array(this.seed.length + dealBytes.length);
          joined.set(this.seed);
          joined.set(dealBytes, this.seed.length);
          matches = hex(await sha256(joined)) === created.deal_commitment;
        }
      }
      if (!matches) fail(revealAt, "deal-mismatch", "the revealed deal does not match deal_commitment");
    }
    const rules = this.game;
    const seed = this.play ?? this.seed;
    try {
      const { value, stream } = await withStream(seed, 0, (st) => rules.start(created.players, created.options, this.deal, st));
      if (this.waiting) this.deferred = value;
      else this.batch.pending = value;
      this.drew(2, 0, stream);
    } catch (error) {
      if (error instanceof Refused) fail(1, "setup-refused", error.message);
      throw error;
    }
  }

  private drew(seq: number, nonce: number, stream: Stream): void {
    if (stream.draws.length > 0) this.options.onDraws?.(seq, nonce, stream.draws.map(([n, r]) => [Number(n), Number(r)] as const));
  }

  /** 3.5: the batch before this row ends. */
  private endBatch(at: number): void {
    const b = this.batch;
    if (b === null || b.ended) return;
    b.ended = true;
    if (b.pending !== null && b.pending.length > 0) fail(at, "rederivation-mismatch", `the batch lacks its re-derived ${b.pending[0]?.type ?? ""}`);
    if (b.dirty && this.started) {
      const broken = this.game.invariant(this.state);
      if (broken !== null) fail(b.lastSeq, "invariant-broken", broken);
    }
    if (this.started && !this.ended) {
      const outcome = this.game.outcome(this.state);
      if (outcome !== null) {
        this.ended = true;
        this.endOutcome = outcome;
      }
    }
    const limit = this.limit;
    if (limit === null) return;
    if (b.kind === "creation" && !this.ended && this.started) {
      const seats = clocks.start(limit, this.seats.length, this.toAct(), b.at);
      this.owe(seats, null, null);
    } else if (b.kind === "command" && b.seat !== null) {
      const moved = clocks.move(limit, this.clocks, b.seat, b.forced, b.at);
      const seats = this.ended ? moved.clocks : clocks.run(moved.clocks, this.toAct(), b.at);
      this.owe(seats, b.seat, moved.used);
    }
  }

  private toAct(): number[] {
    return this.started && !this.ended ? this.game.toAct(this.state) : [];
  }

  private owe(seats: readonly SeatClock[], moved: number | null, used: number | null): void {
    this.owed = { kind: "clocks", expected: { type: "clocks_updated", seats: seats.map((s) => ({ ...s })), moved, used_ms: used } };
  }

  /** The clocks allow no new batch while a batch's clocks or a forced move are owed. */
  private settled(seq: number): void {
    const owed = this.owed;
    if (owed === null) return;
    if (owed.kind === "clocks") fail(seq, "clocks-missing", "the batch that moved a clock lacks its clocks_updated");
    if (owed.abandon && !owed.handed) fail(seq, "seat-not-handed", "the abandoned seat was not handed to its bot");
    fail(seq, "forced-move-missing", `seat ${owed.seat}'s forced move is missing`);
  }

  private newBatch(kind: Batch["kind"], row: Row, seat: number | null, forced: boolean, pending: Tagged[] | null): void {
    const t = parseLogTime(row.recordedAt);
    this.batch = { kind, seat, forced, at: t?.ms ?? 0, pending, ended: false, clocked: false, lastSeq: row.seq, dirty: false };
  }

  private async metaEvent(row: Row, ev: Tagged): Promise<void> {
    const seq = row.seq;
    this.noCommand(row);
    const claimInCreation = ev.type === "seat_claimed" && this.batch?.kind === "creation" && this.batch.clocked === false;
    this.endBatch(seq);
    if (CLOCK_EVENTS.has(ev.type)) return this.clockEvent(row, ev);
    if (SEAT_EVENTS.has(ev.type)) return this.seatEvent(row, ev, claimInCreation);
    if (ev.type === "game_aborted") return this.aborted(row, ev);
    if (ev.type === "seed_revealed") return this.reveal(row, ev);
  }

  private clockEvent(row: Row, ev: Tagged): void {
    const seq = row.seq;
    const limit = this.limit;
    const clock = this.created?.clock ?? null;
    if (limit === null || clock === null) return fail(seq, "misplaced-meta-event", `${ev.type} in a game without a clock`);
    const at = parseLogTime(row.recordedAt)?.ms ?? 0;
    if (ev.type === "clocks_updated") {
      const owed = this.owed;
      let expected: Tagged;
      if (owed?.kind === "clocks") expected = owed.expected;
      else if (owed?.kind === "forced" && owed.handed) {
        // Older logs: an abandoned seat handed over, then the clocks without a forced move.
        expected = { type: "clocks_updated", seats: clocks.run(this.clocks, this.toAct(), at).map((s) => ({ ...s })), moved: null, used_ms: null };
      } else if (owed?.kind === "forced") return fail(seq, "forced-move-missing", `seat ${owed.seat}'s forced move is missing`);
      else return fail(seq, "clocks-unexpected", "clocks_updated where no clock moved");
      if (canonicalText(fromPlain(ev)) !== canonicalText(fromPlain(expected))) {
        fail(seq, "clocks-mismatch", `the clocks are not what the times give: ${canonicalText(fromPlain(expected))}`);
      }
      this.clocks = (expected["seats"] as unknown as SeatClock[]).map((s) => ({ ...s }));
      this.owed = null;
      if (this.batch !== null) this.batch.clocked = true;
      return;
    }
    if (this.ended) fail(seq, "event-after-end", `${ev.type} after the game ended`);
    this.settled(seq);
    if (ev.type === "clock_expired") {
      const seat = ev["seat"] as number;
      const c = this.clocks.find((x) => x.seat === seat);
      const due = c === undefined ? null : clocks.deadline(limit, c);
      if (c === undefined || due === null) return fail(seq, "clock-expired-early", `seat ${seat}'s clock did not run`);
      if (at < due) fail(seq, "clock-expired-early", "clock_expired before the deadline");
      const forfeit = clock.on_timeout === "forfeit";
      const expected = { type: "clock_expired", seat, deadline: msText(due), timeouts: c.timeouts + 1, forfeit };
      if (canonicalText(fromPlain(ev)) !== canonicalText(fromPlain(expected))) {
        fail(seq, "clocks-mismatch", `clock_expired is not what the times give: ${canonicalText(fromPlain(expected))}`);
      }
      this.clocks = clocks.expire(this.clocks, seat);
      this.newBatch("timeout", row, seat, true, null);
      if (this.batch !== null) this.batch.ended = true;
      if (forfeit) {
        try {
          this.endOutcome = this.game.forfeit(this.state, seat);
        } catch (error) {
          if (error instanceof Refused) fail(seq, "clocks-mismatch", error.message);
          throw error;
        }
        this.ended = true;
        this.owe(this.clocks, null, null);
        return;
      }
      const s = this.seats[seat];
      const timeouts = c.timeouts + 1;
      const abandon =
        clock.abandon_after !== null && timeouts >= clock.abandon_after && s !== undefined && (s.type === "creator" || s.type === "joined") && s.bot === null;
      this.owed = { kind: "forced", seat, abandon, handed: false };
      return;
    }
    // clocks_resumed
    const running = this.clocks.filter((c) => c.since_ms !== null).map((c) => c.since_ms ?? 0);
    if (running.length === 0 || ev["since"] !== msText(Math.max(...running))) {
      fail(seq, "clocks-mismatch", "clocks_resumed.since is not the latest start of a running clock");
    }
    this.caveats.add("clocks-resumed", "", seq);
    this.clocks = clocks.resume(this.clocks, at);
    this.newBatch("resume", row, null, false, null);
    if (this.batch !== null) this.batch.ended = true;
    this.owe(clocks.run(this.clocks, this.toAct(), at), null, null);
  }

  private seatEvent(row: Row, ev: Tagged, claimInCreation: boolean): void {
    const seq = row.seq;
    const seat = ev["seat"] as number;
    if (this.ended) fail(seq, "event-after-end", `${ev.type} after the game ended`);
    if (ev.type === "seat_claimed") {
      if (!claimInCreation) fail(seq, "seat-event-invalid", "seat_claimed outside a rematch's creation");
    } else {
      const owed = this.owed;
      if (owed?.kind === "forced" && ev.type === "seat_handed_to_bot" && seat === owed.seat && !owed.handed) {
        const s = this.seats[seat];
        const timeouts = this.clocks.find((c) => c.seat === seat)?.timeouts ?? 0;
        const after = this.created?.clock?.abandon_after ?? null;
        // Older logs: a seat its bot already played, handed over again at or past abandon_after.
        const again = s !== undefined && s.bot !== null && after !== null && timeouts >= after;
        if (!owed.abandon && !again) fail(seq, "forced-move-missing", `seat ${owed.seat}'s forced move is missing`);
        if (ev["bot"] !== this.created?.clock?.timeout_bot) fail(seq, "seat-event-invalid", "an abandoned seat goes to the time control's bot");
        this.owed = { ...owed, abandon: true, handed: true };
        if (again && s !== undefined) {
          this.seats = this.seats.map((x, i) => (i === seat ? { ...x, bot: ev["bot"] as string } : x));
          return;
        }
      } else {
        this.settled(seq);
        this.newBatch("seat", row, null, false, null);
        if (this.batch !== null) this.batch.ended = true;
      }
    }
    const value = ev.type === "seat_joined" ? (ev["name"] as string) : ev.type === "seat_handed_to_bot" ? (ev["bot"] as string) : null;
    const next = seatEvent(this.seats, ev.type, seat, value);
    if (next === null) fail(seq, "seat-event-invalid", `${ev.type} does not fit seat ${seat}`);
    this.seats = next;
    if (this.waiting && !next.some((s) => s.type === "open")) {
      // The last open seat taken: the deferred set-up is the rest of this batch, and the
      // clocks start after it, as at a creation.
      this.waiting = false;
      this.newBatch("creation", row, null, false, this.deferred);
      this.deferred = null;
    }
  }

  private aborted(row: Row, ev: Tagged): void {
    const seq = row.seq;
    if (this.ended) fail(seq, "event-after-end", "game_aborted after the game ended");
    const detail = ev["detail"] as string;
    const length = [...detail].length;
    if (length < 1 || length > 500 || !printable(detail)) fail(seq, "abort-invalid", "the detail is not 1 to 500 printable characters");
    if (ev["reason"] === "abandoned") {
      const until = this.created?.open_until ?? null;
      const at = parseLogTime(row.recordedAt)?.ms ?? 0;
      const expiry = until === null ? null : (parseLogTime(until)?.ms ?? null);
      if (!this.waiting || expiry === null || at < expiry) fail(seq, "abort-invalid", "abandoned, but the table is dealt or its open seats have not expired");
    }
    this.settled(seq);
    this.newBatch("abort", row, null, false, null);
    if (this.batch !== null) this.batch.ended = true;
    this.ended = true;
    this.endOutcome = { winners: [], reason: ev["reason"] as string, draw: false, scores: [] };
    if (this.limit !== null) this.owe(clocks.run(this.clocks, [], this.batch?.at ?? 0), null, null);
  }

  private async reveal(row: Row, ev: Tagged): Promise<void> {
    const seq = row.seq;
    this.settled(seq);
    if (this.jcs && !STRICT_HEX.test(ev["seed"] as string)) fail(seq, "seed-not-hex", "the revealed seed is not lower-case hex of whole bytes");
    const seed = seedFromHex(ev["seed"] as string);
    const commitment = this.created?.seed_commitment ?? "";
    if (seed === null || hex(await sha256(seed)) !== commitment) fail(seq, "seed-mismatch", "sha256(seed) is not the commitment");
    const source = this.created?.seed_source;
    const server = seed.length === 32 && !readsAsText(seed);
    const client = seed.length > 0 && utf8Text(seed) !== null;
    const fits = source === "server" || source === "mixed" ? server : source === "client" ? client : server || client;
    if (!fits) fail(seq, "seed-source-mismatch", `the seed is not what the label '${source ?? ""}' says`);
    this.revealed = true;
    this.revealSeq = seq;
  }

  private async gameEvent(row: Row, ev: Tagged): Promise<void> {
    const seq = row.seq;
    if (this.waiting) fail(seq, "misplaced-event", `${ev.type} before the game is dealt: it deals in the batch of the join that takes its last open seat`);
    if (row.command !== null) await this.command(row);
    else if (row.actor !== null || row.bot !== null) {
      // hashed, so a rewrite keeps them: they say who played only on a command's row
      fail(seq, "misplaced-actor", `${ev.type} carries no command but names a seat or a bot`);
    } else if (this.batch?.clocked === true) fail(seq, "misplaced-event", "a game event after its batch's clocks_updated");
    const b = this.batch;
    if (b !== null && b.pending !== null) {
      const next = b.pending.shift();
      if (next === undefined || !sameCanonical(row.event, fromPlain(next))) {
        fail(seq, "rederivation-mismatch", next === undefined ? "no event was re-derived here" : `re-running gives ${canonicalText(fromPlain(next))}`);
      }
    } else if (b !== null && b.ended && this.seed !== null) {
      fail(seq, "rederivation-mismatch", "no event was re-derived here");
    }
    try {
      this.state = this.game.fold(this.started ? this.state : null, ev);
      this.started = true;
    } catch (error) {
      if (error instanceof FoldFailed) fail(seq, "fold-failed", error.message);
      throw error;
    }
    if (b !== null) {
      b.lastSeq = seq;
      b.dirty = true;
    }
  }

  private async command(row: Row): Promise<void> {
    const seq = row.seq;
    this.endBatch(seq);
    if (this.ended) fail(seq, "event-after-end", "a command after the game ended");
    const actor = row.actor;
    if (actor === null) return fail(seq, "missing-actor", "a command without its seat");
    const owed = this.owed;
    let forced = false;
    if (owed?.kind === "forced") {
      if (owed.abandon && !owed.handed) fail(seq, "seat-not-handed", "the abandoned seat's forced move before its hand-over");
      if (owed.seat !== actor) fail(seq, "forced-move-missing", `seat ${owed.seat}'s forced move is missing`);
      forced = true;
    } else if (owed?.kind === "clocks") {
      fail(seq, "clocks-missing", "the batch that moved a clock lacks its clocks_updated");
    }
    const at = parseLogTime(row.recordedAt)?.ms ?? 0;
    if (!forced && this.limit !== null) {
      const c = this.clocks.find((x) => x.seat === actor);
      const due = c === undefined ? null : clocks.deadline(this.limit, c);
      if (due !== null && at >= due) fail(seq, "move-after-deadline", `seat ${actor} moved at or after its deadline`);
    }
    const mark = this.mark(row, actor, forced);
    const decoded = decodeTagged(row.command, this.game.commands);
    if (decoded === null) return fail(seq, "undecodable-command", "not one of the game's commands");
    let pending: Tagged[] | null = null;
    const seed = this.play;
    if (seed !== null) {
      const rules = this.game;
      const state = this.state;
      try {
        const { value, stream } = await withStream(seed, seq - 1, (st) => rules.decide(state, actor, decoded, st));
        pending = value;
        this.drew(seq, seq - 1, stream);
      } catch (error) {
        if (error instanceof Refused) fail(seq, "command-refused", error.message);
        throw error;
      }
      if (mark !== null) await this.rerun(seq, actor, mark, decoded);
    } else if (mark !== null) {
      this.tally.notRerun++;
    }
    this.owed = null;
    this.newBatch("command", row, actor, forced, pending);
  }

  /** The mark's checks against the seat table; the mark, or null for a person's command. */
  private mark(row: Row, actor: number, forced: boolean): string | null {
    const seq = row.seq;
    const mark = row.bot;
    if (mark !== null && !MARK.test(mark)) fail(seq, "bot-mark-invalid", `'${mark}' is not NAME@VERSION`);
    const name = mark?.split("@")[0] ?? null;
    if (forced) {
      if (mark === null) fail(seq, "bot-mark-missing", "a forced move without its bot's mark");
      if (name !== this.created?.clock?.timeout_bot && name !== "random") fail(seq, "bot-mismatch", `a forced move marked '${mark}'`);
      return mark;
    }
    const seat = this.seats[actor];
    if (mark !== null) {
      if (seat === undefined || seat.bot === null || (name !== seat.bot && name !== "random")) {
        fail(seq, "bot-mismatch", `'${mark}' does not play seat ${actor}`);
      }
      return mark;
    }
    if (seat?.type === "bot") fail(seq, "bot-mark-missing", `a command of bot seat ${actor} without a mark`);
    if (seat !== undefined && seat.bot !== null) this.caveats.add("unmarked-on-handed-seat", `seat ${actor} (${seat.bot})`, seq);
    return null;
  }

  /**
   * Asks the marked bot again: `random@1` and `random@2` are re-run (./bots.ts), others
   * reported as not re-run (`greedy` and `expert` are not specified).
   */
  private async rerun(seq: number, actor: number, mark: string, given: Tagged): Promise<void> {
    const [name = "", version] = mark.split("@");
    if (version === undefined) {
      this.caveats.add("bot-version-unknown", mark, seq);
      this.tally.notRerun++;
      return;
    }
    if (name !== "random" || !RANDOM_VERSIONS.includes(version) || this.options.bots === false) {
      this.caveats.add(name === "random" && !RANDOM_VERSIONS.includes(version) ? "bot-version-not-in-build" : "bot-not-in-build", mark, seq);
      this.tally.notRerun++;
      return;
    }
    const legal = this.game.legal(this.state, actor);
    const choice = await randomChoice(version, this.play ?? new Uint8Array(), actor, seq - 1, legal);
    const normal = (c: Tagged): string => canonicalText(fromPlain(c));
    if (choice === null || choice !== normal(given)) {
      fail(seq, "bot-move-mismatch", choice === null ? "the bot has no legal command" : `${mark} chooses ${choice}`);
    }
    this.tally.rederived++;
  }

  // ---- 4. The end ------------------------------------------------------------------------

  private end(hashes: readonly string[]): void {
    const last = this.rows[this.rows.length - 1];
    const lastSeq = last?.seq ?? 0;
    this.endBatch(lastSeq + 1);
    if (!this.revealed) this.settled(lastSeq + 1);
    if (last === undefined) return fail(1, "missing-event", "the log is empty");
    const h = this.header;
    if (h.version > lastSeq) fail(lastSeq + 1, "missing-event", `the header's version is ${h.version}`);
    if (h.version < lastSeq) fail(h.version + 1, "unexpected-event", `the log goes on past the header's version ${h.version}`);
    if (h.head_hash !== hashes[hashes.length - 1]) fail(lastSeq, "head-mismatch", "the header's head hash is not the last hash");
    if (h.updated_at !== last.recordedAt) fail(lastSeq, "header-mismatch", "the header's updated_at is not the last row's recorded_at");
    if (this.ended && !this.revealed) fail(lastSeq + 1, "seed-not-revealed", "a finished game without seed_revealed");
    if (this.revealed && !this.ended) fail(this.revealSeq ?? lastSeq, "premature-reveal", "seed_revealed in a game that has not ended");
    const status = this.ended ? "finished" : "active";
    if (h.status !== status) fail(lastSeq, "status-mismatch", `the log's status is ${status}`);
    const mine = this.endOutcome;
    const theirs = h.outcome;
    const same =
      mine === null || theirs === null
        ? mine === theirs
        : canonicalText(fromPlain({ ...mine })) === canonicalText(fromPlain({ winners: theirs.winners, reason: theirs.reason, draw: theirs.draw, scores: theirs.scores }));
    if (!same) fail(lastSeq, "outcome-mismatch", `the log's outcome is ${mine === null ? "null" : canonicalText(fromPlain({ ...mine }))}`);
    const head = this.options.head;
    if (head !== undefined && head.toLowerCase() !== (hashes[hashes.length - 1] ?? "")) {
      fail(lastSeq, "published-head-mismatch", "the log does not end in the published head");
    }
  }
}

/** Decodes a value by a shape, or null. */
export function tryDecode(value: JValue, shape: Parameters<typeof decode>[1]): Plain | null {
  try {
    return decode(value, shape);
  } catch (error) {
    if (error instanceof Invalid) return null;
    throw error;
  }
}
