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
import { logWriter } from "./play/log";
import { coalesced } from "./play/refresh";
import { drawPage, drawSeatPicker, type PlayActions } from "./play/render";
import {
  adoptLinkToken,
  handSeatToBot,
  type Refusal,
  loadBots,
  loadSummary,
  loadTable,
  REFUSED_TOKEN,
  rematchEverySeat,
  sendCommand,
  takeSeatBack,
} from "./play/requests";
import { drawSeatsBox } from "./play/seats-box";
import {
  changesSummary,
  initialState,
  isLoaded,
  type PlayState,
  seatToken,
  withBots,
  withCardToggled,
  withCommandAnswered,
  withCommandSent,
  withPushed,
  withSeat,
  withSummary,
  withTable,
  withTokenRefused,
} from "./play/state";
import { problemSection, ruleLink } from "./rules/links";
import { live } from "./stream";
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

  /** The version of the last summary asked for: a seat's event after it changes its seats. */
  let summaryAt = 0;

  /** The page's seat token was refused: it is forgotten, and the page watches instead. */
  const tokenRefused = (): void => {
    if (state.seat === null) return;
    // The kept token is refused (another server's, a reset database): forget it and
    // watch, with the seat notice saying what happened and how to get the seat back.
    forgetToken(gameId, state.seat);
    chooseSeat(gameId, null);
    state = withTokenRefused(state);
    drawSeatPicker(page, state);
    follow();
  };

  // The table asked for whole (summary, view, legal), only while the live stream cannot
  // bring it; the asks made while a load runs fold into one more load.
  const reload = coalesced(async () => {
    const seat = state.seat;
    const answer = await loadTable(gameId, seatToken(state));
    if (state.seat !== seat) return false; // the seat changed meanwhile: its stream follows
    switch (answer.kind) {
      case "problem":
        if (state.seat !== null && answer.code !== undefined && REFUSED_TOKEN.has(answer.code)) tokenRefused();
        else tell(answer.text);
        return false;
      case "moved":
        return true;
      case "table":
        // the stream came back meanwhile with a later table
        if (state.view !== null && state.view.version > answer.view.version) return false;
        state = withTable(state, answer.summary, answer.view, answer.legal);
        summaryAt = Math.max(summaryAt, answer.summary.version);
        render();
        return false;
    }
  });

  // The summary asked for again: only when the stream says a seat or the outcome changed.
  const resummarize = coalesced(async () => {
    const answer = await loadSummary(gameId);
    if (answer.kind === "summary") {
      state = withSummary(state, answer.summary);
      summaryAt = Math.max(summaryAt, answer.summary.version);
      render();
    }
    return false;
  });

  const log = logWriter(
    page.log,
    () => state.summary?.game,
    (joined) => namer(state.summary, state.seat, joined),
  );
  let stream: AbortController | null = null;
  /** Whether the table shown follows an open stream (else answers reload it). */
  let streaming = false;

  /** Follows the game live as the page's seat: the log from the first event, the table. */
  function follow(): void {
    stream?.abort();
    const controller = new AbortController();
    stream = controller;
    streaming = false;
    log.clear();
    live(
      gameId,
      state.seat,
      seatToken(state),
      {
        event(event) {
          log.write(event);
          if (changesSummary(event) && event.seq > summaryAt) resummarize();
        },
        state(pushed) {
          streaming = true;
          state = withPushed(state, pushed);
          if (state.summary?.status === "finished" && state.summary.outcome === null) resummarize();
          render();
        },
        interrupted() {
          streaming = false;
        },
        lost() {
          streaming = false;
          reload();
        },
        refused() {
          tokenRefused();
        },
      },
      controller.signal,
    );
  }

  /** Sends a command chosen on the view shown; the stream brings the table it makes. */
  async function send(command: Command): Promise<void> {
    const token = seatToken(state);
    const shown = state.view;
    if (token === undefined || shown === null) return;
    state = withCommandSent(state);
    tell("");
    render();
    const answer = await sendCommand(gameId, token, command, shown.version);
    state = withCommandAnswered(state, answer.kind === "accepted" ? answer.version : null);
    if (answer.kind === "refused") refuse(answer);
    render();
    if (!streaming) reload();
  }

  /** A hand-over to a bot or back: its refusal shown; the stream brings the seat's change. */
  async function seatRequest(request: () => Promise<Refusal | null>): Promise<void> {
    tell("");
    const problem = await request();
    if (problem !== null) refuse(problem);
    if (!streaming) reload();
  }

  page.seatSelect.addEventListener("change", () => {
    const seat = page.seatSelect.value === "spectator" ? null : Number(page.seatSelect.value);
    chooseSeat(gameId, seat);
    state = withSeat(state, seat);
    follow();
  });

  drawSeatPicker(page, state);
  void loadBots().then((bots) => {
    state = withBots(state, bots);
    if (isLoaded(state)) drawSeatsBox(page.seatsBox, state, actions);
  });
  // The summary first (the seats' names, for the log's first lines; a game that is not
  // there), then the stream, whose snapshot is the table.
  const first = await loadSummary(gameId);
  if (first.kind === "problem") {
    if (first.code !== undefined && DEAD_ENDS.has(first.code)) drawDeadEnd(root, gameId, first.code);
    else tell(first.text);
    return;
  }
  state = withSummary(state, first.summary);
  summaryAt = first.summary.version;
  follow();
}
