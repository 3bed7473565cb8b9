/**
 * The play page's sentences built from a game's state: whose turn it is, and the game over
 * in a player's words (who won, why, by which rule, with the figures that decided it). The
 * words themselves are in `i18n/`; the game's own reasons come from its module.
 */

import type { Summary, View } from "../api/client";
import { explainOutcome } from "../games/index";
import { listWords, T } from "../i18n/index";
import { type Namer, openSeats, seatName } from "../names";
import { outcomeSection } from "../rules/links";

/** The game over, for a player: a headline, the reason, the figures and the rule's section. */
export interface GameOverWords {
  headline: string;
  why: string | null;
  figures: string | null;
  section: string | undefined;
}

/** "You win!", "You lose. Ada wins.", "Ada and Grace share the win.", "A draw." */
function headline(summary: Summary, me: number | null, name: Namer): string {
  const outcome = summary.outcome;
  if (outcome === null || outcome === undefined) return T.gameOverShort;
  if (outcome.draw) return T.draw;
  const winners = outcome.winners;
  const others = winners.filter((seat) => seat !== me);
  const who =
    winners.length === 0
      ? T.noWinner
      : winners.length === 1
        ? T.winsOne(name(winners[0]))
        : T.winsShared(listWords(winners.map(name)));
  if (me === null || me === undefined) return who;
  if (winners.includes(me)) return others.length === 0 ? T.youWin : `${T.youWin} ${who}`;
  return winners.length === 0 ? T.youLose : `${T.youLose} ${who}`;
}

/** A game the log ended rather than its rules (`game_aborted`): nobody won, by no rule. */
function endedByTheLog(reason: string): { headline: string; why: string } | null {
  if (reason === "aborted") return { headline: T.endedAborted, why: T.endedAbortedWhy };
  if (reason === "abandoned") return { headline: T.endedAbandoned, why: T.endedAbandonedWhy };
  return null;
}

/** The whole game over of a finished game, as the seat `me` reads it. */
export function gameOverWords(summary: Summary, view: View, me: number | null, name: Namer): GameOverWords {
  const outcome = summary.outcome;
  if (outcome === null || outcome === undefined) {
    return { headline: T.gameOverShort, why: null, figures: null, section: undefined };
  }
  const ended = endedByTheLog(outcome.reason);
  if (ended !== null) return { ...ended, figures: null, section: undefined };
  const explained = explainOutcome(view, outcome, name);
  return { headline: headline(summary, me, name), ...explained, section: outcomeSection(view.game, outcome.reason) };
}

/** Whose turn it is, from the page's seat and the seats this browser holds. */
export function statusText(summary: Summary, view: View, seat: number | null, held: ReadonlySet<number>, name: Namer): string {
  if (summary.status === "finished") return T.gameOverShort;
  if (view.dealt === false) return T.waitingForPlayers(openSeats(summary).length);
  const toAct = summary.to_act;
  const handed = summary.seats.find((s) => s.seat === seat)?.bot;
  if (seat !== null && toAct.includes(seat)) {
    return handed === null || handed === undefined
      ? T.yourTurn(seatName(seat))
      : T.botPlaysYourTurn(handed, seatName(seat));
  }
  const mine = toAct.filter((s) => held.has(s));
  const waiting = T.waitingFor(listWords(toAct.map((s) => name(s))));
  return mine.length > 0 ? `${waiting}${T.switchSeats(listWords(mine.map(seatName)))}` : waiting;
}
