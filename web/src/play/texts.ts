/**
 * The play page's words: every player-facing string of the table page outside the game
 * modules is here, so that a translation has one place to look.
 */

import type { Summary } from "../api/client";
import { listWords, seatName } from "../games/common";
import { seatLabel } from "../names";

/** "Game over (flag-captured): seat 1 (Grace) wins." */
export function outcomeText(summary: Summary): string {
  const outcome = summary.outcome;
  if (outcome === null) return "Game over.";
  const winners = outcome.winners.map((s) => seatLabel(summary, s));
  const who = outcome.draw
    ? "a draw"
    : winners.length === 0
      ? "no winner"
      : `${listWords(winners)} ${winners.length === 1 ? "wins" : "win"}`;
  return `Game over (${outcome.reason}): ${who}.`;
}

/** Whose turn it is, from the page's seat and the seats this browser holds. */
export function statusText(summary: Summary, seat: number | null, held: ReadonlySet<number>): string {
  if (summary.status === "finished") return outcomeText(summary);
  const toAct = summary.to_act;
  const handed = summary.seats.find((s) => s.seat === seat)?.bot;
  if (seat !== null && toAct.includes(seat)) {
    return handed === null || handed === undefined
      ? `Your turn (${seatName(seat)}).`
      : `Bot ${handed} plays your turn (${seatName(seat)}).`;
  }
  const mine = toAct.filter((s) => held.has(s));
  const waiting = `Waiting for ${listWords(toAct.map((s) => seatLabel(summary, s)))}.`;
  return mine.length > 0
    ? `${waiting} You hold ${listWords(mine.map(seatName))}: switch seats to play.`
    : waiting;
}

/** The fixed words and short phrases of the play page. */
export const PLAY_TEXT = {
  heading: "Game",
  loading: "Loading…",
  lobby: "Lobby",
  replay: "Replay",
  playAs: "Play as ",
  spectator: "spectator",
  log: "Log",
  logLabel: "What happened",
  seatLinks: "Private seat links (anyone with a link plays that seat)",
  seatLink: (seat: number) => `link of ${seatName(seat)}`,
  title: (game: string, gameId: string) => `${game} · ${gameId}`,
  documentTitle: (game: string) => `${game} · spies`,

  seats: "Seats",
  yours: ", yours",
  shareLink: (seat: number) => `share link of ${seatName(seat)}`,
  botSelect: "Bot to play my seat",
  bot: "Bot ",
  handToBot: "Let the bot play my seat",
  takeBack: "Take my seat back",

  scores: (label: string) => `Scores (${label}): `,
  defaultScoreLabel: "points",
  seatScore: (seat: number, score: number) => `${seatName(seat)} ${score}`,
  rematch: "Rematch",
  joinRematch: "Join the rematch",
  watchRematch: "Watch the rematch",
  replayGame: "Replay this game",
  backToLobby: "Back to the lobby",

  refused: (problem: string) => `Refused: ${problem}`,
  noRematch: (seat: number, problem: string) => `No rematch for ${seatName(seat)}: ${problem}`,
  tableMoved: "The table moved before your move arrived: choose again.",
  badSeatLink: (problem: string) => `This seat link is not valid: ${problem}`,
} as const;
