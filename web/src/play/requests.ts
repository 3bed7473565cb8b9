/**
 * The play page's requests: each one the API call and the answer in the page's terms (the
 * data, or the problem to show), with no drawing.
 */

import { api, auth, type Command, problemCode, problemText, type Summary, type View } from "../api/client";
import { T } from "../i18n/index";
import { seatName } from "../names";
import { keepReceipt } from "../receipts";
import { chooseSeat, keepToken } from "../tokens";
import type { BotInfo } from "./state";

/** A refusal to show: its words, and the API's code (which points at a rule). */
export interface Refusal {
  text: string;
  code?: string;
}

function refusal(error: unknown): Refusal {
  const code = problemCode(error);
  return code === undefined ? { text: T.refused(problemText(error)) } : { text: T.refused(problemText(error)), code };
}

/** The code of a table that could not be asked at all (not one of the API's codes). */
export const SERVER_DOWN = "server-down";

/** The codes of a seat's token the server refused (unknown to it, or another game's). */
export const REFUSED_TOKEN: ReadonlySet<string> = new Set(["unauthorized", "forbidden"]);

/** What the page draws from, read at one version. */
export type TableAnswer =
  | { kind: "table"; summary: Summary; view: View; legal: Command[] }
  /** An answer failed: the problem to show. */
  | { kind: "problem"; text: string; code?: string }
  /** A move landed between the answers: ask again for one version. */
  | { kind: "moved" };

/** The game's summary, or the problem to show. */
export type SummaryAnswer = { kind: "summary"; summary: Summary } | { kind: "problem"; text: string; code?: string };

/** The game's summary: what the page needs that its stream does not push (seats, outcome). */
export async function loadSummary(gameId: string): Promise<SummaryAnswer> {
  let answer;
  try {
    answer = await api.GET("/games/{game_id}", { params: { path: { game_id: gameId } } });
  } catch {
    return { kind: "problem", text: T.deadServerDown, code: SERVER_DOWN };
  }
  if (answer.data !== undefined) return { kind: "summary", summary: answer.data };
  const code = problemCode(answer.error);
  const text = problemText(answer.error);
  return code === undefined ? { kind: "problem", text } : { kind: "problem", text, code };
}

/**
 * The summary, the view of `token`'s seat and its legal commands (none without a token): the
 * table asked for whole, when the live stream cannot bring it.
 */
export async function loadTable(gameId: string, token: string | undefined): Promise<TableAnswer> {
  const path = { params: { path: { game_id: gameId } } };
  let answers;
  try {
    answers = await Promise.all([
      api.GET("/games/{game_id}", path),
      api.GET("/games/{game_id}/view", { ...path, headers: auth(token) }),
      token === undefined
        ? Promise.resolve(null)
        : api.GET("/games/{game_id}/legal", { ...path, headers: auth(token) }),
    ]);
  } catch {
    // fetch itself failed: no answer at all, the server is down or unreachable
    return { kind: "problem", text: T.deadServerDown, code: SERVER_DOWN };
  }
  const [s, v, l] = answers;
  if (s.data === undefined || v.data === undefined) {
    const error: unknown = s.error ?? v.error;
    const code = problemCode(error);
    return code === undefined ? { kind: "problem", text: problemText(error) } : { kind: "problem", text: problemText(error), code };
  }
  if (s.data.version !== v.data.version || (l?.data !== undefined && l.data.version !== v.data.version)) {
    return { kind: "moved" };
  }
  return { kind: "table", summary: s.data, view: v.data, legal: l?.data?.commands ?? [] };
}

/** The answer to a command: the version it brought the game to, or the refusal to show. */
export type CommandAnswer = { kind: "accepted"; version: number } | ({ kind: "refused" } & Refusal);

/**
 * Sends a command chosen on the view at `version`. The server decides whether a move made
 * meanwhile matters: it applies the command when the seat's legal commands are still those
 * of `version` (another seat's move in a simultaneous phase, a join), and answers
 * `version-conflict` when they changed or the seat acted since; the person then chooses again
 * on the new table.
 */
export async function sendCommand(gameId: string, token: string, command: Command, version: number): Promise<CommandAnswer> {
  const { data, error } = await api.POST("/games/{game_id}/commands", {
    params: { path: { game_id: gameId }, header: { "Idempotency-Key": crypto.randomUUID() } },
    headers: auth(token),
    body: { command, expected_version: version },
  });
  if (data !== undefined) {
    keepReceipt(data.receipt);
    return { kind: "accepted", version: data.version };
  }
  return { kind: "refused", ...(error?.code === "version-conflict" ? { text: T.tableMoved } : refusal(error)) };
}

/** Hands the seat to `bot`; the problem to show, or null. */
export async function handSeatToBot(
  gameId: string,
  seat: number,
  token: string | undefined,
  bot: string,
): Promise<Refusal | null> {
  const { data, error } = await api.POST("/games/{game_id}/seats/{seat}/bot", {
    params: { path: { game_id: gameId, seat } },
    headers: auth(token),
    body: { bot },
  });
  keepReceipt(data?.receipt);
  return error === undefined ? null : refusal(error);
}

/** Takes the seat back from its bot; the problem to show, or null. */
export async function takeSeatBack(gameId: string, seat: number, token: string | undefined): Promise<Refusal | null> {
  const { data, error } = await api.DELETE("/games/{game_id}/seats/{seat}/bot", {
    params: { path: { game_id: gameId, seat } },
    headers: auth(token),
  });
  keepReceipt(data?.receipt);
  return error === undefined ? null : refusal(error);
}

/**
 * Moves every seat this browser holds to the next game (the first call creates it), the
 * page's seat first, and opens it; `tell` shows a seat's refusal.
 */
export async function rematchEverySeat(
  gameId: string,
  tokens: ReadonlyMap<number, string>,
  seat: number | null,
  tell: (problem: string) => void,
): Promise<void> {
  const held = [...tokens.entries()].sort(([a], [b]) => (a === seat ? -1 : b === seat ? 1 : a - b));
  let next: string | null = null;
  for (const [atSeat, token] of held) {
    const { data, error } = await api.POST("/games/{game_id}/rematch", {
      params: { path: { game_id: gameId } },
      headers: auth(token),
    });
    if (data === undefined) {
      tell(T.noRematch(seatName(atSeat), problemText(error)));
      continue;
    }
    keepToken(data.id, data.seat, data.token);
    keepReceipt(data.receipt);
    if (next === null) chooseSeat(data.id, data.seat);
    next = data.id;
  }
  if (next !== null) location.assign(`/play/${next}`);
}

/**
 * Takes a `#token=` seat link: stores the token, then clears it from the address bar. The
 * problem to show when the server refused the link, or null (no link, or a valid one).
 */
export async function adoptLinkToken(gameId: string): Promise<string | null> {
  const match = /(?:^#|&)token=([A-Za-z0-9_\-.~+/=]+)/.exec(location.hash);
  if (match === null) return null;
  history.replaceState(null, "", location.pathname + location.search);
  const token = match[1] ?? "";
  const { data, error } = await api.GET("/games/{game_id}/view", {
    params: { path: { game_id: gameId } },
    headers: auth(token),
  });
  if (data === undefined || data.seat === null || data.seat === undefined) {
    return T.badSeatLink(problemText(error));
  }
  keepToken(gameId, data.seat, token);
  chooseSeat(gameId, data.seat);
  return null;
}

/** The bots the server offers (none when it does not answer). */
export async function loadBots(): Promise<BotInfo[]> {
  const { data } = await api.GET("/bots");
  return data?.bots ?? [];
}
