/** The log: the game's events as lines, written as the live stream brings them. */

import type { GameEvent } from "../api/client";
import { h } from "../dom";
import { narrate, quietInLog } from "../games/narrate";
import type { Namer } from "../names";

/** Writes a game's events into a log element, from its first event. */
export interface LogWriter {
  /** Empties the log (a new stream starts from the first event again). */
  clear(): void;
  /** Writes one event's line, if it has one. */
  write(event: GameEvent): void;
}

/** One line of the log. */
function logLine(game: string | undefined, event: GameEvent, name: Namer): HTMLElement {
  return h("li", { "data-seq": event.seq }, h("span", { class: "seq" }, `#${event.seq} `), narrate(game, event, name));
}

/**
 * A {@link LogWriter} writing into `log`; `game` is the game's id if already known (the first
 * event says it too), `names` gives the seats' names as the page knows them when a line is
 * written.
 */
export function logWriter(
  log: HTMLElement,
  game: () => string | undefined,
  names: (joined: ReadonlyMap<number, string>) => Namer,
): LogWriter {
  let kind: string | undefined;
  // Names taken in the stream itself, before the page's summary knows them.
  let joined = new Map<number, string>();
  // One scroll per frame: a stream's backlog arrives as hundreds of lines at once.
  let scrolling = false;
  const scroll = (): void => {
    scrolling = false;
    log.scrollTop = log.scrollHeight;
  };
  return {
    clear() {
      log.replaceChildren();
      kind = undefined;
      joined = new Map();
    },
    write(event) {
      if (event.type === "game_created") kind = event.game;
      if (event.type === "seat_joined") joined.set(event.seat, event.name);
      if (quietInLog(event)) return;
      log.append(logLine(kind ?? game(), event, names(joined)));
      if (!scrolling) {
        scrolling = true;
        requestAnimationFrame(scroll);
      }
    },
  };
}
