/**
 * Reading an export (docs/protocol.md, "The export"; verify's step 0): UTF-8 JSON Lines, a
 * header, then one event line per row; fields outside the format, keys given twice, lines
 * nested too deep and misshapen lines are refused, each named by its line.
 */

import { decode, Invalid, nullable, obj, opt, req, arrayOf, type Shape } from "./decode";
import { isNumber, JObject, type JValue, JsonSyntaxError, nestingDepth, parseJson } from "./json";
import { fail } from "./verdict";

const MAX_DEPTH = 64;
const ID = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** The header (line 1), decoded. */
export interface Header {
  readonly id: string;
  readonly game: string;
  readonly players: number;
  readonly options: JValue;
  readonly status: string;
  readonly version: number;
  readonly head_hash: string;
  readonly seed_commitment: string;
  readonly seed_source: string;
  readonly rng: string;
  readonly outcome: {
    readonly winners: readonly number[];
    readonly reason: string;
    readonly draw: boolean;
    readonly scores: readonly number[];
  } | null;
  readonly created_at: string;
  readonly updated_at: string;
  readonly format: string;
}

/** One event line. */
export interface Row {
  readonly line: number;
  readonly seq: number;
  readonly type: string;
  readonly actor: number | null;
  readonly command: JValue;
  readonly event: JValue;
  readonly recordedAt: string;
  readonly hash: string;
  /** The mark; a `"bot": null` reads as absent. */
  readonly bot: string | null;
}

export interface Export {
  readonly header: Header;
  readonly rows: readonly Row[];
}

const HEADER_FIELDS = [
  "id",
  "game",
  "players",
  "options",
  "status",
  "version",
  "head_hash",
  "seed_commitment",
  "seed_source",
  "rng",
  "outcome",
  "created_at",
  "updated_at",
  "format",
];
const OUTCOME_FIELDS = ["winners", "reason", "draw", "scores"];
const ROW_FIELDS = ["seq", "type", "actor", "command", "event", "recorded_at", "hash", "bot"];

const outcomeShape: Shape = obj({
  winners: req(arrayOf("int")),
  reason: req("string"),
  draw: opt("bool", false),
  scores: opt(arrayOf("int"), []),
});

const headerShape: Shape = obj({
  id: req("string"),
  game: req("string"),
  players: req("int"),
  options: req("object"),
  status: req("string"),
  version: req("int"),
  head_hash: req("string"),
  seed_commitment: req("string"),
  seed_source: req("string"),
  rng: req("string"),
  outcome: req(nullable(outcomeShape)),
  created_at: req("string"),
  updated_at: req("string"),
  format: req("string"),
});

const rowShape: Shape = obj({
  seq: req("int"),
  type: req("string"),
  actor: req(nullable("int")),
  recorded_at: req("string"),
  hash: req("string"),
  bot: opt(nullable("string"), null),
});

const decoder = new TextDecoder("utf-8", { fatal: true });

/** One line's JSON object, or the line's refusal. */
function readLine(bytes: Uint8Array, line: number): { value: JObject; duplicateKey: boolean } {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return fail(null, "invalid-export", `line ${line}: not UTF-8`);
  }
  if (nestingDepth(text) > MAX_DEPTH) fail(null, "invalid-export", `line ${line}: nested deeper than ${MAX_DEPTH} levels`);
  try {
    const parsed = parseJson(text);
    if (!(parsed.value instanceof JObject)) return fail(null, "invalid-export", `line ${line}: not a JSON object`);
    return { value: parsed.value, duplicateKey: parsed.duplicateKey };
  } catch (error) {
    if (error instanceof JsonSyntaxError) return fail(null, "invalid-export", `line ${line}: ${error.message}`);
    throw error;
  }
}

const isBlank = (bytes: Uint8Array): boolean => bytes.every((b) => b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a);

/** Splits a file into its lines (the bytes between line feeds), numbered from 1. */
function lines(data: Uint8Array): { bytes: Uint8Array; line: number }[] {
  const out: { bytes: Uint8Array; line: number }[] = [];
  let start = 0;
  let line = 1;
  for (let i = 0; i <= data.length; i++) {
    if (i === data.length || data[i] === 0x0a) {
      out.push({ bytes: data.subarray(start, i), line });
      start = i + 1;
      line++;
    }
  }
  return out;
}

