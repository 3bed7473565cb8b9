/**
 * What the play page is drawn from, and the pure steps that change it. The page keeps one
 * {@link PlayState} and replaces it with the result of these functions; nothing here touches
 * the DOM or the network.
 */

import type { Command, GameEvent, Schemas, Summary, View } from "../api/client";
import { handKey } from "../games/index";
import type { StreamState } from "../stream";

export type BotInfo = Schemas["BotInfo"];

/** Why the page lost a seat it was given: a kept token or a seat link the server refused. */
export type LostSeat = { readonly reason: "refused"; readonly seat: number } | { readonly reason: "link" };

export interface PlayState {
  readonly gameId: string;
  /** The seat tokens this browser holds for the game, by seat. */
  readonly tokens: ReadonlyMap<number, string>;
  /** The seat this page plays; null for a spectator. */
  readonly seat: number | null;
  /**
   * The game's summary, view and the seat's legal commands. The summary's version, status and
   * seats to act are always the view's; its seats and outcome may be a later version's.
   */
  readonly summary: Summary | null;
  readonly view: View | null;
  /** The legal commands of the page's seat (empty for a spectator). */
  readonly legal: readonly Command[];
  /** Indices into the hand of the selected cards, in the order they were selected. */
  readonly selection: readonly number[];
  /** A command is on its way: the moves wait for its answer, then for the table it made. */
  readonly busy: boolean;
  /** The version an accepted command brought the game to, until the table shows it; else 0. */
  readonly awaited: number;
  /** The bots a seat can be handed to (`GET /bots`; empty until it answers). */
  readonly bots: readonly BotInfo[];
  /** The seat this page was given and lost (the server refused its token); null if none. */
  readonly lost: LostSeat | null;
}

/** A state whose table has been loaded at least once. */
export type LoadedState = PlayState & { readonly summary: Summary; readonly view: View };

/**
 * The state of a page just opened: the seat chosen last on this game's page if this browser
 * still holds it (or it was the spectator), else the lowest seat held, else a spectator.
 */
export function initialState(
  gameId: string,
  tokens: ReadonlyMap<number, string>,
  remembered: number | null | undefined,
  lost: LostSeat | null = null,
): PlayState {
  const seat =
    remembered !== undefined && (remembered === null || tokens.has(remembered))
      ? remembered
      : (heldSeats(tokens)[0] ?? null);
  return { gameId, tokens, seat, summary: null, view: null, legal: [], selection: [], busy: false, awaited: 0, bots: [], lost };
}

/** The seats whose tokens this browser holds, lowest first. */
export function heldSeats(tokens: ReadonlyMap<number, string>): number[] {
  return [...tokens.keys()].sort((a, b) => a - b);
}

/** The token of the page's seat; none for a spectator. */
export function seatToken(state: PlayState): string | undefined {
  return state.seat === null ? undefined : state.tokens.get(state.seat);
}

/** Whether the table has been loaded (so it can be drawn). */
export function isLoaded(state: PlayState): state is LoadedState {
  return state.summary !== null && state.view !== null;
}

/** The page plays another seat (or watches): the old seat's view and selection go. */
export function withSeat(state: PlayState, seat: number | null): PlayState {
  return { ...state, seat, view: null, selection: [] };
}

/** The server refused the token of the page's seat: the seat is forgotten, the page watches. */
export function withTokenRefused(state: PlayState): PlayState {
  if (state.seat === null) return state;
  const tokens = new Map(state.tokens);
  tokens.delete(state.seat);
  return { ...withSeat(state, null), tokens, lost: { reason: "refused", seat: state.seat } };
}

/**
 * The table at a new version. The selection stays while it points into the same cards
 * (another seat's move, a bot's pass in the same phase, leaves it as the person built it).
 */
export function withTable(state: PlayState, summary: Summary, view: View, legal: readonly Command[]): PlayState {
  const before = state.view;
  const sameHand = before !== null && before.seat === view.seat && handKey(before) === handKey(view);
  const arrived = state.awaited > 0 && view.version >= state.awaited;
  return {
    ...state,
    summary,
    view,
    legal,
    selection: sameHand ? state.selection : [],
    ...(arrived ? { busy: false, awaited: 0 } : {}),
  };
}

/**
 * The state a stream pushed (its `snapshot` or a `state`): the table at its version, the
 * summary's version, status and seats to act with it. A state of another seat's stream, or
 * one behind the table shown (a load made while the stream was down went further), changes
 * nothing.
 */
export function withPushed(state: PlayState, pushed: StreamState): PlayState {
  const summary = state.summary;
  if (summary === null || pushed.seat !== state.seat) return state;
  if (state.view !== null && pushed.view.version < state.view.version) return state;
  const { version, status, to_act } = pushed;
  return withTable(state, { ...summary, version, status, to_act }, pushed.view, pushed.legal ?? []);
}

/**
 * The summary asked for again (its seats or outcome changed). When it is at another version
 * than the table, its seats and outcome are taken and the table's version, status and seats to
 * act stay, so the page never mixes two versions in what it lets a person do.
 */
export function withSummary(state: PlayState, fresh: Summary): PlayState {
  const shown = state.summary;
  if (shown === null || state.view === null || fresh.version === state.view.version) return { ...state, summary: fresh };
  return { ...state, summary: { ...fresh, version: shown.version, status: shown.status, to_act: shown.to_act } };
}

/**
 * Whether an event changes what the summary says beyond what a pushed state brings (a seat
 * joined, claimed, handed to a bot or taken back; the game aborted).
 */
export function changesSummary(event: GameEvent): boolean {
  return event.type.startsWith("seat_") || event.type === "game_aborted";
}

/** A card of the hand selected, or unselected when it was. */
export function withCardToggled(state: PlayState, index: number): PlayState {
  const selection = state.selection.includes(index)
    ? state.selection.filter((i) => i !== index)
    : [...state.selection, index];
  return { ...state, selection };
}

/** A command is sent: the moves wait. */
export function withCommandSent(state: PlayState): PlayState {
  return { ...state, busy: true, awaited: 0 };
}

/**
 * The command's answer came, with the version it brought the game to (null: refused), and
 * the selection was used up. The moves are free again once the table shows that version
 * (the stream may bring it before or after the answer): never on the table before the move.
 */
export function withCommandAnswered(state: PlayState, version: number | null): PlayState {
  const shown = state.view?.version ?? 0;
  const waiting = version !== null && shown < version;
  return { ...state, busy: waiting, awaited: waiting ? version : 0, selection: [] };
}

/** The bots the server offers. */
export function withBots(state: PlayState, bots: readonly BotInfo[]): PlayState {
  return { ...state, bots };
}

/** The page's seat as the summary lists it; none for a spectator. */
export function ownSeat(state: LoadedState): Summary["seats"][number] | undefined {
  return state.summary.seats.find((s) => s.seat === state.seat);
}

/**
 * Whether the page can play now: a seat, no command on its way, the game going on and the
 * seat not handed to a bot.
 */
export function canAct(state: LoadedState): boolean {
  return (
    !state.busy &&
    state.seat !== null &&
    state.summary.status === "active" &&
    (ownSeat(state)?.bot ?? null) === null
  );
}
