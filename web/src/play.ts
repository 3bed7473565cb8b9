/** `/play/{id}`: a game's table, as the seat whose token this browser holds or a spectator. */

import {
  api,
  auth,
  type Command,
  type GameEvent,
  problemText,
  type Schemas,
  type Summary,
  type View,
} from "./api/client";
import { fill, h } from "./dom";
import { listWords, seatName } from "./games/common";
import { drawTable, gameUi, handKey } from "./games/index";
import { narrate } from "./games/narrate";
import { joinLink, seatKind, seatLabel } from "./names";
import { follow } from "./stream";
import { chooseSeat, chosenSeat, keepToken, tokensOf } from "./tokens";

type BotInfo = Schemas["BotInfo"];

/** "Game over (flag-captured): seat 1 (Grace) wins." */
export function outcomeText(summary: Summary): string {
  const outcome = summary.outcome;
  if (outcome === null) return "Game over.";
  const winners = outcome.winners.map((s) => seatLabel(summary, s));
  const who = outcome.draw
    ? "a draw"
    : winners.length === 0
      ? "no winner"
      : `${listWords(winners)} ${winners.length === 1 ? "wins" : "win"}`;
  return `Game over (${outcome.reason}): ${who}.`;
}

function statusText(summary: Summary, seat: number | null, held: ReadonlySet<number>): string {
  if (summary.status === "finished") return outcomeText(summary);
  const toAct = summary.to_act;
  const handed = summary.seats.find((s) => s.seat === seat)?.bot;
  if (seat !== null && toAct.includes(seat)) {
    return handed === null || handed === undefined
      ? `Your turn (${seatName(seat)}).`
      : `Bot ${handed} plays your turn (${seatName(seat)}).`;
  }
  const mine = toAct.filter((s) => held.has(s));
  const waiting = `Waiting for ${listWords(toAct.map((s) => seatLabel(summary, s)))}.`;
  return mine.length > 0
    ? `${waiting} You hold ${listWords(mine.map(seatName))}: switch seats to play.`
    : waiting;
}

