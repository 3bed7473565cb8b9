/** `/`: the lobby: the games on this server, and a form to create one. */

import { api, type GameId, problemCode, problemText, type Schemas, type Summary } from "./api/client";
import { fill, h } from "./dom";
import type { OptionField } from "./games/common";
import { GAMES, gameUi } from "./games/index";
import { NAME_MAX } from "./generated/rules";
import { langSwitch, T } from "./i18n/index";
import { joinProblem } from "./join";
import { joinLink, keepName, myName, openSeats, seatKind, seatName } from "./names";
import { optionDefaults, rulesHref, seatCounts } from "./rules/links";
import { forgetPlayer, keepPlayer, playerToken, sentAsPlayer } from "./player";
import { fairDeal, type FairDeal, joinEntropy, keptCommitment } from "./fairness";
import { keepReceipt } from "./receipts";
import { chooseSeat, keepToken, tokensOf } from "./tokens";

/** An option's input, set to the server's default for `game`. */
function optionInput(game: GameId, field: OptionField): HTMLElement {
  const id = `option-${field.key}`;
  const option = optionDefaults(game)[field.key];
  const initial = option?.default;
  switch (field.kind) {
    case "flag":
      return h(
        "label",
        { class: "check" },
        h("input", { type: "checkbox", id, name: field.key, checked: initial === true }),
        ` ${field.label}`,
      );
    case "number":
      return h(
        "label",
        {},
        `${field.label} `,
        h("input", { type: "number", id, name: field.key, value: Number(initial), min: field.min, max: field.max }),
      );
    case "choice":
      return h(
        "label",
        {},
        `${field.label} `,
        h(
          "select",
          { id, name: field.key },
          ...(option?.choices ?? []).map((choice) => h("option", { value: choice, selected: choice === initial }, choice)),
        ),
      );
  }
}

/** What an option's input holds: a flag, a number or a choice. */
type OptionValue = boolean | number | string;

function readOption(form: HTMLFormElement, field: OptionField): OptionValue | undefined {
  const input = form.elements.namedItem(field.key);
  if (input instanceof HTMLInputElement) {
    return field.kind === "flag" ? input.checked : Number(input.value);
  }
  return input instanceof HTMLSelectElement ? input.value : undefined;
}

type BotInfo = Schemas["BotInfo"];
type CreateGameRequest = Schemas["CreateGameRequest"];
type SeatRequest = NonNullable<CreateGameRequest["seats"]>[number];

/** The choice of one seat in the form: "creator", "open" or "bot:NAME". */
function seatChoice(seat: number, bots: readonly BotInfo[], initial: string): HTMLElement {
  const id = `seat-type-${seat}`;
  return h(
    "label",
    { class: "seat-choice" },
    `${seatName(seat)} `,
    h(
      "select",
      { id, name: id, "data-testid": id },
      h("option", { value: "creator", selected: initial === "creator" }, T.seatMe),
      h("option", { value: "open", selected: initial === "open" }, T.seatOpen),
      ...bots.map((bot) =>
        h("option", { value: `bot:${bot.name}`, selected: initial === `bot:${bot.name}`, title: bot.description }, T.seatBot(bot.name)),
      ),
    ),
  );
}

/** The time control of the form's clock choice ("turn:30", "budget:5"), or none. */
function clockRequest(choice: string): { clock?: CreateGameRequest["clock"] } {
  const [kind, amount] = choice.split(":");
  const value = Number(amount);
  if (kind === "turn") return { clock: { turn_seconds: value } };
  if (kind === "budget") return { clock: { budget_seconds: value * 60, increment_seconds: 5 } };
  return {};
}

function seatRequest(choice: string, name: string | null): SeatRequest {
  if (choice === "open") return { type: "open" };
  if (choice.startsWith("bot:")) return { type: "bot", bot: choice.slice(4) };
  return { type: "creator", name };
}

