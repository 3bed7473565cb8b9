/** The log: the game's events as lines, followed live from the event stream. */

import type { GameEvent } from "../api/client";
import { h } from "../dom";
import { narrate, quietInLog } from "../games/narrate";
import type { Namer } from "../names";
import { follow } from "../stream";

/** Follows a game's events into a log element, one stream at a time. */
export interface LogFollower {
  /**
   * Starts the log again from the first event, as the seat of `token` may see it (the one
   * stream before is closed). `game` is the game's id if already known: the stream's first
   * event says it too.
   */
  restart(token: string | undefined, game: string | undefined): void;
}

/** One line of the log. */
function logLine(game: string | undefined, event: GameEvent, name: Namer): HTMLElement {
  return h("li", { "data-seq": event.seq }, h("span", { class: "seq" }, `#${event.seq} `), narrate(game, event, name));
}

/**
 * A {@link LogFollower} writing into `log`; `changed` is called after each batch of events,
 * `names` gives the seats' names as the page knows them when a line is written.
 */
export function logFollower(
  log: HTMLElement,
  gameId: string,
  changed: () => void,
  names: (joined: ReadonlyMap<number, string>) => Namer,
): LogFollower {
  let stream: AbortController | null = null;
  return {
    restart(token, game) {
      stream?.abort();
      stream = new AbortController();
      log.replaceChildren();
      let kind = game;
      // Names taken in the stream itself, before the page's summary knows them.
      const joined = new Map<number, string>();
      void follow(
        gameId,
        token,
        0,
        (events) => {
          for (const event of events) {
            if (event.type === "game_created") kind = event.game;
            if (event.type === "seat_joined") joined.set(event.seat, event.name);
            const name = names(joined);
            if (!quietInLog(event)) log.append(logLine(kind, event, name));
          }
          log.scrollTop = log.scrollHeight;
          changed();
        },
        stream.signal,
      );
    },
  };
}
