/**
 * The live event stream of a game, read with fetch: an EventSource cannot send the seat's
 * `Authorization` header, and the API authenticates streams only by that header.
 */

import { api, auth, type GameEvent } from "./api/client";
import { FINAL_EVENT, RECONNECT_MS } from "./generated/rules";

/**
 * Parses server-sent events from text chunks: `id:` is the seq, `data:` one event, and
 * `retry:` how long to wait before reconnecting (the server's say, as an EventSource takes it).
 */
export class SseParser {
  private buffer = "";
  /** The last `retry:` of the stream, in milliseconds; none yet. */
  retry: number | null = null;

  /** The events completed by this chunk. */
  push(chunk: string): GameEvent[] {
    this.buffer += chunk;
    const events: GameEvent[] = [];
    const blocks = this.buffer.split(/\r\n\r\n|\n\n|\r\r/);
    this.buffer = blocks.pop() ?? "";
    for (const block of blocks) {
      const lines = block.split(/\r\n|\n|\r/);
      for (const line of lines) {
        const retry = /^retry: ?(\d+)$/.exec(line);
        if (retry !== null) this.retry = Number(retry[1]);
      }
      // a named event is not a game event: `reconnect` is a server's last word at its
      // shutdown, and the stream then ends (follow reconnects after the last seq)
      if (lines.some((line) => line.startsWith("event:") && line.slice(6).trim() !== "message")) continue;
      const data = lines
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).replace(/^ /, ""))
        .join("\n");
      // `data` is one event exactly as `GET /games/{id}/events` lists it (`StreamMessage`).
      if (data !== "") events.push(JSON.parse(data) as GameEvent);
    }
    return events;
  }
}

/**
 * Follows a game's events after `after` until the game's end or `signal` aborts,
 * reconnecting (after the last seq received) when the connection drops.
 */
export async function follow(
  gameId: string,
  token: string | undefined,
  after: number,
  onEvents: (events: GameEvent[]) => void,
  signal: AbortSignal,
): Promise<void> {
  let last = after;
  let wait: number = RECONNECT_MS;
  while (!signal.aborted) {
    try {
      const { response, data } = await api.GET("/games/{game_id}/events/stream", {
        params: { path: { game_id: gameId }, query: { after: last } },
        headers: auth(token),
        parseAs: "stream",
        signal,
      });
      if (response.status === 204) return;
      if (!response.ok || data === undefined || data === null) throw new Error(`stream ${response.status}`);
      const reader = data.pipeThrough(new TextDecoderStream()).getReader();
      const parser = new SseParser();
      let ended = false;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const events = parser.push(value);
        wait = parser.retry ?? wait;
        if (events.length > 0) {
          last = events[events.length - 1]?.seq ?? last;
          onEvents(events);
          ended = events.some((event) => event.type === FINAL_EVENT);
        }
      }
      if (ended) return;
    } catch (error) {
      if (signal.aborted) return;
      console.warn("event stream interrupted, reconnecting", error);
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
