/**
 * `/replay/{id}`: step through every seq of a game, as a seat this browser holds or a spectator;
 * once the game is over, as any seat (`?as=`: its whole log is public then). A finished game's
 * export is verified in the browser by the second verifier (`src/verify/`, a bundle of its own
 * loaded only here), against the head hash the summary published and the receipts this
 * browser kept of the game (`receipts.ts`).
 */

import { api, auth, type GameEvent, problemText, type Summary, type View } from "./api/client";
import { fill, h } from "./dom";
import { drawLegend, drawTable, gameUi } from "./games/index";
import { narrate } from "./games/narrate";
import { langSwitch, T } from "./i18n/index";
import { icon } from "./icons";
import { namer, seatName } from "./names";
import { drawClocks } from "./play/clock";
import { gameOverWords } from "./play/texts";
import { ruleLink, rulesHref } from "./rules/links";
import { receiptsOf } from "./receipts";
import { tokensOf } from "./tokens";

type Verifier = typeof import("./verify/browser");

/** The verifier's bundle, next to this one (`verify.js`): only the replay page loads it. */
async function loadVerifier(): Promise<Verifier> {
  const module: unknown = await import(new URL("./verify.js", import.meta.url).href);
  return module as Verifier;
}

export async function replayPage(root: HTMLElement, gameId: string): Promise<void> {
  const tokens = tokensOf(gameId);
  const { data: summary, error } = await api.GET("/games/{game_id}", {
    params: { path: { game_id: gameId } },
  });
  if (summary === undefined) {
    fill(root, h("p", { class: "error", role: "alert" }, problemText(error)), h("a", { href: "/" }, T.lobby));
    return;
  }
  const game: Summary = summary;
  const ui = gameUi(game.game);
  document.title = T.replayDocTitle(ui?.title ?? game.game);

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
    "aria-label": T.replayStep,
  });
  const outcome = h("div", { class: "replay-outcome", "data-testid": "outcome" });
  const clocks = h("section", { class: "clocks", "data-testid": "clocks", hidden: true });
  const legend = h("div", { class: "legend-host" });
  const position = h("p", { class: "replay-seq", "data-testid": "replay-seq", "aria-live": "polite" });
  const eventLine = h("p", { class: "replay-event", "data-testid": "replay-event" });
  const viewer = h("select", { id: "viewer", "data-testid": "viewer-select" });
  const tableHost = h("div", { class: "table-host" });
  const problem = h("p", { class: "error", role: "alert" });
  // data-ok and data-seq are set when the verdict is in (the automation hooks wait for them).
  const verdict = h("p", { class: "verify-verdict", "data-testid": "verify-verdict", role: "status", hidden: !finished }, T.verifying);
  const download = h(
    "button",
    { type: "button", "data-testid": "export", disabled: !finished },
    T.download,
  );

  // In progress, only the seats whose tokens this browser holds; after the end, every seat.
  const viewers = finished
    ? Array.from({ length: game.players }, (_, s) => s)
    : [...tokens.keys()].sort((a, b) => a - b);
  fill(
    viewer,
    ...viewers.map((s) => h("option", { value: s, selected: s === seat }, seatName(s))),
    h("option", { value: "spectator", selected: seat === null }, T.spectator),
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
      h(
        "nav",
        {},
        h("a", { href: "/" }, T.lobby),
        " · ",
        h("a", { href: `/play/${gameId}` }, T.table),
        " · ",
        h("a", { href: rulesHref(game.game), "data-testid": "rules-link" }, T.rulesOfThisGame),
        " · ",
        langSwitch(),
      ),
      h("h1", {}, `${T.replay}: ${ui?.title ?? game.game} · `, h("code", { class: "game-id" }, gameId)),
      finished ? outcome : h("p", {}, T.replayInProgress),
      h("p", { class: "hash" }, T.headHash, h("code", { "data-testid": "head-hash" }, game.head_hash)),
      verdict,
      h("p", { class: "seat-bar" }, h("label", { for: "viewer" }, T.viewAs), viewer, " ", download),
      problem,
    ),
    h(
      "section",
      { class: "replay-controls", "aria-label": T.stepThrough },
      h("div", { class: "replay-buttons" },
        h("button", { type: "button", class: "icon-button", "data-testid": "replay-first", "aria-label": T.firstStep, onclick: () => step(0) }, icon("first")),
        h("button", { type: "button", class: "icon-button", "data-testid": "replay-prev", "aria-label": T.previousStep, onclick: () => step(seq - 1) }, icon("previous")),
        slider,
        h("button", { type: "button", class: "icon-button", "data-testid": "replay-next", "aria-label": T.nextStep, onclick: () => step(seq + 1) }, icon("next")),
        h("button", { type: "button", class: "icon-button", "data-testid": "replay-last", "aria-label": T.lastStep, onclick: () => step(game.version) }, icon("last")),
      ),
      position,
      eventLine,
    ),
    h("main", {}, clocks, tableHost, legend),
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
    position.textContent = T.replayStepOf(at, game.version);
    root.dataset["seq"] = String(at);
    if (view === undefined) {
      problem.textContent = problemText(failed);
      return;
    }
    problem.textContent = "";
    const event = events.get(at);
    const name = namer(game, seat);
    eventLine.textContent =
      at === 0 ? T.beforeFirst : event === undefined ? T.hiddenEvent : narrate(game.game, event, name);
    draw(view);
    drawClocks(clocks, view.clock, name, false);
    if (legend.childElementCount === 0) fill(legend, drawLegend(view));
    if (finished && at === game.version) drawOutcome(view);
  }

  /** The game over in words, from the last step's view, once (the header keeps it). */
  function drawOutcome(view: View): void {
    const words = gameOverWords(game, view, seat, namer(game, seat));
    fill(
      outcome,
      h("p", { class: "replay-headline", "data-testid": "outcome-headline" }, words.headline),
      words.why === null ? null : h("p", {}, words.why, words.section === undefined ? null : " ", words.section === undefined ? null : ruleLink(game.game, words.section)),
      words.figures === null ? null : h("p", {}, words.figures),
    );
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
        name: namer(game, seat),
        toggle: () => undefined,
        send: () => undefined,
      }),
    );
  }

  /** Fetches the export and verifies it here; the verdict in the header. */
  async function verify(): Promise<void> {
    const say = (ok: boolean, seq: number | null, words: string): void => {
      verdict.dataset["ok"] = String(ok);
      verdict.dataset["seq"] = seq === null ? "" : String(seq);
      verdict.classList.toggle("bad", !ok);
      verdict.textContent = words;
    };
    const { data } = await api.GET("/games/{game_id}/export", {
      params: { path: { game_id: gameId } },
      parseAs: "arrayBuffer",
    });
    if (data === undefined) {
      say(false, null, T.verifyUnavailable);
      return;
    }
    const { verifyExport } = await loadVerifier();
    const receipts = receiptsOf(gameId); // the server's signed word, kept by this browser
    verdict.dataset["receipts"] = String(receipts.length);
    const result = await verifyExport(new Uint8Array(data), { head: game.head_hash, receipts });
    if (result.problem === null) say(true, null, T.verifiedOk(result.botMovesNotRerun) + T.receiptsHeld(receipts.length));
    else say(false, result.problem.seq, T.verifyFailed(result.problem.seq, result.problem.code));
  }

  await loadEvents();
  await show();
  if (finished) await verify();
}
