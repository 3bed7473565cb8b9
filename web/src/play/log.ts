/** The log: the game's events as lines, followed live from the event stream. */

import type { GameEvent } from "../api/client";
import { h } from "../dom";
import { narrate } from "../games/narrate";
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
function logLine(game: string | undefined, event: GameEvent): HTMLElement {
  return h("li", { "data-seq": event.seq }, h("span", { class: "seq" }, `#${event.seq} `), narrate(game, event));
}

/** A {@link LogFollower} writing into `log`; `changed` is called after each batch of events. */
export function logFollower(log: HTMLElement, gameId: string, changed: () => void): LogFollower {
  let stream: AbortController | null = null;
  return {
    restart(token, game) {
      stream?.abort();
      stream = new AbortController();
      log.replaceChildren();
      let kind = game;
      void follow(
        gameId,
        token,
        0,
        (events) => {
          for (const event of events) {
            if (event.type === "game_created") kind = event.game;
            log.append(logLine(kind, event));
          }
          log.scrollTop = log.scrollHeight;
          changed();
        },
        stream.signal,
      );
    },
  };
}
