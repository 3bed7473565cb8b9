/**
 * The self-test over docs/protocol/vectors/: every vector file, checked against this
 * verifier's own primitives and verdicts (the Node test runner, web/verify/test.mjs, turns
 * each check into a test).
 */

import { RULES as BLACK_SPY } from "./games/black-spy";
import { RULES as DECK_OF_SPIES } from "./games/deck-of-spies";
import type { Rules } from "./games/rules";
import { RULES as SPIES_AND_LIES } from "./games/spies-and-lies";
import { jcsText } from "./jcs";
import { canonicalText, fromPlain, JObject, type JValue, NotCanonicalisable, parseJson, type Plain, toPlain, utf8 } from "./json";
import { botStreamBlocks, botStreamMessage, canonicalOrder, randomChoice, withBotStream } from "./bots";
import type { Tagged } from "./games/rules";
import { botMessage, botRng, keyWords } from "./mt";
import { fromHex, hex, hmacSha256, mixSeed, sha256, streamBlocks, streamMessage, withStream } from "./rng";
import { asKeyList, asReceipt, ed25519Verify, fromBase64Url, type Receipt, receiptMessage } from "./receipts";
import { verifyExport } from "./verify";

/** One check: its name, whether it passed, and what differed. */
export interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

/** Reads a file of docs/protocol/vectors/ by its path there. */
export type ReadVector = (path: string) => Uint8Array;

const RULES: ReadonlyMap<string, Rules<unknown>> = new Map([
  [DECK_OF_SPIES.game, DECK_OF_SPIES as Rules<unknown>],
  [BLACK_SPY.game, BLACK_SPY as Rules<unknown>],
  [SPIES_AND_LIES.game, SPIES_AND_LIES as Rules<unknown>],
]);

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

/** A vector file's vectors (or another list of it), numbers kept by kind (floats stay floats). */
function vectors(read: ReadVector, file: string, key = "vectors"): JObject[] {
  const doc = parseJson(text(read(file))).value;
  const list = doc instanceof JObject ? doc.get(key) : null;
  return Array.isArray(list) ? (list as JValue[]).filter((v): v is JObject => v instanceof JObject) : [];
}

const str = (v: JValue | undefined): string => (typeof v === "string" ? v : JSON.stringify(v === undefined ? null : toPlain(v)));
const plain = (v: JValue | undefined): Plain => (v === undefined ? null : toPlain(v));
const same = (a: Plain, b: Plain): boolean => canonicalText(fromPlain(a)) === canonicalText(fromPlain(b));
const show = (v: Plain): string => canonicalText(fromPlain(v));

function check(name: string, ok: boolean, detail = ""): Check {
  return { name, ok, detail: ok ? "" : detail };
}

async function canonical(read: ReadVector): Promise<Check[]> {
  const format1 = vectors(read, "canonical.json").map((v) => {
    const got = canonicalText(parseJson(str(v.get("input"))).value);
    const want = str(v.get("canonical"));
    const ok = got === want && hex(utf8(got)) === str(v.get("canonical_hex"));
    return check(`canonical: ${str(v.get("name"))}`, ok, `got ${got}, want ${want}`);
  });
  // Format 3: RFC 8785, and the values it cannot write refused.
  const format3 = vectors(read, "canonical.json", "jcs").map((v) => {
    const name = `canonical: format 3, ${str(v.get("name"))}`;
    let got: string;
    try {
      got = jcsText(parseJson(str(v.get("input"))).value);
    } catch (error) {
      if (!(error instanceof NotCanonicalisable)) throw error;
      return check(name, v.get("refused") === true, `refused: ${error.message}`);
    }
    const want = str(v.get("canonical"));
    const ok = v.get("refused") !== true && got === want && hex(utf8(got)) === str(v.get("canonical_hex"));
    return check(name, ok, `got ${got}, want ${want}`);
  });
  return [...format1, ...format3];
}

