/**
 * The seats' clocks: one per seat (`data-testid="clock"`, `data-seat`, `data-remaining-ms`),
 * counting down from what the server read when it answered (`remaining_ms`, running while the
 * seat has a `deadline`), with a warning style in the last ten seconds and the running seat
 * highlighted. Counted from the local monotonic clock since the answer, so a browser whose
 * wall clock is off still shows the server's time. A replay draws the clocks still.
 */

import type { Schemas } from "../api/client";
import { h, s } from "../dom";
import { T } from "../i18n/index";
import type { Namer } from "../names";

type ClockView = Schemas["ClockView"];

const LOW_MS = 10_000;

/** "4:05", "0:09.4" (tenths in the last ten seconds). */
export function clockText(ms: number): string {
  const clamped = Math.max(0, ms);
  const minutes = Math.floor(clamped / 60_000);
  const seconds = Math.floor((clamped % 60_000) / 1000);
  const base = `${minutes}:${String(seconds).padStart(2, "0")}`;
  return clamped < LOW_MS ? `${base}.${Math.floor((clamped % 1000) / 100)}` : base;
}

/** An hourglass, drawn (never a font glyph): shown beside a clock in its last ten seconds. */
function hourglass(): SVGElement {
  return s(
    "svg",
    { viewBox: "0 0 16 16", class: "clock-icon", "aria-hidden": "true" },
    s("path", { d: "M3 1h10v3l-3.5 4L13 12v3H3v-3l3.5-4L3 4z", fill: "none", stroke: "currentColor", "stroke-width": 1.6 }),
  );
}

interface Running {
  el: HTMLElement;
  time: HTMLElement;
  base: number;
  since: number;
}

let running: Running[] = [];
let ticker: number | null = null;

function paint(clock: Running, ms: number): void {
  const left = Math.max(0, Math.round(ms));
  clock.el.dataset["remainingMs"] = String(left);
  clock.time.textContent = clockText(left);
  const low = left < LOW_MS;
  clock.el.classList.toggle("low", low);
}

function tick(): void {
  const now = performance.now();
  for (const clock of running) paint(clock, clock.base - (now - clock.since));
}

/**
 * Draws `clock` into `host` (nothing when the game has no clock). `live`: the clocks with a
 * deadline run down; otherwise every clock shows what it had (a replay's step).
 */
export function drawClocks(host: HTMLElement, clock: ClockView | null | undefined, name: Namer, live: boolean): void {
  const seats = clock?.seats ?? [];
  host.hidden = seats.length === 0;
  running = [];
  const now = performance.now();
  const items = seats.map((seat) => {
    const runs = seat.deadline !== null && seat.deadline !== undefined;
    const time = h("span", { class: "clock-time" });
    const el = h(
      "li",
      {
        class: `clock${runs ? " running" : ""}`,
        "data-testid": "clock",
        "data-seat": seat.seat,
        "data-running": runs ? "true" : "false",
      },
      h("span", { class: "clock-name" }, name(seat.seat)),
      " ",
      hourglass(),
      time,
      runs ? h("span", { class: "clock-state" }, ` (${T.clockRunning})`) : null,
    );
    if (seat.remaining_ms === null || seat.remaining_ms === undefined) {
      time.textContent = T.clockNoLimit;
    } else {
      const entry = { el, time, base: seat.remaining_ms, since: now };
      paint(entry, seat.remaining_ms);
      if (runs && live) running.push(entry);
    }
    return el;
  });
  host.replaceChildren(...(items.length === 0 ? [] : [h("h2", { class: "clocks-title" }, T.clocks), h("ul", { class: "clock-list" }, ...items)]));
  if (running.length > 0 && ticker === null) ticker = window.setInterval(tick, 100);
  if (running.length === 0 && ticker !== null) {
    window.clearInterval(ticker);
    ticker = null;
  }
}
