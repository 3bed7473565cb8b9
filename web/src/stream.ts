/**
 * The live event stream of a game, read with fetch: an EventSource cannot send the seat's
 * `Authorization` header, and the API authenticates streams only by that header.
 */

import { api, auth, type GameEvent } from "./api/client";

/** Parses server-sent events from text chunks: `id:` is the seq, `data:` one event. */
export class SseParser {
  private buffer = "";

  /** The events completed by this chunk. */
  push(chunk: string): GameEvent[] {
    this.buffer += chunk;
    const events: GameEvent[] = [];
    const blocks = this.buffer.split(/\r\n\r\n|\n\n|\r\r/);
    this.buffer = blocks.pop() ?? "";
    for (const block of blocks) {
      const lines = block.split(/\r\n|\n|\r/);
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
        if (events.length > 0) {
          last = events[events.length - 1]?.seq ?? last;
          onEvents(events);
          ended = events.some((event) => event.type === "seed_revealed");
        }
      }
      if (ended) return;
    } catch (error) {
      if (signal.aborted) return;
      console.warn("event stream interrupted, reconnecting", error);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