async function stream(read: ReadVector): Promise<Check[]> {
  const out: Check[] = [];
  for (const v of vectors(read, "stream.json")) {
    const seed = fromHex(str(v.get("seed_hex"))) ?? new Uint8Array();
    const nonce = Number(plain(v.get("nonce")));
    const blocks = (plain(v.get("blocks")) as { message: string; bytes_hex: string }[]) ?? [];
    const got = await streamBlocks(seed, nonce, 0, blocks.length);
    const ok = blocks.every((b, k) => b.message === streamMessage(nonce, k) && b.bytes_hex === hex(got[k] ?? new Uint8Array()));
    out.push(check(`stream: seed ${str(v.get("seed_hex")).slice(0, 16)}... nonce ${nonce}`, ok, got.map(hex).join(" ")));
  }
  return out;
}

/** A `randrange` call of the vectors: n, its limit, every word read, the result. */
interface BotStreamCall {
  readonly n: string;
  readonly limit: string;
  readonly words: { word_hex: string; accepted: boolean }[];
  readonly result: string;
}

/** The words a run of `randrange` calls read, as the vectors write them. */
function sameCalls(calls: readonly BotStreamCall[], got: readonly { result: string; words: { word: bigint; accepted: boolean }[] }[]): boolean {
  return calls.every((c, i) => {
    const g = got[i];
    const limit = (2n ** 64n - ((2n ** 64n) % BigInt(c.n))).toString();
    return (
      g !== undefined &&
      g.result === c.result &&
      limit === c.limit &&
      g.words.length === c.words.length &&
      g.words.every((w, j) => w.word.toString(16).padStart(16, "0") === c.words[j]?.word_hex && w.accepted === c.words[j]?.accepted)
    );
  });
}

async function randrange(read: ReadVector): Promise<Check[]> {
  const out: Check[] = [];
  for (const v of vectors(read, "randrange.json")) {
    const seed = fromHex(str(v.get("seed_hex"))) ?? new Uint8Array();
    const calls = plain(v.get("calls")) as unknown as BotStreamCall[];
    const { value: got, stream: s } = await withStream(seed, Number(plain(v.get("nonce"))), (st) => {
      return calls.map((c) => {
        const before = st.words.length;
        const result = st.randrangeBig(BigInt(c.n));
        return { result: result.toString(), words: st.words.slice(before) };
      });
    });
    const wantRejected = Number(plain(v.get("rejected_words")));
    const ok = sameCalls(calls, got) && s.words.filter((w) => !w.accepted).length === wantRejected;
    out.push(check(`randrange: ${str(v.get("name"))}`, ok, JSON.stringify(got.map((g) => g.result))));
  }
  return out;
}

async function shuffle(read: ReadVector): Promise<Check[]> {
  const out: Check[] = [];
  for (const v of vectors(read, "shuffle.json")) {
    const seed = fromHex(str(v.get("seed_hex"))) ?? new Uint8Array();
    const items = plain(v.get("items")) as string[];
    const { value, stream: s } = await withStream(seed, Number(plain(v.get("nonce"))), (st) => st.shuffle(items));
    const draws = s.draws.map(([n, r]) => [Number(n), Number(r)]);
    const ok = same(value, plain(v.get("result"))) && same(draws, plain(v.get("draws")));
    out.push(check(`shuffle: ${items.length} items, nonce ${str(v.get("nonce"))}`, ok, `${show(value)} ${show(draws)}`));
  }
  return out;
}

async function setup(read: ReadVector): Promise<Check[]> {
  const out: Check[] = [];
  for (const [i, v] of vectors(read, "setup.json").entries()) {
    const game = str(v.get("game"));
    const rules = RULES.get(game);
    const players = Number(plain(v.get("players")));
    const options = { ...(plain(v.get("options")) as { [key: string]: Plain }) };
    const deal = options["deal"] ?? null;
    delete options["deal"];
    const name = `setup: ${game}, ${players} seats, vector ${i + 1}`;
    if (rules === undefined) {
      out.push(check(name, false, "unknown game"));
      continue;
    }
    const seed = fromHex(str(v.get("seed_hex"))) ?? new Uint8Array();
    const { value, stream: s } = await withStream(seed, 0, (st) => rules.start(players, options, deal, st));
    const draws = s.draws.map(([n, r]) => [Number(n), Number(r)]);
    const ok = same(value as unknown as Plain, plain(v.get("events"))) && same(draws, plain(v.get("draws")));
    out.push(check(name, ok, `${show(value as unknown as Plain)} ${show(draws)}`));
  }
  return out;
}