/** Takes a `#token=` seat link: stores the token, then clears it from the address bar. */
async function adoptLinkToken(gameId: string): Promise<string | null> {
  const match = /(?:^#|&)token=([A-Za-z0-9_\-.~+/=]+)/.exec(location.hash);
  if (match === null) return null;
  history.replaceState(null, "", location.pathname + location.search);
  const token = match[1] ?? "";
  const { data, error } = await api.GET("/games/{game_id}/view", {
    params: { path: { game_id: gameId } },
    headers: auth(token),
  });
  if (data === undefined || data.seat === null || data.seat === undefined) {
    return `This seat link is not valid: ${problemText(error)}`;
  }
  keepToken(gameId, data.seat, token);
  chooseSeat(gameId, data.seat);
  return null;
}

export async function playPage(root: HTMLElement, gameId: string): Promise<void> {
  const linkProblem = await adoptLinkToken(gameId);
  let tokens = tokensOf(gameId);
  const remembered = chosenSeat(gameId);
  let seat: number | null =
    remembered !== undefined && (remembered === null || tokens.has(remembered))
      ? remembered
      : ([...tokens.keys()].sort((a, b) => a - b)[0] ?? null);

  let summary: Summary | null = null;
  let view: View | null = null;
  let legal: Command[] = [];
  let selection: number[] = [];
  let busy = false;
  let stream: AbortController | null = null;
  let bots: BotInfo[] = [];

  const title = h("h1", {}, "Game");
  const status = h("p", { class: "status", "data-testid": "status", role: "status" }, "Loading…");
  const alert = h("p", { class: "error", "data-testid": "error", role: "alert" }, linkProblem ?? "");
  const seatSelect = h("select", { id: "seat-select", "data-testid": "seat-select" });
  const outcome = h("section", { class: "outcome", "data-testid": "outcome", hidden: true });
  const tableHost = h("div", { class: "table-host" });
  const log = h("ol", {
    class: "log",
    "data-testid": "log",
    role: "log",
    "aria-live": "polite",
    "aria-label": "What happened",
  });
  const links = h("details", { class: "seat-links" });
  const seatsBox = h("section", { class: "seats-box", "aria-labelledby": "seats-title", "data-testid": "seats" });

  fill(
    root,
    h(
      "header",
      { class: "page-head" },
      h("nav", {}, h("a", { href: "/" }, "Lobby"), " · ", h("a", { href: `/replay/${gameId}` }, "Replay")),
      title,
      h("p", { class: "seat-bar" }, h("label", { for: "seat-select" }, "Play as "), seatSelect),
      status,
      alert,
    ),
    outcome,
    h(
      "main",
      { class: "play-main" },
      tableHost,
      h("aside", { class: "log-box" }, seatsBox, h("h2", {}, "Log"), log),
    ),
    links,
  );

  function drawSeats(): void {
    tokens = tokensOf(gameId);
    const seats = [...tokens.keys()].sort((a, b) => a - b);
    fill(
      seatSelect,
      ...seats.map((s) => h("option", { value: s, selected: s === seat }, seatName(s))),
      h("option", { value: "spectator", selected: seat === null }, "spectator"),
    );
    fill(
      links,
      h("summary", {}, "Private seat links (anyone with a link plays that seat)"),
      h(
        "ul",
        {},
        ...seats.map((s) => {
          const href = `${location.origin}/play/${gameId}#token=${tokens.get(s) ?? ""}`;
          return h("li", {}, `${seatName(s)}: `, h("input", { readonly: true, value: href, "aria-label": `link of ${seatName(s)}` }));
        }),
      ),
    );
    links.hidden = seats.length === 0;
  }

  function render(): void {
    if (summary === null || view === null) return;
    const ui = gameUi(summary.game);
    title.textContent = `${ui?.title ?? summary.game} · ${gameId}`;
    document.title = `${ui?.title ?? summary.game} · spies`;
    status.textContent = statusText(summary, seat, new Set(tokens.keys()));
    root.dataset["version"] = String(view.version);
    root.dataset["seat"] = view.seat === null || view.seat === undefined ? "spectator" : String(view.seat);
    root.dataset["busy"] = String(busy);
    root.dataset["gameStatus"] = summary.status;
    const mine = summary.seats.find((s) => s.seat === seat);
    const table = drawTable({
      view,
      summary,
      legal,
      selection,
      live: !busy && seat !== null && summary.status === "active" && (mine?.bot ?? null) === null,
      toggle(index) {
        selection = selection.includes(index)
          ? selection.filter((i) => i !== index)
          : [...selection, index];
        render();
      },
      send(command) {
        void send(command);
      },
    });
    const hadFocus = tableHost.contains(document.activeElement) || document.activeElement === document.body;
    fill(tableHost, table);
    if (focusKey !== null && hadFocus) keepFocus(focusKey);
    drawOutcome(summary);
    drawSeatsBox(summary);
  }

  /** The seats: who holds each, and for this page's seat the hand-over to a bot and back. */
  function drawSeatsBox(game: Summary): void {
    const hadFocus = seatsBox.contains(document.activeElement) ? document.activeElement?.getAttribute("data-testid") : null;
    const rows = game.seats.map((held) => {
      const own = tokens.has(held.seat);
      const controls: HTMLElement[] = [];
      if (held.type === "open" && game.status === "active") {
        controls.push(
          h("input", { readonly: true, value: joinLink(gameId, held.seat), "aria-label": `share link of ${seatName(held.seat)}`, "data-testid": `share-${held.seat}` }),
        );
      }
      if (own && held.seat === seat && game.status === "active") {
        if (held.bot === null || held.bot === undefined) {
          const choices = bots.filter((bot) => bot.games.includes(game.game));
          if (choices.length > 0) {
            const pick = h(
              "select",
              { "aria-label": "Bot to play my seat", "data-testid": "bot-select" },
              ...choices.map((bot) => h("option", { value: bot.name, title: bot.description }, bot.name)),
            );
            controls.push(
              h("label", {}, "Bot ", pick),
              h("button", { type: "button", "data-testid": "hand-to-bot", onclick: () => void handOver(held.seat, pick.value) }, "Let the bot play my seat"),
            );
          }
        } else {
          controls.push(h("button", { type: "button", "data-testid": "take-back", onclick: () => void takeBack(held.seat) }, "Take my seat back"));
        }
      }
      return h(
        "li",
        { "data-seat-row": held.seat, "data-seat-type": held.type ?? "creator", class: held.seat === seat ? "mine" : null },
        h("strong", {}, seatName(held.seat)),
        held.name === null || held.name === undefined ? null : ` ${held.name}`,
        h("span", { class: "seat-kind" }, ` (${seatKind(held)}${own ? ", yours" : ""})`),
        controls.length > 0 ? h("span", { class: "seat-controls" }, ...controls) : null,
      );
    });
    fill(seatsBox, h("h2", { id: "seats-title" }, "Seats"), h("ul", { class: "seat-rows" }, ...rows));
    if (hadFocus !== null && hadFocus !== undefined) {
      const again = seatsBox.querySelector<HTMLElement>(`[data-testid="${hadFocus}"]`) ??
        seatsBox.querySelector<HTMLElement>("[data-testid=hand-to-bot], [data-testid=take-back]");
      again?.focus();
    }
  }

  async function handOver(atSeat: number, bot: string): Promise<void> {
    alert.textContent = "";
    const { error } = await api.POST("/games/{game_id}/seats/{seat}/bot", {
      params: { path: { game_id: gameId, seat: atSeat } },
      headers: auth(tokens.get(atSeat)),
      body: { bot },
    });
    if (error !== undefined) alert.textContent = `Refused: ${problemText(error)}`;
    refresh();
  }

  async function takeBack(atSeat: number): Promise<void> {
    alert.textContent = "";
    const { error } = await api.DELETE("/games/{game_id}/seats/{seat}/bot", {
      params: { path: { game_id: gameId, seat: atSeat } },
      headers: auth(tokens.get(atSeat)),
    });
    if (error !== undefined) alert.textContent = `Refused: ${problemText(error)}`;
    refresh();
  }

  /** Every seat this browser holds moves to the next game (the first call creates it). */
  async function rematch(): Promise<void> {
    const held = [...tokens.entries()].sort(([a], [b]) => (a === seat ? -1 : b === seat ? 1 : a - b));
    let next: string | null = null;
    for (const [atSeat, token] of held) {
      const { data, error } = await api.POST("/games/{game_id}/rematch", {
        params: { path: { game_id: gameId } },
        headers: auth(token),
      });
      if (data === undefined) {
        alert.textContent = `No rematch for ${seatName(atSeat)}: ${problemText(error)}`;
        continue;
      }
      keepToken(data.id, data.seat, data.token);
      if (next === null) chooseSeat(data.id, data.seat);
      next = data.id;
    }
    if (next !== null) location.assign(`/play/${next}`);
  }

  // The table is drawn anew on every change: the focus goes back to the same control, or,
  // when the move that had it was played, to the first move now legal.
  let focusKey: string | null = null;
  tableHost.addEventListener("focusin", (event) => {
    const target = event.target;
    focusKey = target instanceof HTMLElement ? target.getAttribute("data-key") : null;
  });

  function keepFocus(key: string): void {
    const same = tableHost.querySelector<HTMLButtonElement>(`[data-key="${CSS.escape(key)}"]`);
    if (same !== null && !same.disabled) {
      same.focus();
    } else if (key.startsWith("command:") && !busy) {
      tableHost.querySelector<HTMLButtonElement>("[data-testid=command]:not(:disabled)")?.focus();
    }
  }

  function drawOutcome(game: Summary): void {
    outcome.hidden = game.status !== "finished";
    if (game.status !== "finished") return;
    const scores = game.outcome?.scores ?? [];
    const ui = gameUi(game.game);
    fill(
      outcome,
      h("h2", {}, outcomeText(game)),
      scores.length === 0
        ? null
        : h(
            "p",
            {},
            `Scores (${ui?.scoreLabel ?? "points"}): `,
            scores.map((score, s) => `${seatName(s)} ${score}`).join(", "),
          ),
      tokens.size > 0
        ? h(
            "p",
            {},
            h(
              "button",
              { type: "button", class: "rematch", "data-testid": "rematch", onclick: () => void rematch() },
              game.rematch === null || game.rematch === undefined ? "Rematch" : "Join the rematch",
            ),
          )
        : game.rematch === null || game.rematch === undefined
          ? null
          : h("p", {}, h("a", { href: `/play/${game.rematch}` }, "Watch the rematch")),
      h("p", {}, h("a", { href: `/replay/${gameId}` }, "Replay this game"), " · ", h("a", { href: "/" }, "Back to the lobby")),
    );
  }

  let wanted = 0;
  let loading = false;
  function refresh(): void {
    wanted += 1;
    if (!loading) void load();
  }

  async function load(): Promise<void> {
    loading = true;
    try {
      while (wanted > 0) {
        wanted = 0;
        const asSeat = seat;
        const token = asSeat === null ? undefined : tokens.get(asSeat);
        const path = { params: { path: { game_id: gameId } } };
        const [s, v, l] = await Promise.all([
          api.GET("/games/{game_id}", path),
          api.GET("/games/{game_id}/view", { ...path, headers: auth(token) }),
          token === undefined
            ? Promise.resolve(null)
            : api.GET("/games/{game_id}/legal", { ...path, headers: auth(token) }),
        ]);
        if (asSeat !== seat) continue; // the seat changed meanwhile: load again
        if (s.data === undefined || v.data === undefined) {
          alert.textContent = problemText(s.error ?? v.error);
          continue;
        }
        if (s.data.version !== v.data.version || (l?.data !== undefined && l.data.version !== v.data.version)) {
          wanted += 1; // a move landed between the three answers: ask again for one version
          continue;
        }
        if (view === null || view.seat !== v.data.seat || handKey(view) !== handKey(v.data)) selection = [];
        summary = s.data;
        view = v.data;
        legal = l?.data?.commands ?? [];
        render();
      }
    } finally {
      loading = false;
    }
  }

  /**
   * Sends a command chosen on the view at `view.version`. When the game moved meanwhile (a
   * bot's move in a simultaneous phase, a seat joined), the command is sent again at the new
   * version if it is still legal there; otherwise the person chooses again.
   */
  async function send(command: Command): Promise<void> {
    const token = seat === null ? undefined : tokens.get(seat);
    if (token === undefined || view === null) return;
    busy = true;
    alert.textContent = "";
    render();
    let version = view.version;
    let problem: string | null = null;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const { error } = await api.POST("/games/{game_id}/commands", {
        params: { path: { game_id: gameId }, header: { "Idempotency-Key": crypto.randomUUID() } },
        headers: auth(token),
        body: { command, expected_version: version },
      });
      if (error === undefined) {
        problem = null;
        break;
      }
      problem = `Refused: ${problemText(error)}`;
      if (error.code !== "version-conflict") break;
      const now = await api.GET("/games/{game_id}/legal", {
        params: { path: { game_id: gameId } },
        headers: auth(token),
      });
      const wanted = JSON.stringify(command);
      if (now.data === undefined || !now.data.commands.some((c) => JSON.stringify(c) === wanted)) {
        problem = "The table moved before your move arrived: choose again.";
        break;
      }
      version = now.data.version;
    }
    busy = false;
    if (problem !== null) alert.textContent = problem;
    selection = [];
    refresh();
  }

  function startStream(): void {
    stream?.abort();
    stream = new AbortController();
    log.replaceChildren();
    const token = seat === null ? undefined : tokens.get(seat);
    let kind = summary?.game;
    void follow(
      gameId,
      token,
      0,
      (events: GameEvent[]) => {
        for (const event of events) {
          if (event.type === "game_created") kind = event.game;
          const line = narrate(kind, event);
          log.append(h("li", { "data-seq": event.seq }, h("span", { class: "seq" }, `#${event.seq} `), line));
        }
        log.scrollTop = log.scrollHeight;
        refresh();
      },
      stream.signal,
    );
  }

  seatSelect.addEventListener("change", () => {
    seat = seatSelect.value === "spectator" ? null : Number(seatSelect.value);
    chooseSeat(gameId, seat);
    view = null;
    selection = [];
    refresh();
    startStream();
  });

  drawSeats();
  refresh();
  startStream();
  void api.GET("/bots").then(({ data }) => {
    bots = data?.bots ?? [];
    if (summary !== null) drawSeatsBox(summary);
  });
}
