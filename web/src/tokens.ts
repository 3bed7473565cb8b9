/** The seat tokens this browser holds, per game, in localStorage (a reload keeps your seat). */

const PREFIX = "spies:tokens:";

export type SeatTokens = Map<number, string>;

/** Every seat token held for `gameId`, by seat. */
export function tokensOf(gameId: string): SeatTokens {
  const held: SeatTokens = new Map();
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(PREFIX + gameId) ?? "{}");
    if (typeof parsed === "object" && parsed !== null) {
      for (const [seat, token] of Object.entries(parsed)) {
        if (typeof token === "string" && /^\d+$/.test(seat)) held.set(Number(seat), token);
      }
    }
  } catch {
    // A corrupted entry holds nothing.
  }
  return held;
}

/** Remembers a seat's token for `gameId`. */
export function keepToken(gameId: string, seat: number, token: string): void {
  const held = tokensOf(gameId);
  held.set(seat, token);
  localStorage.setItem(PREFIX + gameId, JSON.stringify(Object.fromEntries(held)));
}

/** Forgets a seat's token for `gameId` (the server refused it). */
export function forgetToken(gameId: string, seat: number): void {
  const held = tokensOf(gameId);
  held.delete(seat);
  localStorage.setItem(PREFIX + gameId, JSON.stringify(Object.fromEntries(held)));
}

const CHOSEN = "spies:seat:";

/** The seat last chosen on this game's page (undefined: the first held, or spectator). */
export function chosenSeat(gameId: string): number | null | undefined {
  const value = localStorage.getItem(CHOSEN + gameId);
  if (value === null) return undefined;
  return value === "spectator" ? null : Number(value);
}

export function chooseSeat(gameId: string, seat: number | null): void {
  localStorage.setItem(CHOSEN + gameId, seat === null ? "spectator" : String(seat));
}