/** After a creation with open seats: the links to share, and the way to the table. */
function created(host: HTMLElement, gameId: string, open: readonly number[], mine: boolean): void {
  fill(
    host,
    h("h2", { id: "created-title" }, T.gameCreated),
    h("p", {}, T.shareHint),
    h(
      "ul",
      { class: "share-links", "data-testid": "share-links" },
      ...open.map((seat) =>
        h(
          "li",
          {},
          h("label", { for: `share-${seat}` }, `${seatName(seat)} `),
          h("input", { id: `share-${seat}`, readonly: true, value: joinLink(gameId, seat), "data-testid": `share-${seat}` }),
        ),
      ),
    ),
    h("p", {}, h("a", { href: `/play/${gameId}`, "data-testid": "to-table" }, mine ? T.toTable : T.watchTable)),
  );
  host.hidden = false;
  host.querySelector("input")?.focus();
}

function createForm(
  nameInput: HTMLInputElement,
  bots: readonly BotInfo[],
  after: HTMLElement,
  onCreated: () => void,
): HTMLFormElement {
  const game = h("select", { id: "new-game", name: "game", "data-testid": "new-game" }, ...GAMES.map((g) => h("option", { value: g.id }, g.title)));
  const players = h("input", { type: "number", id: "new-players", name: "players", "data-testid": "new-players" });
  const options = h("fieldset", { class: "options" });
  const seats = h("fieldset", { class: "options seats", "data-testid": "seats" });
  const seed = h("input", { type: "text", id: "new-seed", name: "seed", placeholder: T.seedPlaceholder, "data-testid": "new-seed" });
  const clock = h(
    "select",
    { id: "new-clock", name: "clock", "data-testid": "new-clock" },
    h("option", { value: "" }, T.clockNone),
    h("option", { value: "turn:30" }, T.clockTurn(30)),
    h("option", { value: "turn:60" }, T.clockTurn(60)),
    h("option", { value: "budget:5" }, T.clockBudget(5)),
  );
  const fair = h("input", { type: "checkbox", id: "new-fair", name: "fair", checked: true, "data-testid": "new-fair" });
  const problem = h("p", { class: "error", role: "alert" });
  const form = h(
    "form",
    { class: "create", "aria-labelledby": "create-title" },
    h("h2", { id: "create-title" }, T.newGame),
    h("label", { for: "new-game" }, T.gameLabel),
    game,
    h("p", { class: "hint" }, h("a", { href: rulesHref(game.value), "data-testid": "lobby-rules" }, T.rulesOf(gameUi(game.value)?.title ?? game.value))),
    h("label", { for: "new-players" }, T.seatsLabel),
    players,
    options,
    seats,
    h("label", { for: "new-clock" }, T.clockLegend),
    clock,
    h("label", { for: "new-seed" }, T.seedLabel),
    seed,
    h("label", { class: "check" }, fair, ` ${T.fairLabel}`),
    h("p", { class: "hint" }, T.fairHint),
    h("p", { class: "hint" }, T.createHint),
    h("button", { type: "submit", "data-testid": "create" }, T.create),
    problem,
  );
  const gameBots = (): BotInfo[] => bots.filter((bot) => bot.games.includes(game.value));
  const showSeats = (): void => {
    const before = [...seats.querySelectorAll("select")].map((select) => select.value);
    const ui = gameUi(game.value);
    const counts = ui === undefined ? [] : seatCounts(ui.id);
    // The game's most seats bound the rows, whatever the box holds.
    const count = Math.max(0, Math.min(counts[counts.length - 1] ?? 0, Number(players.value) || 0));
    const choices = gameBots();
    const rows = Array.from({ length: count }, (_, seat) => seatChoice(seat, choices, before[seat] ?? "creator"));
    fill(seats, h("legend", {}, T.whoPlays), ...rows);
  };
  const showOptions = (): void => {
    const ui = gameUi(game.value);
    if (ui === undefined) return;
    const counts = seatCounts(ui.id);
    const fewest = String(counts[0] ?? 1);
    const most = String(counts[counts.length - 1] ?? 1);
    players.min = fewest;
    players.max = most;
    players.value = fewest;
    players.disabled = fewest === most;
    fill(options, h("legend", {}, T.options), ...ui.options.map((field) => optionInput(ui.id, field)));
    const rules = form.querySelector<HTMLAnchorElement>("[data-testid=lobby-rules]");
    if (rules !== null) {
      rules.href = rulesHref(ui.id);
      rules.textContent = T.rulesOf(ui.title);
    }
    fill(seats);
    showSeats();
  };
  game.addEventListener("change", showOptions);
  players.addEventListener("input", showSeats);
  showOptions();
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const ui = gameUi(game.value);
    if (ui === undefined) return;
    const chosen: Record<string, OptionValue | undefined> = {};
    for (const field of ui.options) chosen[field.key] = readOption(form, field);
    const name = nameInput.value.trim();
    if (name !== "") keepName(name);
    const seatRequests = [...seats.querySelectorAll("select")].map((select) => seatRequest(select.value, name === "" ? null : name));
    void (async () => {
      const typedSeed = seed.value.trim();
      problem.textContent = ""; // an earlier refusal no longer holds
      // A fair deal (fairness.ts): a commitment first, then this browser's randomness with
      // it. A typed seed is a reproducible game instead, so it goes without.
      let deal: FairDeal | null = null;
      if (fair.checked && typedSeed === "") {
        const asked = await fairDeal();
        if ("error" in asked) {
          problem.textContent = problemText(asked.error);
          return;
        }
        deal = asked.deal;
      }
      // The form is built from the game's option fields (games/*.ts), not from the game's
      // options schema, so the body is typed here as the request of its game; the server
      // checks every option (422 unknown-option, invalid-options).
      const body = {
        game: ui.id,
        players: Number(players.value),
        options: chosen,
        seats: seatRequests,
        seed: typedSeed === "" ? null : typedSeed,
        ...(deal === null ? {} : { commitment_id: deal.commitment_id, entropy: deal.entropy }),
        ...clockRequest(clock.value),
      } as unknown as CreateGameRequest;
      const { data, error } = await sentAsPlayer((headers) => api.POST("/games", { body, headers }));
      if (data === undefined) {
        problem.textContent = problemText(error);
        return;
      }
      keepReceipt(data.receipt);
      if (deal !== null && !(await commitmentKept(data.id, deal))) {
        problem.textContent = T.commitmentBroken;
        return;
      }
      let mine = false;
      for (const held of data.seats) {
        if (held.token === undefined) continue; // an open or a bot seat: no token to hold
        keepToken(data.id, held.seat, held.token);
        mine = true;
      }
      const open = data.seats.filter((held) => held.type === "open").map((held) => held.seat);
      if (open.length > 0) {
        created(after, data.id, open, mine);
        onCreated();
      } else {
        location.assign(`/play/${data.id}`);
      }
    })();
  });
  return form;
}