function readHeader(bytes: Uint8Array, line: number): Header {
  const { value, duplicateKey } = readLine(bytes, line);
  const format = value.get("format");
  if (format !== "spies-replay/1" && format !== "spies-replay/2" && format !== "spies-replay/3") {
    fail(null, "invalid-export", `line ${line}: the header's format is not spies-replay/1, spies-replay/2 or spies-replay/3`);
  }
  const unknown = value.keys().find((k) => !HEADER_FIELDS.includes(k));
  if (unknown !== undefined) fail(null, "unknown-field", `the header has a field '${unknown}' the format does not have`);
  const outcome = value.get("outcome");
  if (outcome instanceof JObject) {
    const extra = outcome.keys().find((k) => !OUTCOME_FIELDS.includes(k));
    if (extra !== undefined) fail(null, "unknown-field", `the header's outcome has a field '${extra}' the format does not have`);
  }
  let header: Header;
  try {
    header = { ...(decode(value, headerShape) as unknown as Header), options: value.get("options") ?? null };
  } catch (error) {
    if (error instanceof Invalid) return fail(null, "invalid-export", `line ${line}: ${error.message}`);
    throw error;
  }
  if (!ID.test(header.id)) fail(null, "invalid-export", `line ${line}: the header's id is not 1 to 64 characters of [a-z0-9-]`);
  if (duplicateKey) fail(null, "duplicate-key", "the header has a key twice in one object");
  // In format 1's chain, format 2 (players' entropy) exactly for a mixed seed; format 3 says
  // it with seed_source alone (docs/protocol.md, "The header").
  if (header.format !== "spies-replay/3" && (header.seed_source === "mixed") !== (header.format === "spies-replay/2")) {
    fail(null, "invalid-export", `line ${line}: format ${header.format} with seed_source ${header.seed_source}: a mixed seed is spies-replay/2, every other spies-replay/1`);
  }
  return header;
}

function readRow(bytes: Uint8Array, line: number): Row {
  const { value, duplicateKey } = readLine(bytes, line);
  const seqValue = value.get("seq");
  const named = isNumber(seqValue) && seqValue.kind === "int" ? Number(seqValue.value) : null;
  const unknown = value.keys().find((k) => !ROW_FIELDS.includes(k));
  if (unknown !== undefined) fail(named, "unknown-field", `line ${line} has a field '${unknown}' outside the hash`);
  let fields: { seq: number; type: string; actor: number | null; recorded_at: string; hash: string; bot: string | null };
  try {
    fields = decode(value, rowShape) as unknown as typeof fields;
  } catch (error) {
    if (error instanceof Invalid) return fail(null, "invalid-export", `line ${line}: ${error.message}`);
    throw error;
  }
  const command = value.get("command");
  const event = value.get("event");
  if (command === undefined || !(command === null || command instanceof JObject)) {
    fail(null, "invalid-export", `line ${line}: command is not an object or null`);
  }
  if (!(event instanceof JObject)) fail(null, "invalid-export", `line ${line}: event is not an object`);
  if (fields.seq < 1 || (fields.actor !== null && fields.actor < 0)) fail(null, "invalid-export", `line ${line}: seq or actor out of range`);
  if (duplicateKey) fail(fields.seq, "duplicate-key", `line ${line} has a key twice in one object`);
  return {
    line,
    seq: fields.seq,
    type: fields.type,
    actor: fields.actor,
    command,
    event,
    recordedAt: fields.recorded_at,
    hash: fields.hash,
    bot: fields.bot,
  };
}

/**
 * Reads an export's bytes; throws a `Failure` (verify's step 0) at the first line that is not
 * an export line.
 */
export function readExport(data: Uint8Array): Export {
  const present = lines(data).filter((l) => !isBlank(l.bytes));
  const first = present[0];
  if (first === undefined) return fail(null, "invalid-export", "the file is empty");
  const header = readHeader(first.bytes, first.line);
  const rows = present.slice(1).map((l) => readRow(l.bytes, l.line));
  return { header, rows };
}
