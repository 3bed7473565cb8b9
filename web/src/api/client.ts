/** The typed API client (openapi-fetch over the generated schema) and problem messages. */

import createClient from "openapi-fetch";
import type { components, paths } from "./schema";

export type Schemas = components["schemas"];
export type Command = Schemas["LegalCommands"]["commands"][number];
export type View = Schemas["DeckOfSpiesView"] | Schemas["BlackSpyView"] | Schemas["SpiesAndLiesView"];
export type Summary = Schemas["GameSummary"];
export type Problem = Schemas["Problem"];
/** One event as the events endpoints send it: its type, seq and the event's own fields. */
export type GameEvent = { type: string; seq: number } & Record<string, unknown>;

export const api = createClient<paths>({ baseUrl: location.origin });

/** Headers that make the caller the seat of `token`, or a spectator without one. */
export function auth(token: string | undefined): Record<string, string> {
  return token === undefined ? {} : { Authorization: `Bearer ${token}` };
}

/** A human message for an error answer (problem details or anything else). */
export function problemText(error: unknown): string {
  if (typeof error === "object" && error !== null && "detail" in error) {
    const problem = error as Partial<Problem>;
    return `${problem.detail ?? "error"}${problem.code === undefined ? "" : ` (${problem.code})`}`;
  }
  return String(error);
}