/** Whether the new game holds the seed the server committed to before it saw this browser's
 * randomness (its summary's `seed_commitment`); an unreadable summary proves nothing either way,
 * so it does not stop the game. */
async function commitmentKept(gameId: string, deal: FairDeal): Promise<boolean> {
  const { data } = await api.GET("/games/{game_id}", { params: { path: { game_id: gameId } } });
  return data === undefined || keptCommitment(deal, data.seed_commitment);
}

/** Takes the first open seat of a game with the name typed in the lobby, then plays it. */
async function joinFirst(game: Summary, nameInput: HTMLInputElement, problem: HTMLElement): Promise<void> {
  const gameId = game.id;
  const name = nameInput.value.trim();
  if (name === "") {
    problem.textContent = T.typeNameFirst;
    nameInput.focus();
    return;
  }
  keepName(name);
  const { data, error } = await sentAsPlayer((headers) =>
    api.POST("/games/{game_id}/join", { params: { path: { game_id: gameId } }, body: { name, ...joinEntropy(game) }, headers }),
  );
  if (data === undefined) {
    problem.textContent = joinProblem(error);
    return;
  }
  keepToken(gameId, data.seat, data.token);
  keepReceipt(data.receipt);
  chooseSeat(gameId, data.seat);
  location.assign(`/play/${gameId}`);
}

