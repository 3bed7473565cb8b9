/**
 * Forgeries of the vectors' exports beyond the ones docs/protocol/vectors/ holds: each edits
 * an honest export (recomputing the chain and the header when the forger would), and names
 * the first problem a verifier must find, by seq and code (docs/protocol.md, "Verify").
 */

import { jcsText } from "./jcs";
import { canonicalText, JObject, type JValue, parseJson, utf8 } from "./json";
import { hex, sha256 } from "./rng";
import { verifyExport } from "./verify";
import type { ReadVector, Check } from "./vectors";

type Edit = (lines: string[]) => string[];

/** Replaces text in the line of a seq (line 0 is the header); fails loudly when absent. */
function swap(seq: number, from: string | RegExp, to: string): Edit {
  return (lines) =>
    lines.map((line, i) => {
      if (i !== seq) return line;
      const next = line.replace(from, to);
      if (next === line) throw new Error(`forgery: '${String(from)}' not in the line of seq ${seq}`);
      return next;
    });
}

const chainOf = (...edits: Edit[]): Edit => (lines) => edits.reduce((acc, e) => e(acc), lines);

/** Recomputes every row's hash and the header's head hash, version and updated_at, as a forger
 * would, in the chain of the header's format (format 3's, or format 1's). */
async function rechain(lines: string[]): Promise<string[]> {
  const header = lines[0] ?? "";
  const id = /"id":"([^"]*)"/.exec(header)?.[1] ?? "";
  const jcs = header.includes('"format":"spies-replay/3"');
  let previous = await sha256(utf8(`${jcs ? "spies-replay/3" : "spies-replay/1"}:genesis:${id}`));
  const out = [header];
  let last = "";
  let lastTime = "";
  for (const line of lines.slice(1)) {
    const row = parseJson(line).value;
    if (!(row instanceof JObject)) throw new Error("forgery: not an object");
    const members = new Map<string, JValue>();
    for (const key of ["actor", "command", "event", "recorded_at", "seq", "type", "bot"]) {
      const value = row.get(key);
      if (value !== undefined && !(key === "bot" && value === null)) members.set(key, value);
    }
    const value = new JObject(members);
    const bytes = utf8(jcs ? jcsText(value) : canonicalText(value));
    const joined = new Uint8Array(previous.length + bytes.length);
    joined.set(previous);
    joined.set(bytes, previous.length);
    previous = await sha256(joined);
    last = hex(previous);
    lastTime = typeof row.get("recorded_at") === "string" ? (row.get("recorded_at") as string) : "";
    out.push(line.replace(/"hash":"[0-9a-f]*"/, `"hash":"${last}"`));
  }
  out[0] = header
    .replace(/"head_hash":"[0-9a-f]*"/, `"head_hash":"${last}"`)
    .replace(/"version":\d+/, `"version":${lines.length - 1}`)
    .replace(/"updated_at":"[^"]*"/, `"updated_at":"${lastTime}"`);
  return out;
}

interface Forgery {
  readonly name: string;
  readonly file: string;
  readonly edit: Edit;
  /** Recompute the chain and the header after the edit (default true). */
  readonly rechain?: boolean;
  readonly seq: number | null;
  readonly code: string;
}

const DEAL_CLOCK = "exports/deck-of-spies-deal-clock.jsonl";
const RANDOM_BOT = "exports/deck-of-spies-random-bot.jsonl";
const BLACK_SPY = "exports/black-spy-6p.jsonl";
const SPIES_4P = "exports/spies-and-lies-4p-rematch.jsonl";
const SPIES_CLOCK = "exports/spies-and-lies-clock.jsonl";