async function hashes(read: ReadVector): Promise<Check[]> {
  const doc = parseJson(text(read("hashes.json"))).value;
  if (!(doc instanceof JObject)) return [check("hashes", false, "not an object")];
  const format3 = doc.get("format_3");
  if (!(format3 instanceof JObject)) return [check("hashes: format 3", false, "no format_3 chain")];
  return [...(await chain(doc, "spies-replay/1", "hashes")), ...(await chain(format3, "spies-replay/3", "hashes: format 3"))];
}

/** One chain of hashes.json: format 1's (msgspec's canonical JSON) or format 3's (RFC 8785). */
async function chain(doc: JObject, log: string, label: string): Promise<Check[]> {
  const out: Check[] = [];
  const jcs = log === "spies-replay/3";
  out.push(check(`${label}: chain`, str(doc.get("chain")) === log, str(doc.get("chain"))));
  let previous = await sha256(utf8(`${log}:genesis:${str(doc.get("game_id"))}`));
  out.push(check(`${label}: genesis`, hex(previous) === str(doc.get("genesis_hash")), hex(previous)));
  const rows = doc.get("rows");
  for (const row of Array.isArray(rows) ? (rows as JValue[]) : []) {
    if (!(row instanceof JObject)) continue;
    const members = new Map<string, JValue>();
    for (const key of ["actor", "command", "event", "recorded_at", "seq", "type", "bot"]) {
      const value = row.get(key);
      if (value !== undefined && !(key === "bot" && value === null)) members.set(key, value);
    }
    const canonicalRow = jcs ? jcsText(new JObject(members)) : canonicalText(new JObject(members));
    const prior = hex(previous) === str(row.get("previous_hash"));
    const bytes = utf8(canonicalRow);
    const joined = new Uint8Array(previous.length + bytes.length);
    joined.set(previous);
    joined.set(bytes, previous.length);
    previous = await sha256(joined);
    const ok = prior && canonicalRow === str(row.get("canonical")) && hex(previous) === str(row.get("hash"));
    out.push(check(`${label}: row ${str(row.get("seq"))}`, ok, `${canonicalRow} ${hex(previous)}`));
  }
  return out;
}

async function botGenerators(read: ReadVector): Promise<Check[]> {
  const out: Check[] = [];
  for (const v of vectors(read, "bot-rng.json")) {
    const seed = fromHex(str(v.get("seed_hex"))) ?? new Uint8Array();
    const seat = Number(plain(v.get("seat")));
    const version = Number(plain(v.get("version")));
    const [digest] = await hmacSha256(seed, [utf8(botMessage(seat, version))]);
    const words = keyWords(digest ?? new Uint8Array()).map((w) => w.toString(16).padStart(8, "0"));
    const fresh = await botRng(seed, seat, version);
    const outputs = Array.from({ length: (plain(v.get("uint32_outputs")) as number[]).length }, () => fresh.genrandInt32());
    const other = await botRng(seed, seat, version);
    const calls = (plain(v.get("randrange")) as [number, number][]).map(([n]) => [n, other.randrange(n)]);
    const ok =
      botMessage(seat, version) === str(v.get("message")) &&
      hex(digest ?? new Uint8Array()) === str(v.get("seed_int_hex")) &&
      same(words, plain(v.get("init_key_words"))) &&
      same(outputs, plain(v.get("uint32_outputs"))) &&
      same(calls, plain(v.get("randrange")));
    out.push(check(`bot-rng: ${str(v.get("message"))}`, ok, `${show(words)} ${show(outputs)} ${show(calls)}`));
  }
  return out;
}