function openRow(game: Summary, nameInput: HTMLInputElement, problem: HTMLElement): HTMLElement {
  const title = gameUi(game.game)?.title ?? game.game;
  const open = openSeats(game);
  const holders = game.seats
    .filter((s) => s.type !== "open")
    .map((s) => `${seatName(s.seat)}: ${s.name ?? seatKind(s)}`);
  const rules = h("a", { href: rulesHref(game.game), class: "row-rules" }, T.rules);
  return h(
    "tr",
    { "data-open-game": game.id },
    h("td", {}, title, " ", rules),
    h("td", {}, h("code", { class: "game-id" }, game.id)),
    h("td", {}, holders.join(", ") || "-"),
    h(
      "td",
      {},
      ...open.flatMap((seat, i) => [i > 0 ? " " : null, h("a", { href: `/join/${game.id}/${seat}` }, T.joinSeat(seat))]),
    ),
    h(
      "td",
      {},
      h(
        "button",
        { type: "button", "data-testid": "join-first", onclick: () => void joinFirst(game, nameInput, problem) },
        T.joinFirst,
      ),
    ),
  );
}

async function listOpen(host: HTMLElement, nameInput: HTMLInputElement, problem: HTMLElement): Promise<void> {
  // The server lists newest first: the first page is the newest open games.
  const { data, error } = await api.GET("/games", { params: { query: { open: true } } });
  if (data === undefined) {
    fill(host, h("p", { class: "error", role: "alert" }, problemText(error)));
    return;
  }
  const games = data.games;
  fill(
    host,
    games.length === 0
      ? h("p", { class: "empty" }, T.noOpenGame)
      : h(
          "table",
          { class: "games", "data-testid": "open-games" },
          h("caption", {}, T.openCaption(data.total)),
          h("thead", {}, h("tr", {}, ...T.openHeads.map((c) => h("th", { scope: "col" }, c)))),
          h("tbody", {}, ...games.map((game) => openRow(game, nameInput, problem))),
        ),
  );
}

type PlayerGame = Schemas["PlayerGame"];

/** A seat of this browser's player, with the way back to it (its token, from the server). */
function myRow(game: PlayerGame): HTMLElement {
  const back = (): void => {
    keepToken(game.game_id, game.seat, game.seat_token);
    chooseSeat(game.game_id, game.seat);
  };
  return h(
    "tr",
    { "data-my-game": game.game_id },
    h("td", {}, gameUi(game.game)?.title ?? game.game),
    h("td", {}, h("code", { class: "game-id" }, game.game_id)),
    h("td", {}, seatName(game.seat)),
    h("td", {}, game.status === "finished" ? T.finished : T.toActList(game.to_act.join(", ") || "-")),
    h("td", {}, h("a", { href: `/play/${game.game_id}`, onclick: back, "data-testid": "back-to-seat" }, T.backToSeat)),
  );
}

/** "My games": this browser's player's seats, or the button that makes a player. */
async function listMine(host: HTMLElement, nameInput: HTMLInputElement): Promise<void> {
  const token = playerToken();
  if (token === null) {
    const problem = h("p", { class: "error", role: "alert" });
    const make = async (): Promise<void> => {
      const name = nameInput.value.trim();
      const { data, error } = await api.POST("/players", { body: name === "" ? {} : { display_name: name } });
      if (data === undefined) {
        problem.textContent = problemText(error);
        return;
      }
      keepPlayer(data.token);
      await listMine(host, nameInput);
    };
    fill(
      host,
      h("p", { class: "hint" }, T.keepMyGamesHint),
      h("button", { type: "button", "data-testid": "keep-my-games", onclick: () => void make() }, T.keepMyGames),
      problem,
    );
    return;
  }
  const { data, error } = await api.GET("/players/me/games", { headers: { Authorization: `Bearer ${token}` } });
  if (data === undefined) {
    if (problemCode(error) === "unknown-player") {
      forgetPlayer(); // a player of another database: offer to make one here
      await listMine(host, nameInput);
      return;
    }
    fill(host, h("p", { class: "error", role: "alert" }, problemText(error)));
    return;
  }
  fill(
    host,
    data.games.length === 0
      ? h("p", { class: "empty" }, T.noMyGame)
      : h(
          "table",
          { class: "games", "data-testid": "my-games" },
          h("thead", {}, h("tr", {}, ...T.myGamesHeads.map((c) => h("th", { scope: "col" }, c)))),
          h("tbody", {}, ...data.games.map(myRow)),
        ),
  );
}