const FORGERIES: readonly Forgery[] = [
  {
    name: "a random@2 move replaced by another legal command",
    file: RANDOM_BOT,
    edit: chainOf(
      swap(5, '"command":{"type":"counter","cards":["4D","3S"],"retire":[]}', '"command":{"type":"counter","cards":["4D","2S"],"retire":[]}'),
    ),
    seq: 5,
    code: "bot-move-mismatch",
  },
  {
    name: "a command the rules refuse (a counter below the spy's value)",
    file: RANDOM_BOT,
    edit: swap(5, '"command":{"type":"counter","cards":["4D","3S"],"retire":[]}', '"command":{"type":"counter","cards":["3C"],"retire":[]}'),
    seq: 5,
    code: "command-refused",
  },
  {
    name: "a Black Spy trick's points edited",
    file: BLACK_SPY,
    edit: swap(53, '"points":14', '"points":4'),
    seq: 53,
    code: "rederivation-mismatch",
  },
  {
    name: "a person's command marked as a bot's",
    file: BLACK_SPY,
    edit: swap(7, /,"hash":"[0-9a-f]*"}$/, ',"hash":"","bot":"random@1"}'),
    seq: 7,
    code: "bot-mismatch",
  },
  {
    name: "a bot seat's command with its mark removed",
    file: BLACK_SPY,
    edit: swap(4, ',"bot":"random@1"', ""),
    seq: 4,
    code: "bot-mark-missing",
  },
  {
    name: "a mark that is not NAME@VERSION",
    file: BLACK_SPY,
    edit: swap(4, '"bot":"random@1"', '"bot":"random@01"'),
    seq: 4,
    code: "bot-mark-invalid",
  },
  {
    name: "a bot seat handed to a bot",
    file: BLACK_SPY,
    edit: swap(30, '"seat_handed_to_bot","seat":3', '"seat_handed_to_bot","seat":1'),
    seq: 30,
    code: "seat-event-invalid",
  },
  {
    name: "the header's outcome names another winner",
    file: SPIES_4P,
    edit: swap(0, '"winners":[1,3]', '"winners":[0,2]'),
    rechain: false,
    seq: 77,
    code: "outcome-mismatch",
  },
  {
    name: "the header says active",
    file: SPIES_4P,
    edit: swap(0, '"status":"finished"', '"status":"active"'),
    rechain: false,
    seq: 77,
    code: "status-mismatch",
  },
  {
    name: "the header's players disagree with game_created",
    file: SPIES_4P,
    edit: swap(0, '"players":4', '"players":2'),
    rechain: false,
    seq: 1,
    code: "header-mismatch",
  },
  {
    name: "a row after seed_revealed",
    file: DEAL_CLOCK,
    edit: (lines) => [...lines, (lines[33] ?? "").replace('"seq":33', '"seq":34')],
    seq: 34,
    code: "event-after-end",
  },
  {
    name: "the header's version short of the log",
    file: DEAL_CLOCK,
    edit: swap(0, '"version":33', '"version":31'),
    rechain: false,
    seq: 32,
    code: "unexpected-event",
  },
  {
    name: "a seat's move at its deadline (3.5 s)",
    file: DEAL_CLOCK,
    edit: chainOf(...[6, 7, 8, 9, 10].map((seq) => swap(seq, "12:00:01.200345Z", "12:00:03.500000Z"))),
    seq: 6,
    code: "move-after-deadline",
  },
  {
    name: "a clock_expired before the deadline",
    file: DEAL_CLOCK,
    edit: chainOf(...[11, 12, 13, 14, 15].map((seq) => swap(seq, "12:00:04.702345Z", "12:00:04.699999Z"))),
    seq: 11,
    code: "clock-expired-early",
  },
  {
    name: "the revealed deal edited",
    file: DEAL_CLOCK,
    edit: swap(33, '"spies":["5H","6S","9C","JD","QS"]', '"spies":["6S","5H","9C","JD","QS"]'),
    seq: 33,
    code: "deal-mismatch",
  },
  {
    name: "a client seed labelled server",
    file: RANDOM_BOT,
    edit: chainOf(swap(0, '"seed_source":"client"', '"seed_source":"server"'), swap(1, '"seed_source":"client"', '"seed_source":"server"')),
    seq: 150,
    code: "seed-source-mismatch",
  },
  {
    name: "a game this verifier does not know",
    file: DEAL_CLOCK,
    edit: chainOf(swap(0, '"game":"deck-of-spies"', '"game":"chess"'), swap(1, '"game":"deck-of-spies"', '"game":"chess"')),
    seq: null,
    code: "unknown-game",
  },
  {
    name: "a recorded_at with a space for T",
    file: DEAL_CLOCK,
    edit: swap(6, '"recorded_at":"2026-12-01T12:00:01.200345Z"', '"recorded_at":"2026-12-01 12:00:01.200345Z"'),
    seq: 6,
    code: "invalid-timestamp",
  },
  {
    name: "a row's type that is not its event's",
    file: DEAL_CLOCK,
    edit: swap(7, '"type":"cards_retired","actor"', '"type":"cards_drawn","actor"'),
    seq: 7,
    code: "type-mismatch",
  },
  {
    name: "an event of another game",
    file: DEAL_CLOCK,
    edit: chainOf(swap(7, '"type":"cards_retired","actor"', '"type":"black_spy_trick_won","actor"'), swap(7, '"event":{"type":"cards_retired"', '"event":{"type":"black_spy_trick_won"')),
    seq: 7,
    code: "undecodable-event",
  },
  {
    name: "a meta event with an actor",
    file: DEAL_CLOCK,
    edit: swap(11, '"type":"clock_expired","actor":null', '"type":"clock_expired","actor":0'),
    seq: 11,
    code: "misplaced-command",
  },
  {
    name: "a float that rounds to infinity in an event",
    file: DEAL_CLOCK,
    edit: swap(7, '"count":2}', '"count":2,"x":1e400}'),
    rechain: false,
    seq: 7,
    code: "malformed-row",
  },
  {
    name: "a key twice inside an event",
    file: DEAL_CLOCK,
    edit: swap(7, '"count":2}', '"count":2,"count":2}'),
    rechain: false,
    seq: 7,
    code: "duplicate-key",
  },
  {
    name: "an unknown key inside an event (covered by the hash)",
    file: DEAL_CLOCK,
    edit: swap(7, '"count":2}', '"count":2,"note":"x"}'),
    seq: 7,
    code: "rederivation-mismatch",
  },
  {
    name: "a line that is not JSON",
    file: DEAL_CLOCK,
    edit: swap(5, /^\{/, "{{"),
    rechain: false,
    seq: null,
    code: "invalid-export",
  },
  {
    name: "a Spies & Lies guess edited (another rank)",
    file: SPIES_CLOCK,
    edit: chainOf(swap(16, '"command":{"type":"guess","rank":4}', '"command":{"type":"guess","rank":5}')),
    seq: 16,
    code: "rederivation-mismatch",
  },
  {
    name: "a random@2 Spies & Lies guess edited",
    file: SPIES_4P,
    edit: chainOf(swap(29, '"command":{"type":"guess","rank":6}', '"command":{"type":"guess","rank":7}')),
    seq: 29,
    code: "bot-move-mismatch",
  },
  {
    name: "a first teammate's deployment its teammate could not complete in order",
    file: SPIES_4P,
    edit: swap(6, '"command":{"type":"deploy","soldiers":[4,5]}', '"command":{"type":"deploy","soldiers":[2,10]}'),
    seq: 6,
    code: "command-refused",
  },
  {
    name: "a clocks_updated removed from a command's batch",
    file: DEAL_CLOCK,
    edit: (lines) => [...lines.slice(0, 10), ...lines.slice(11).map((l) => l.replace(/"seq":(\d+)/, (_, n: string) => `"seq":${Number(n) - 1}`))],
    seq: 10,
    code: "clocks-missing",
  },
];

/** Every forgery, verified: each must fail at its seq with its code. */
export async function checkForgeries(read: ReadVector): Promise<Check[]> {
  const out: Check[] = [];
  for (const f of FORGERIES) {
    const lines = new TextDecoder().decode(read(f.file)).split("\n").filter((l) => l.trim() !== "");
    let edited = f.edit(lines);
    if (f.rechain !== false) edited = await rechain(edited);
    const verdict = await verifyExport(`${edited.join("\n")}\n`);
    const p = verdict.problem;
    const ok = p !== null && p.seq === f.seq && p.code === f.code;
    out.push({
      name: `forgery: ${f.name}`,
      ok,
      detail: ok ? "" : `got ${p === null ? "ok" : `seq ${p.seq} ${p.code}: ${p.message}`}; want seq ${f.seq} ${f.code}`,
    });
  }
  return out;
}