/** bot-stream.json: the bot stream's blocks and randrange, and random@2's questions. */
async function botStream(read: ReadVector): Promise<Check[]> {
  const doc = JSON.parse(text(read("bot-stream.json"))) as {
    generators: { seed_hex: string; seat: number; v: number; blocks: { message: string; bytes_hex: string }[]; calls: BotStreamCall[] }[];
    random_bot: { game: string; seed_hex: string; seat: number; v: number; legal_listed: string[]; legal_sorted: string[]; randrange: BotStreamCall; pick: string }[];
  };
  const out: Check[] = [];
  for (const g of doc.generators) {
    const seed = fromHex(g.seed_hex) ?? new Uint8Array();
    const blocks = await botStreamBlocks(seed, g.seat, g.v, 0, g.blocks.length);
    const { value: got } = await withBotStream(seed, g.seat, g.v, (st) =>
      g.calls.map((c) => {
        const before = st.words.length;
        const result = st.randrangeBig(BigInt(c.n)).toString();
        return { result, words: st.words.slice(before) };
      }),
    );
    const ok = g.blocks.every((b, k) => b.message === botStreamMessage(g.seat, g.v, k) && b.bytes_hex === hex(blocks[k] ?? new Uint8Array())) && sameCalls(g.calls, got);
    out.push(check(`bot-stream: seed ${g.seed_hex.slice(0, 16)}... seat ${g.seat} v ${g.v}`, ok, JSON.stringify(got.map((c) => c.result))));
  }
  for (const q of doc.random_bot) {
    const seed = fromHex(q.seed_hex) ?? new Uint8Array();
    const legal = q.legal_listed.map((c) => JSON.parse(c) as Tagged);
    const sorted = canonicalOrder(legal);
    const reversed = canonicalOrder([...legal].reverse());
    const pick = await randomChoice("2", seed, q.seat, q.v, [...legal].reverse());
    const { value: draw } = await withBotStream(seed, q.seat, q.v, (st) => {
      const result = st.randrangeBig(BigInt(sorted.length)).toString();
      return { result, words: [...st.words] };
    });
    const ok = same(sorted, q.legal_sorted) && same(reversed, q.legal_sorted) && pick === q.pick && sameCalls([q.randrange], [draw]);
    out.push(check(`bot-stream: random@2 in ${q.game}, seat ${q.seat} at v ${q.v}`, ok, `${show(sorted)} picks ${pick ?? "nothing"}`));
  }
  return out;
}

interface ExportVector {
  readonly file: string;
  readonly verdict: { ok: boolean; seq?: number | null; code?: string; rederived?: string; bot_moves_rederived?: number; caveats?: string[] };
  readonly head?: string;
  readonly draws: { seq: number; nonce: number; calls: [number, number][] }[];
}

/** exports.json (format 3's exports), then the frozen exports of formats 1 and 2 in format-1/. */
async function exports(read: ReadVector): Promise<Check[]> {
  return [...(await exportsIn(read, "")), ...(await exportsIn(read, "format-1/"))];
}

async function exportsIn(read: ReadVector, folder: string): Promise<Check[]> {
  const out: Check[] = [];
  for (const v of vectors(read, `${folder}exports.json`)) {
    const vector = toPlain(v) as unknown as ExportVector;
    const seen: { seq: number; nonce: number; calls: (readonly [number, number])[] }[] = [];
    const verdict = await verifyExport(read(folder + vector.file), {
      ...(vector.head === undefined ? {} : { head: vector.head }),
      onDraws: (seq, nonce, calls) => seen.push({ seq, nonce, calls: [...calls] }),
    });
    const want = vector.verdict;
    let ok: boolean;
    if (want.ok) {
      // This verifier re-runs random only (versions 1 and 2): the build's greedy and expert
      // marks are bot-not-in-build instead (docs/protocol.md, "Test vectors").
      const mine = verdict.caveats.map((c) => c.code).filter((c) => c !== "bot-not-in-build" || (want.caveats ?? []).includes(c));
      ok =
        verdict.ok &&
        verdict.caveats.every((c) => !c.about.startsWith("random@")) && // random@1 and random@2 re-run
        verdict.rederived === want.rederived &&
        verdict.botMovesRederived + verdict.botMovesNotRerun === want.bot_moves_rederived &&
        same([...new Set(mine)].sort(), [...(want.caveats ?? [])].sort()) &&
        same(seen as unknown as Plain, vector.draws as unknown as Plain);
    } else {
      ok = !verdict.ok && verdict.problem?.seq === want.seq && verdict.problem?.code === want.code;
    }
    const got = verdict.problem === null ? `ok ${verdict.rederived} ${verdict.botMovesRederived}+${verdict.botMovesNotRerun} ${show(verdict.caveats.map((c) => c.code))}` : `seq ${verdict.problem.seq} ${verdict.problem.code}: ${verdict.problem.message}`;
    out.push(check(`exports: ${folder}${vector.file}`, ok, `got ${got}; want ${show(want as unknown as Plain)}`));
  }
  return out;
}