function gameRow(game: Summary): HTMLElement {
  const held = tokensOf(game.id).size;
  const title = gameUi(game.game)?.title ?? game.game;
  return h(
    "tr",
    { "data-game": game.id },
    h("td", {}, title, " ", h("a", { href: rulesHref(game.game), class: "row-rules" }, T.rules)),
    h("td", {}, h("code", { class: "game-id" }, game.id)),
    h("td", {}, game.players),
    h("td", {}, game.status === "finished" ? T.finished : T.toActList(game.to_act.join(", ") || "-")),
    h("td", {}, game.version),
    h(
      "td",
      {},
      h("a", { href: `/play/${game.id}` }, game.status === "active" && held > 0 ? T.play : T.watch),
      " · ",
      h("a", { href: `/replay/${game.id}` }, T.replay),
    ),
  );
}

async function listGames(host: HTMLElement, status: string): Promise<void> {
  const filter: { status?: "active" | "finished" } =
    status === "active" || status === "finished" ? { status } : {};
  const { data, error } = await api.GET("/games", { params: { query: filter } });
  if (data === undefined) {
    fill(host, h("p", { class: "error", role: "alert" }, problemText(error)));
    return;
  }
  const games = data.games;
  fill(
    host,
    games.length === 0
      ? h("p", { class: "empty" }, T.noGame)
      : h(
          "table",
          { class: "games", "data-testid": "games" },
          h("caption", {}, T.gamesCaption(data.total)),
          h("thead", {}, h("tr", {}, ...T.gamesHeads.map((c) => h("th", { scope: "col" }, c)))),
          h("tbody", {}, ...games.map(gameRow)),
        ),
  );
}

export function lobbyPage(root: HTMLElement): void {
  document.title = T.lobbyTitle;
  const list = h("div", { class: "game-list" }, T.loading);
  const openList = h("div", { class: "game-list" }, T.loading);
  const mine = h("div", { class: "game-list", "data-testid": "my-games-box" }, T.loading);
  const joinAlert = h("p", { class: "error", role: "alert", "data-testid": "lobby-error" });
  const nameInput = h("input", {
    type: "text",
    id: "my-name",
    maxlength: NAME_MAX,
    autocomplete: "nickname",
    value: myName(),
    "data-testid": "my-name",
  });
  const after = h("section", { class: "created", "aria-labelledby": "created-title", "data-testid": "created", hidden: true });
  const status = h(
    "select",
    { id: "list-status", "aria-label": T.showGames },
    h("option", { value: "active" }, T.inProgress),
    h("option", { value: "finished" }, T.finished),
    h("option", { value: "all" }, T.allGames),
  );
  status.addEventListener("change", () => void listGames(list, status.value));
  const side = h("div", { class: "lobby-side" }, h("p", { class: "my-name" }, h("label", { for: "my-name" }, T.myName), nameInput), after);
  fill(
    root,
    h(
      "header",
      { class: "page-head" },
      h("nav", {}, langSwitch()),
      h("h1", {}, T.appName),
      h("p", {}, `${T.lobbyIntro} `, h("a", { href: "/schema" }, T.apiDocs)),
      h(
        "p",
        { class: "lobby-rules" },
        `${T.rules}: `,
        ...GAMES.flatMap((g, i) => [i > 0 ? " · " : null, h("a", { href: rulesHref(g.id) }, g.title)]),
      ),
    ),
    h(
      "main",
      { class: "lobby" },
      side,
      h(
        "div",
        { class: "lobby-lists" },
        h("section", { class: "list", "aria-labelledby": "mine-title" }, h("h2", { id: "mine-title" }, T.myGamesTitle), mine),
        h("section", { class: "list", "aria-labelledby": "open-title" }, h("h2", { id: "open-title" }, T.openSeatsTitle), joinAlert, openList),
        h("section", { class: "list", "aria-labelledby": "list-title" }, h("h2", { id: "list-title" }, T.gamesTitle), status, list),
      ),
    ),
  );
  void listGames(list, "active");
  void listOpen(openList, nameInput, joinAlert);
  void listMine(mine, nameInput);
  void (async () => {
    const { data } = await api.GET("/bots");
    const reload = (): void => {
      void listGames(list, status.value);
      void listOpen(openList, nameInput, joinAlert);
      void listMine(mine, nameInput);
    };
    side.insertBefore(createForm(nameInput, data?.bots ?? [], after, reload), after);
  })();
}
