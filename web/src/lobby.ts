/** `/`: the lobby: the games on this server, and a form to create one. */

import { api, problemText, type Summary } from "./api/client";
import { fill, h } from "./dom";
import type { OptionField } from "./games/common";
import { GAMES, gameUi } from "./games/index";
import { keepToken, tokensOf } from "./tokens";

const PAGE = 50;

function optionInput(field: OptionField): HTMLElement {
  const id = `option-${field.key}`;
  switch (field.kind) {
    case "flag":
      return h(
        "label",
        { class: "check" },
        h("input", { type: "checkbox", id, name: field.key, checked: field.initial }),
        ` ${field.label}`,
      );
    case "number":
      return h(
        "label",
        {},
        `${field.label} `,
        h("input", { type: "number", id, name: field.key, value: field.initial, min: field.min, max: field.max }),
      );
    case "choice":
      return h(
        "label",
        {},
        `${field.label} `,
        h(
          "select",
          { id, name: field.key },
          ...field.choices.map((choice) => h("option", { value: choice, selected: choice === field.initial }, choice)),
        ),
      );
  }
}

function readOption(form: HTMLFormElement, field: OptionField): unknown {
  const input = form.elements.namedItem(field.key);
  if (input instanceof HTMLInputElement) {
    return field.kind === "flag" ? input.checked : Number(input.value);
  }
  return input instanceof HTMLSelectElement ? input.value : undefined;
}

function createForm(): HTMLFormElement {
  const game = h("select", { id: "new-game", name: "game", "data-testid": "new-game" }, ...GAMES.map((g) => h("option", { value: g.id }, g.title)));
  const players = h("input", { type: "number", id: "new-players", name: "players", "data-testid": "new-players" });
  const options = h("fieldset", { class: "options" });
  const seed = h("input", { type: "text", id: "new-seed", name: "seed", placeholder: "optional: a reproducible game", "data-testid": "new-seed" });
  const problem = h("p", { class: "error", role: "alert" });
  const form = h(
    "form",
    { class: "create", "aria-labelledby": "create-title" },
    h("h2", { id: "create-title" }, "New game"),
    h("label", { for: "new-game" }, "Game "),
    game,
    h("label", { for: "new-players" }, " Seats "),
    players,
    options,
    h("label", { for: "new-seed" }, "Seed "),
    seed,
    h("p", { class: "hint" }, "You hold every seat's token; share a seat's private link from the game page."),
    h("button", { type: "submit", "data-testid": "create" }, "Create and play"),
    problem,
  );
  const showOptions = (): void => {
    const ui = gameUi(game.value);
    if (ui === undefined) return;
    players.min = String(ui.minPlayers);
    players.max = String(ui.maxPlayers);
    players.value = String(ui.minPlayers);
    players.disabled = ui.minPlayers === ui.maxPlayers;
    fill(options, h("legend", {}, "Options"), ...ui.options.map(optionInput));
  };
  game.addEventListener("change", showOptions);
  showOptions();
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const ui = gameUi(game.value);
    if (ui === undefined) return;
    const chosen: Record<string, unknown> = {};
    for (const field of ui.options) chosen[field.key] = readOption(form, field);
    void (async () => {
      const { data, error } = await api.POST("/games", {
        body: {
          game: ui.id,
          players: Number(players.value),
          options: chosen,
          seed: seed.value.trim() === "" ? null : seed.value.trim(),
        },
      });
      if (data === undefined) {
        problem.textContent = problemText(error);
        return;
      }
      for (const held of data.seats) keepToken(data.id, held.seat, held.token);
      location.assign(`/play/${data.id}`);
    })();
  });
  return form;
}

function gameRow(game: Summary): HTMLElement {
  const held = tokensOf(game.id).size;
  const title = gameUi(game.game)?.title ?? game.game;
  return h(
    "tr",
    { "data-game": game.id },
    h("td", {}, title),
    h("td", {}, h("code", {}, game.id)),
    h("td", {}, game.players),
    h("td", {}, game.status === "finished" ? "finished" : `to act: ${game.to_act.join(", ") || "-"}`),
    h("td", {}, game.version),
    h(
      "td",
      {},
      h("a", { href: `/play/${game.id}` }, game.status === "active" && held > 0 ? "Play" : "Watch"),
      " · ",
      h("a", { href: `/replay/${game.id}` }, "Replay"),
    ),
  );
}

async function listGames(host: HTMLElement, status: string): Promise<void> {
  const filter: { status?: "active" | "finished" } =
    status === "active" || status === "finished" ? { status } : {};
  const first = await api.GET("/games", { params: { query: { ...filter, limit: 1 } } });
  if (first.data === undefined) {
    fill(host, h("p", { class: "error", role: "alert" }, problemText(first.error)));
    return;
  }
  const offset = Math.max(0, first.data.total - PAGE);
  const { data, error } = await api.GET("/games", { params: { query: { ...filter, limit: PAGE, offset } } });
  if (data === undefined) {
    fill(host, h("p", { class: "error", role: "alert" }, problemText(error)));
    return;
  }
  const games = [...data.games].reverse();
  fill(
    host,
    games.length === 0
      ? h("p", { class: "empty" }, "No game yet.")
      : h(
          "table",
          { class: "games", "data-testid": "games" },
          h("caption", {}, `${data.total} game(s), newest first`),
          h("thead", {}, h("tr", {}, ...["Game", "Id", "Seats", "Status", "Version", ""].map((c) => h("th", {}, c)))),
          h("tbody", {}, ...games.map(gameRow)),
        ),
  );
}

export function lobbyPage(root: HTMLElement): void {
  document.title = "Spies: lobby";
  const list = h("div", { class: "game-list" }, "Loading…");
  const status = h(
    "select",
    { id: "list-status", "aria-label": "Show games" },
    h("option", { value: "all" }, "all games"),
    h("option", { value: "active" }, "in progress"),
    h("option", { value: "finished" }, "finished"),
  );
  status.addEventListener("change", () => void listGames(list, status.value));
  fill(
    root,
    h(
      "header",
      { class: "page-head" },
      h("h1", {}, "Spies"),
      h("p", {}, "Deck of Spies, Black Spy and Stratego Spies & Lies on one event-sourced engine. ", h("a", { href: "/schema" }, "API docs")),
    ),
    h(
      "main",
      { class: "lobby" },
      createForm(),
      h("section", { class: "list", "aria-labelledby": "list-title" }, h("h2", { id: "list-title" }, "Games"), status, list),
    ),
  );
  void listGames(list, "all");
}
