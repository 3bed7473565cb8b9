/** The seats' public names and types, and the display name this browser last used. */

import type { Schemas, Summary } from "./api/client";
import { seatName } from "./games/common";

export type PublicSeat = Schemas["PublicSeat"];

const NAME = "spies:name";

/** The display name last used in this browser ("" when none yet). */
export function myName(): string {
  return localStorage.getItem(NAME) ?? "";
}

export function keepName(name: string): void {
  localStorage.setItem(NAME, name);
}

/** "seat 1 (Grace)", or "seat 1" for a seat with no name. */
export function seatLabel(summary: Summary | null, seat: number): string {
  const name = summary?.seats.find((s) => s.seat === seat)?.name;
  return name === null || name === undefined ? seatName(seat) : `${seatName(seat)} (${name})`;
}

/** What holds a seat, in words: "open", "bot random", "joined", "creator, played by bot random". */
export function seatKind(seat: PublicSeat): string {
  const type = seat.type ?? "creator";
  if (type === "bot") return `bot ${seat.bot ?? ""}`.trim();
  if (type === "open") return "open";
  return seat.bot === null || seat.bot === undefined ? type : `${type}, played by bot ${seat.bot}`;
}

/** The seats still open in a game. */
export function openSeats(summary: Summary): number[] {
  return summary.seats.filter((s) => s.type === "open").map((s) => s.seat);
}

/** The share link of an open seat. */
export function joinLink(gameId: string, seat: number): string {
  return `${location.origin}/join/${gameId}/${seat}`;
}

/** "Ada (creator)", "bot random", "open". */
export function seatLine(seat: PublicSeat): string {
  return seat.name === null || seat.name === undefined ? seatKind(seat) : `${seat.name} (${seatKind(seat)})`;
}
