/**
 * A Deck of Spies game through the typed client: the API's types are generated from
 * openapi/openapi.json by openapi-typescript (`npm run generate`), every request goes through
 * openapi-fetch. Create a game, read the seat's view, then send a legal command at a time
 * until the game is over. A good client of a shared server: it paces its requests below the
 * server's default rate limit, waits out a 429 or 503 for as long as its `Retry-After` says,
 * and should it fail before the end, hands its seat to the `random` bot, which finishes the
 * game on the server. With a server running (`spies-api`):
 *
 *     npm ci && npm run build && npm start -- http://127.0.0.1:8000 [REQUESTS_A_SECOND]
 */

import createClient from "openapi-fetch";
import type { components, paths } from "./schema";

type Schemas = components["schemas"];

const baseUrl = process.argv[2] ?? "http://127.0.0.1:8000";
/** Requests a second at most (the server's default limit is 50); 0: unpaced. */
const rate = Number(process.argv[3] ?? "40");
/** Answers that mean "not now": too many requests, or the server busy or draining. */
const RETRIED = new Set([429, 503]);
const MAX_WAITS = 20;
const MAX_RETRY_AFTER_MS = 60_000;

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));
let nextAt = 0;
let waits = 0;

/** fetch, paced and patient: openapi-fetch has no retry of its own, so this is its `fetch`. */
async function pacedFetch(request: Request): Promise<Response> {
  for (let attempt = 0; ; attempt += 1) {
    const now = Date.now();
    const start = Math.max(now, nextAt);
    nextAt = start + (rate > 0 ? 1000 / rate : 0);
    if (start > now) await sleep(start - now);
    const response = await fetch(request.clone());
    const after = response.headers.get("Retry-After");
    if (!RETRIED.has(response.status) || after === null || attempt >= MAX_WAITS) return response;
    await response.body?.cancel();
    waits += 1;
    const seconds = Number(after);
    await sleep(Math.min(Number.isFinite(seconds) ? Math.max(seconds, 0) * 1000 : 1000, MAX_RETRY_AFTER_MS));
  }
}

const api = createClient<paths>({ baseUrl, fetch: pacedFetch });

/** Fail with the server's problem details (RFC 9457: a stable `code` and a `detail`). */
function refused(what: string, problem: Schemas["Problem"] | undefined): never {
  throw new Error(`${what}: ${problem?.code ?? "no answer"} ${problem?.detail ?? ""}`);
}

const { data: created, error } = await api.POST("/games", {
  body: { game: "deck-of-spies", seed: "typescript-client" },
});
if (created === undefined) refused("create", error);
const seat = created.seats[0];
if (seat?.token === undefined) throw new Error("no token for seat 0");
// The seat's secret token makes each request that seat's; without it, a spectator's.
const asSeat = { params: { path: { game_id: created.id } }, headers: { Authorization: `Bearer ${seat.token}` } };

const { data: view, error: noView } = await api.GET("/games/{game_id}/view", asSeat);
if (view === undefined) refused("view", noView);
if (view.game === "deck-of-spies") {
  // `game` tells the views apart: here TypeScript knows this is a DeckOfSpiesView.
  console.log(`game ${created.id}: spy ${view.top_spy ?? "-"}, hand ${(view.hand ?? []).join(" ")}`);
}

let status: Schemas["GameStatus"] = created.status;
let commands = 0;
try {
  while (status === "active") {
    const { data: legal, error: noLegal } = await api.GET("/games/{game_id}/legal", asSeat);
    if (legal === undefined) refused("legal", noLegal);
    const command = legal.commands[0];
    if (command === undefined) throw new Error("the seat to act has no legal command");
    // Any legal command can be posted back as it is; `expected_version` refuses a stale one (409).
    const { data: done, error: notDone } = await api.POST("/games/{game_id}/commands", {
      ...asSeat,
      body: { command, expected_version: legal.version },
    });
    if (done === undefined) refused(`command ${command.type}`, notDone);
    status = done.status;
    commands += 1;
  }
} catch (failure) {
  // Leave no game waiting for ever on a client that is gone: a bot plays it to its end.
  await api.POST("/games/{game_id}/seats/{seat}/bot", {
    params: { path: { game_id: created.id, seat: seat.seat } },
    headers: asSeat.headers,
    body: { bot: "random" },
  });
  throw failure;
}

const { data: summary } = await api.GET("/games/{game_id}", { params: { path: { game_id: created.id } } });
console.log(JSON.stringify({ id: created.id, commands, waits, outcome: summary?.outcome ?? null }));
