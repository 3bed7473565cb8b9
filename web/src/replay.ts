/**
 * `/replay/{id}`: step through every seq of a game, as a seat this browser holds or a spectator;
 * once the game is over, as any seat (`?as=`: its whole log is public then).
 */

import { api, auth, type GameEvent, problemText, type Summary, type View } from "./api/client";
import { fill, h } from "./dom";
import { seatName } from "./games/common";
import { drawTable, gameUi } from "./games/index";
import { narrate } from "./games/narrate";
import { outcomeText } from "./play/texts";
import { tokensOf } from "./tokens";

export async function replayPage(root: HTMLElement, gameId: string): Promise<void> {
  const tokens = tokensOf(gameId);
  const { data: summary, error } = await api.GET("/games/{game_id}", {
    params: { path: { game_id: gameId } },
  });
  if (summary === undefined) {
    fill(root, h("p", { class: "error", role: "alert" }, problemText(error)), h("a", { href: "/" }, "Lobby"));
    return;
  }
  const game: Summary = summary;
  const ui = gameUi(game.game);
  document.title = `Replay · ${ui?.title ?? game.game}`;

  const finished = game.status === "finished";
  let seat: number | null = [...tokens.keys()].sort((a, b) => a - b)[0] ?? null;
  let seq = game.version;
  let events = new Map<number, GameEvent>();
  let wanted = 0;

  const slider = h("input", {
    type: "range",
    id: "replay-slider",
    min: 0,
    max: game.version,
    value: seq,
    "data-testid": "replay-slider",
    "aria-label": "Step",
  });
  const position = h("p", { class: "replay-seq", "data-testid": "replay-seq", "aria-live": "polite" });
  const eventLine = h("p", { class: "replay-event", "data-testid": "replay-event" });
  const viewer = h("select", { id: "viewer", "data-testid": "viewer-select" });
  const tableHost = h("div", { class: "table-host" });
  const problem = h("p", { class: "error", role: "alert" });
  const download = h(
    "button",
    { type: "button", "data-testid": "export", disabled: !finished },
    "Download the export (JSON Lines)",
  );

  // In progress, only the seats whose tokens this browser holds; after the end, every seat.
  const viewers = finished
    ? Array.from({ length: game.players }, (_, s) => s)
    : [...tokens.keys()].sort((a, b) => a - b);
  fill(
    viewer,
    ...viewers.map((s) => h("option", { value: s, selected: s === seat }, seatName(s))),
    h("option", { value: "spectator", selected: seat === null }, "spectator"),
  );

  const step = (to: number): void => {
    seq = Math.max(0, Math.min(game.version, to));
    slider.value = String(seq);
    void show();
  };

  fill(
    root,
    h(
      "header",
      { class: "page-head" },
      h("nav", {}, h("a", { href: "/" }, "Lobby"), " · ", h("a", { href: `/play/${gameId}` }, "Table")),
      h("h1", {}, `Replay: ${ui?.title ?? game.game} · ${gameId}`),
      h("p", {}, finished ? outcomeText(game) : "In progress: the replay shows what the chosen viewer may see."),
      h("p", { class: "hash" }, "Head hash: ", h("code", { "data-testid": "head-hash" }, game.head_hash)),
      h("p", { class: "seat-bar" }, h("label", { for: "viewer" }, "View as "), viewer, " ", download),
      problem,
    ),
    h(
      "section",
      { class: "replay-controls", "aria-label": "Step through the game" },
      h("button", { type: "button", "data-testid": "replay-first", "aria-label": "first step", onclick: () => step(0) }, "⏮"),
      h("button", { type: "button", "data-testid": "replay-prev", "aria-label": "previous step", onclick: () => step(seq - 1) }, "◀"),
      slider,
      h("button", { type: "button", "data-testid": "replay-next", "aria-label": "next step", onclick: () => step(seq + 1) }, "▶"),
      h("button", { type: "button", "data-testid": "replay-last", "aria-label": "last step", onclick: () => step(game.version) }, "⏭"),
      position,
      eventLine,
    ),
    h("main", {}, tableHost),
  );

  slider.addEventListener("input", () => step(Number(slider.value)));
  // Arrows, Home and End step through the game wherever the focus is, except in a control
  // that has its own use for them (the slider steps by itself, as a range input does).
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (target instanceof HTMLSelectElement || target instanceof HTMLInputElement) return;
    const moves: Record<string, number> = { ArrowLeft: seq - 1, ArrowRight: seq + 1, Home: 0, End: game.version };
    const to = moves[event.key];
    if (to !== undefined) {
      event.preventDefault();
      step(to);
    }
  });
  viewer.addEventListener("change", () => {
    seat = viewer.value === "spectator" ? null : Number(viewer.value);
    void loadEvents().then(show);
  });
  download.addEventListener("click", () => void save());

  async function save(): Promise<void> {
    const { data, error: failed } = await api.GET("/games/{game_id}/export", {
      params: { path: { game_id: gameId } },
      parseAs: "blob",
    });
    if (data === undefined) {
      problem.textContent = problemText(failed);
      return;
    }
    const link = h("a", { href: URL.createObjectURL(data), download: `${gameId}.jsonl` });
    document.body.append(link);
    link.click();
    link.remove();
  }

  function token(): string | undefined {
    return seat === null ? undefined : tokens.get(seat);
  }

  async function loadEvents(): Promise<void> {
    const { data } = await api.GET("/games/{game_id}/events", {
      params: { path: { game_id: gameId }, query: { after: 0 } },
      headers: auth(token()),
    });
    events = new Map((data?.events ?? []).map((event) => [event.seq, event]));
  }

  async function show(): Promise<void> {
    wanted += 1;
    const mine = wanted;
    const at = seq;
    const { data: view, error: failed } = await api.GET("/games/{game_id}/replay/{seq}", {
      params: { path: { game_id: gameId, seq: at }, query: finished && seat !== null ? { as: seat } : {} },
      headers: auth(token()),
    });
    if (mine !== wanted) return; // a later step is on its way
    position.textContent = `Step ${at} of ${game.version}`;
    root.dataset["seq"] = String(at);
    if (view === undefined) {
      problem.textContent = problemText(failed);
      return;
    }
    problem.textContent = "";
    const event = events.get(at);
    eventLine.textContent =
      at === 0 ? "Before the first event." : event === undefined ? "A hidden event." : narrate(game.game, event);
    draw(view);
  }

  function draw(view: View): void {
    fill(
      tableHost,
      drawTable({
        view,
        summary: game,
        legal: [],
        selection: [],
        live: false,
        toggle: () => undefined,
        send: () => undefined,
      }),
    );
  }

  await loadEvents();
  await show();
}
