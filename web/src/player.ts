/**
 * This browser's player (`POST /players`), if it made one: its token, kept in localStorage,
 * goes with every creation and join, so the server lists those seats with their tokens
 * (`GET /players/me/games`): a way back to a seat whose token this browser lost.
 */

import { problemCode } from "./api/client";

const KEY = "spies:player";

/** The player token this browser holds, or null. */
export function playerToken(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function keepPlayer(token: string): void {
  localStorage.setItem(KEY, token);
}

/** Forgets a player the server does not know (a new database): the page offers to make one again. */
export function forgetPlayer(): void {
  localStorage.removeItem(KEY);
}

/** The header that makes a creation's or a join's seats this browser's player's (none without one). */
export function asPlayer(): Record<string, string> {
  const token = playerToken();
  return token === null ? {} : { Authorization: `Bearer ${token}` };
}

/**
 * Sends a creation or a join as this browser's player; when the server does not know that
 * player (401 `unknown-player`: a new database), forgets it and sends the request again
 * without it, so a stale player never stops a game.
 */
export async function sentAsPlayer<R extends { error?: unknown }>(send: (headers: Record<string, string>) => Promise<R>): Promise<R> {
  const first = await send(asPlayer());
  if (playerToken() === null || problemCode(first.error) !== "unknown-player") return first;
  forgetPlayer();
  return send({});
}
