/** The seats' public names and types, and the display name this browser last used. */

import type { Schemas, Summary } from "./api/client";
import { T } from "./i18n/index";
import { withAside } from "./i18n/words";

export type PublicSeat = Schemas["PublicSeat"];

const NAME = "spies:name";

/** The display name last used in this browser ("" when none yet). */
export function myName(): string {
  return localStorage.getItem(NAME) ?? "";
}

export function keepName(name: string): void {
  localStorage.setItem(NAME, name);
}

/** "seat 2" ("Platz 2"); "spectator" for none. */
export function seatName(seat: number | null | undefined): string {
  return seat === null || seat === undefined ? T.spectator : T.seat(seat);
}

/**
 * A seat's name as players read it: the display name, else the bot's name, else "seat N";
 * the page's own seat with "(you)". Built from the summary of a game and the page's seat.
 */
export type Namer = (seat: number | null | undefined) => string;

export function namer(summary: Summary | null, me: number | null, joined?: ReadonlyMap<number, string>): Namer {
  const plain = (seat: number): string | null => {
    const held = summary?.seats.find((s) => s.seat === seat);
    return (
      joined?.get(seat) ??
      held?.name ??
      (held?.type === "bot" && held.bot !== null && held.bot !== undefined ? T.botNamed(held.bot) : null)
    );
  };
  const seats = summary?.seats.map((s) => s.seat) ?? [...(joined?.keys() ?? [])];
  return (seat) => {
    if (seat === null || seat === undefined) return T.spectator;
    const name = plain(seat);
    // Two seats of one name (two bots of a kind, two people called Ada) keep their seat numbers.
    const shared = name !== null && seats.some((other) => other !== seat && plain(other) === name);
    const label = name === null ? T.seat(seat) : shared ? withAside(name, T.seat(seat)) : name;
    return seat === me ? T.seatWithYou(label) : label;
  };
}

/** "seat 1 (Grace)", or "seat 1" for a seat with no name. */
export function seatLabel(summary: Summary | null, seat: number): string {
  const name = summary?.seats.find((s) => s.seat === seat)?.name;
  return name === null || name === undefined ? seatName(seat) : withAside(seatName(seat), name);
}

/** What holds a seat, in words: "open", "bot random", "joined", "creator, played by bot random". */
export function seatKind(seat: PublicSeat): string {
  const type = seat.type ?? "creator";
  if (type === "bot") return T.kindBot(seat.bot ?? "").trim();
  if (type === "open") return T.kindOpen;
  const kind = type === "joined" ? T.kindJoined : T.kindCreator;
  return seat.bot === null || seat.bot === undefined ? kind : T.kindPlayedBy(kind, seat.bot);
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
  return seat.name === null || seat.name === undefined ? seatKind(seat) : withAside(seat.name, seatKind(seat));
}
