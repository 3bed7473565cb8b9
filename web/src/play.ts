/**
 * `/play/{id}`: a game's table, as the seat whose token this browser holds or a spectator.
 *
 * The page keeps one {@link PlayState} (`play/state.ts`), replaced by pure steps, and draws
 * it with the renderers of `play/`; this module only wires the events of the page (clicks,
 * the seat picker, the event stream, answers) to those steps, requests and redraws.
 */

import type { Command } from "./api/client";
import { fill } from "./dom";
import { DEAD_ENDS, drawDeadEnd } from "./play/dead-end";
import { namer } from "./names";
import { focusKeepingRedraw } from "./play/focus";
import { layOut } from "./play/layout";
import { logFollower } from "./play/log";
import { coalesced } from "./play/refresh";
import { drawPage, drawSeatPicker, type PlayActions } from "./play/render";
import {
  adoptLinkToken,
  handSeatToBot,
  type Refusal,
  loadBots,
  loadTable,
  REFUSED_TOKEN,
  rematchEverySeat,
  sendCommand,
  takeSeatBack,
} from "./play/requests";
import { drawSeatsBox } from "./play/seats-box";
import {
  initialState,
  isLoaded,
  type PlayState,
  seatToken,
  withBots,
  withCardToggled,
  withCommandAnswered,
  withCommandSent,
  withSeat,
  withTable,
  withTokenRefused,
} from "./play/state";
import { problemSection, ruleLink } from "./rules/links";
import { chooseSeat, chosenSeat, forgetToken, tokensOf } from "./tokens";

/** Opens the table of `gameId` in `root`. */
export async function playPage(root: HTMLElement, gameId: string): Promise<void> {
  const linkProblem = await adoptLinkToken(gameId);
  const held = tokensOf(gameId);
  // A refused link with no other seat held here leaves a spectator: the seat notice says why.
  const lostLink = linkProblem !== null && held.size === 0;
  let state: PlayState = initialState(gameId, held, chosenSeat(gameId), lostLink ? { reason: "link" } : null);
  const page = layOut(root, gameId, lostLink ? null : linkProblem);
  const redrawTable = focusKeepingRedraw(page.tableHost);
  const tell = (problem: string): void => {
    page.alert.textContent = problem;
  };
  /** A refusal, with a link to the rule behind it when its code points at one. */
  const refuse = (problem: Refusal): void => {
    const game = state.summary?.game;
    const section = game === undefined ? undefined : problemSection(game, problem.code);
    fill(page.alert, problem.text, section === undefined || game === undefined ? null : " ", section === undefined || game === undefined ? null : ruleLink(game, section));
  };

  const actions: PlayActions = {
    toggle(index) {
      state = withCardToggled(state, index);
      render();
    },
    send(command) {
      void send(command);
    },
    handOver(seat, bot) {
      void seatRequest(() => handSeatToBot(gameId, seat, state.tokens.get(seat), bot));
    },
    takeBack(seat) {
      void seatRequest(() => takeSeatBack(gameId, seat, state.tokens.get(seat)));
    },
    rematch() {
      void rematchEverySeat(gameId, state.tokens, state.seat, tell);
    },
  };
  const render = (): void => drawPage(page, state, actions, redrawTable);

  // Every change (an event, an answer, another seat) asks for the table again; the asks made
  // while a load runs fold into one more load.
  const refresh = coalesced(async () => {
    const seat = state.seat;
    const answer = await loadTable(gameId, seatToken(state));
    if (state.seat !== seat) return false; // the seat changed meanwhile: its own load follows
    switch (answer.kind) {
      case "problem":
        if (state.summary === null && answer.code !== undefined && DEAD_ENDS.has(answer.code)) {
          drawDeadEnd(root, gameId, answer.code);
          return false;
        }
        if (state.seat !== null && answer.code !== undefined && REFUSED_TOKEN.has(answer.code)) {
          // The kept token is refused (another server's, a reset database): forget it and
          // watch, with the seat notice saying what happened and how to get the seat back.
          forgetToken(gameId, state.seat);
          chooseSeat(gameId, null);
          state = withTokenRefused(state);
          drawSeatPicker(page, state);
          if (state.summary !== null) log.restart(undefined, state.summary.game);
          return true;
        }
        tell(answer.text);
        return false;
      case "moved":
        return true;
      case "table": {
        const first = state.summary === null;
        state = withTable(state, answer.summary, answer.view, answer.legal);
        render();
        // The log's first lines were written before the seats' names were known.
        if (first) log.restart(seatToken(state), state.summary?.game);
        return false;
      }
    }
  });
  const log = logFollower(page.log, gameId, refresh, (joined) => namer(state.summary, state.seat, joined));

  /** Sends a command chosen on the view shown; the table is loaded again after the answer. */
  async function send(command: Command): Promise<void> {
    const token = seatToken(state);
    const shown = state.view;
    if (token === undefined || shown === null) return;
    state = withCommandSent(state);
    tell("");
    render();
    const problem = await sendCommand(gameId, token, command, shown.version);
    state = withCommandAnswered(state);
    if (problem !== null) refuse(problem);
    refresh();
  }

  /** A hand-over to a bot or back: its refusal shown, then the table loaded again. */
  async function seatRequest(request: () => Promise<Refusal | null>): Promise<void> {
    tell("");
    const problem = await request();
    if (problem !== null) refuse(problem);
    refresh();
  }

  page.seatSelect.addEventListener("change", () => {
    const seat = page.seatSelect.value === "spectator" ? null : Number(page.seatSelect.value);
    chooseSeat(gameId, seat);
    state = withSeat(state, seat);
    refresh();
    log.restart(seatToken(state), state.summary?.game);
  });

  drawSeatPicker(page, state);
  refresh(); // the log starts after the first load, when the seats' names are known
  void loadBots().then((bots) => {
    state = withBots(state, bots);
    if (isLoaded(state)) drawSeatsBox(page.seatsBox, state, actions);
  });
}
