/**
 * The typed API client (openapi-fetch over the generated schema), the types the pages use,
 * all derived from the generated schema (never a hand-written copy), and problem messages.
 */

import createClient, { type FetchResponse } from "openapi-fetch";
import { T } from "../i18n/index";
import type { components, paths } from "./schema";

export type Schemas = components["schemas"];
/** A game's public summary, of any game (tagged by `game`), as `GET /games/{id}` answers it. */
export type Summary = Answer<"/games/{game_id}">;
export type Problem = Schemas["Problem"];

/**
 * The JSON body of a path's GET answer as the client hands it over: the schema's type as
 * openapi-fetch reads it (a tuple of the schema, for one, arrives as an array).
 */
type Answer<P extends keyof paths> = NonNullable<
  FetchResponse<NonNullable<paths[P]["get"]>, unknown, "application/json">["data"]
>;

/** A legal command of any game, as `GET /games/{id}/legal` lists it. */
export type Command = Answer<"/games/{game_id}/legal">["commands"][number];

/** A view of any game, as `GET /games/{id}/view` answers it: tagged by `game`. */
export type View = Answer<"/games/{game_id}/view">;
/** A registered game id: the tags of the views. */
export type GameId = View["game"];
/** The view of one game. */
export type ViewOf<G extends GameId> = Extract<View, { game: G }>;

/** One event of any game, as the events endpoints send it: tagged by `type`. */
export type GameEvent = Answer<"/games/{game_id}/events">["events"][number];
export type EventType = GameEvent["type"];
/** The event of one type. */
export type EventOf<T extends EventType> = Extract<GameEvent, { type: T }>;

export const api = createClient<paths>({ baseUrl: location.origin });

/** Headers that make the caller the seat of `token`, or a spectator without one. */
export function auth(token: string | undefined): Record<string, string> {
  return token === undefined ? {} : { Authorization: `Bearer ${token}` };
}

/** The stable code of an error answer, if it is a problem document. */
export function problemCode(error: unknown): string | undefined {
  if (typeof error === "object" && error !== null && "code" in error) {
    const code = (error as Partial<Problem>).code;
    return typeof code === "string" ? code : undefined;
  }
  return undefined;
}

/**
 * A player's message for an error answer: the page's own words for its code when it has
 * them (in the page's language), else the API's detail; the code follows in brackets.
 */
export function problemText(error: unknown): string {
  if (typeof error === "object" && error !== null && "detail" in error) {
    const problem = error as Partial<Problem>;
    const words = problem.code === undefined ? undefined : T.problems[problem.code];
    return `${words ?? problem.detail ?? "error"}${problem.code === undefined ? "" : ` (${problem.code})`}`;
  }
  return String(error);
}
