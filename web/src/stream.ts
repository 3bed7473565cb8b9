/**
 * A game's live stream, read with the browser's `EventSource`: its events one by one and the
 * state it pushes (a `snapshot` when it opens, a `state` after each batch), so the page never
 * asks for the view or the legal moves again after a move.
 *
 * A seat's stream opens with a single-use ticket asked for with the seat's token (the token
 * itself never goes in a URL); a spectator's needs none. When a stream drops it is opened
 * again after the last event received (`?after=`, what `Last-Event-ID` says), with a new
 * ticket, until the game's final event.
 */

import { api, auth, type GameEvent, problemCode, type Schemas } from "./api/client";
import { FINAL_EVENT, RECONNECT_MS } from "./generated/rules";

/** What a stream pushes of its game at one version: the data of `snapshot` and `state`. */
export type StreamState = Schemas["StreamState"];

/** The longest wait between two attempts to open a stream that keeps failing. */
const MAX_WAIT_MS = 16_000;

/** What the page hears from a {@link live} stream. */
export interface LiveHandlers {
  /** One event, in seq order, each once. */
  event(event: GameEvent): void;
  /** The reader's state: at the stream's opening, then after each batch of events. */
  state(state: StreamState): void;
  /**
   * The stream dropped after its snapshot: it is opened again at once (its new snapshot
   * brings the table), and until then nothing follows the game.
   */
  interrupted(): void;
  /**
   * The stream could not be opened, or the game's last state never came: what the page shows
   * may be behind until a later attempt (made by itself, after a growing wait).
   */
  lost(): void;
  /** The server refused the seat's token when asked for a ticket (its code): no retry. */
  refused(code: string): void;
}

/** Codes of a ticket refusal that asking again will not change: the token is not the seat's. */
const TOKEN_REFUSED: ReadonlySet<string> = new Set(["unauthorized", "forbidden", "not-your-seat"]);

type Ticket = { kind: "ticket"; ticket: string } | { kind: "refused"; code: string } | { kind: "failed" };

/** A ticket that opens the stream of `seat` once, asked for with its `token`. */
async function ticketFor(gameId: string, seat: number, token: string | undefined): Promise<Ticket> {
  try {
    const { data, error } = await api.POST("/games/{game_id}/seats/{seat}/stream-ticket", {
      params: { path: { game_id: gameId, seat } },
      headers: auth(token),
    });
    if (data !== undefined) return { kind: "ticket", ticket: data.ticket };
    const code = problemCode(error);
    return code !== undefined && TOKEN_REFUSED.has(code) ? { kind: "refused", code } : { kind: "failed" };
  } catch {
    return { kind: "failed" }; // no answer at all: the server is down or unreachable
  }
}

/**
 * Follows a game live from its first event, as `seat` (with its `token`) or a spectator
 * (`seat` null), until its final event or until `signal` aborts.
 */
export function live(
  gameId: string,
  seat: number | null,
  token: string | undefined,
  on: LiveHandlers,
  signal: AbortSignal,
): void {
  let last = 0; // the seq of the last event received
  let stateAt = -1; // the version of the last state received
  let ended = false; // the final event was received
  let failures = 0;
  let source: EventSource | null = null;
  signal.addEventListener("abort", () => source?.close());

  /** Opens the stream again after a wait that grows with each attempt since the last state. */
  const reopen = (): void => {
    failures += 1;
    setTimeout(() => void open(), Math.min(RECONNECT_MS * 2 ** (failures - 1), MAX_WAIT_MS));
  };
  const retry = (): void => {
    on.lost();
    reopen();
  };

  async function open(): Promise<void> {
    if (signal.aborted) return;
    const query = new URLSearchParams({ after: String(last) });
    if (seat !== null) {
      const ticket = await ticketFor(gameId, seat, token);
      if (signal.aborted) return;
      if (ticket.kind === "refused") return on.refused(ticket.code);
      if (ticket.kind === "failed") return retry();
      query.set("ticket", ticket.ticket);
    }
    const opened = new EventSource(`/games/${encodeURIComponent(gameId)}/events/stream?${query.toString()}`);
    source = opened;
    let followed = false; // this connection brought its snapshot
    opened.onmessage = (message: MessageEvent<string>) => {
      const event = JSON.parse(message.data) as GameEvent;
      last = event.seq;
      if (event.type === FINAL_EVENT) ended = true;
      on.event(event);
    };
    const pushed = (message: MessageEvent<string>): void => {
      // a state after a batch shows the stream works; a snapshot alone does not (two pages
      // of one seat past its cap of streams would end each other's at once, for ever)
      if (message.type === "state") failures = 0;
      followed = true;
      const state = JSON.parse(message.data) as StreamState;
      stateAt = state.version;
      on.state(state);
    };
    opened.addEventListener("snapshot", pushed);
    opened.addEventListener("state", pushed);
    // An `EventSource` would reconnect by itself with the URL it started with, whose ticket
    // is spent: it is closed at once, and opened again here with a new ticket.
    opened.onerror = () => {
      opened.close();
      if (signal.aborted) return;
      if (!ended && followed) {
        // a stream that ended after following (a server's shutdown, a newer stream of the
        // seat): opened again as an `EventSource` would, without asking for the table
        on.interrupted();
        return reopen();
      }
      if (!ended) return retry();
      // The game is over and every event is in; only its last state may be missing.
      if (stateAt < last) on.lost();
    };
  }

  void open();
}