/** receipts.json: the key pair, each message and its signature, and each receipt check's verdict. */
async function receipts(read: ReadVector): Promise<Check[]> {
  const out: Check[] = [];
  const doc = JSON.parse(text(read("receipts.json"))) as {
    key: { public_key_hex: string; key_id: string; listed: { public_key: string } };
    messages: { game_id: string; seq: number; head_hash: string; message: string; message_hex: string; signature: string; signature_hex: string }[];
    checks: { file: string; shows: string; receipts: unknown[]; keys?: unknown; verdict: { ok: boolean; seq?: number | null; code?: string } }[];
  };
  const pub = fromHex(doc.key.public_key_hex) ?? new Uint8Array();
  const listed = fromBase64Url(doc.key.listed.public_key);
  const keyId = hex(await sha256(pub)).slice(0, 16);
  out.push(check("receipts: the key's id and listed form", keyId === doc.key.key_id && listed !== null && hex(listed) === hex(pub), `key id ${keyId}`));
  for (const m of doc.messages) {
    const message = receiptMessage(m.game_id, m.seq, m.head_hash);
    const sig = fromBase64Url(m.signature);
    const ok = hex(message) === m.message_hex && text(message) === m.message && sig !== null && hex(sig) === m.signature_hex && (await ed25519Verify(pub, sig, message));
    out.push(check(`receipts: message ${m.game_id} ${m.seq}`, ok, `message ${hex(message)}`));
  }
  for (const c of doc.checks) {
    const given = c.receipts.map(asReceipt);
    const keys = c.keys === undefined ? undefined : asKeyList(c.keys);
    if (given.some((r) => r === null) || keys === null) {
      out.push(check(`receipts: ${c.shows}`, false, "a receipt or the keys do not parse"));
      continue;
    }
    const verdict = await verifyExport(read(c.file), { receipts: given as Receipt[], ...(keys === undefined ? {} : { keys }) });
    const want = c.verdict;
    const ok = want.ok ? verdict.ok : !verdict.ok && verdict.problem?.seq === want.seq && verdict.problem?.code === want.code;
    const got = verdict.problem === null ? "ok" : `seq ${verdict.problem.seq} ${verdict.problem.code}`;
    out.push(check(`receipts: ${c.shows}`, ok, `got ${got}; want ${JSON.stringify(want)}`));
  }
  return out;
}

/** entropy.json: the mix of the logged contributions is the vector's mixed seed. */
async function entropy(read: ReadVector): Promise<Check[]> {
  const out: Check[] = [];
  for (const v of vectors(read, "entropy.json")) {
    const vector = toPlain(v) as unknown as { name: string; server_seed_hex: string; logged: { seat: number | null; entropy: string }[]; mixed_seed_hex: string };
    const added = vector.logged.map((c) => ({ seat: c.seat ?? -1, bytes: fromHex(c.entropy) ?? new Uint8Array() }));
    const mixed = hex(await mixSeed(fromHex(vector.server_seed_hex) ?? new Uint8Array(), added));
    out.push(check(`entropy: ${vector.name}`, mixed === vector.mixed_seed_hex, `got ${mixed}`));
  }
  return out;
}

/** Every check over the vector files. */
export async function checkVectors(read: ReadVector): Promise<Check[]> {
  const parts = [canonical, stream, randrange, shuffle, setup, hashes, botGenerators, botStream, entropy, exports, receipts];
  const out: Check[] = [];
  for (const part of parts) out.push(...(await part(read)));
  return out;
}
