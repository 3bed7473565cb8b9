/**
 * A Deck of Spies game through the typed client: the API's types are generated from
 * openapi/openapi.json by openapi-typescript (`npm run generate`), every request goes through
 * openapi-fetch. Create a game, read the seat's view, then send a legal command at a time
 * until the game is over. With a server running (`spies-api`):
 *
 *     npm ci && npm run build && npm start -- http://127.0.0.1:8000
 */

import createClient from "openapi-fetch";
import type { components, paths } from "./schema";

type Schemas = components["schemas"];

const baseUrl = process.argv[2] ?? "http://127.0.0.1:8000";
const api = createClient<paths>({ baseUrl });

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

const { data: summary } = await api.GET("/games/{game_id}", { params: { path: { game_id: created.id } } });
console.log(JSON.stringify({ id: created.id, commands, outcome: summary?.outcome ?? null }));
