/** `/join/{id}/{seat}`: claims an open seat with a display name, then goes to the table. */

import { api, problemText, type Summary } from "./api/client";
import { fill, h } from "./dom";
import { seatName } from "./games/common";
import { gameUi } from "./games/index";
import { keepName, myName, seatKind, seatLine } from "./names";
import { chooseSeat, keepToken, tokensOf } from "./tokens";

/** A person's message for a refused join (the problem's code picks it). */
export function joinProblem(error: unknown, seat?: number): string {
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
  const which = seat === undefined ? "This seat" : `Seat ${seat}`;
  switch (code) {
    case "seat-taken":
      return `${which} is taken: someone joined it first.`;
    case "no-open-seat":
      return "Every seat of this game is taken.";
    case "game-over":
      return "This game is over: its seats can no longer be joined.";
    case "seat-not-found":
      return `This game has no ${seat === undefined ? "such seat" : seatName(seat)}.`;
    case "game-not-found":
      return "There is no such game on this server.";
    case "invalid-name":
      return `That name cannot be used: ${problemText(error)}`;
    default:
      return problemText(error);
  }
}

/** Why a seat cannot be joined as the game stands, or null when it can. */
function closedReason(game: Summary, seat: number): string | null {
  if (game.status === "finished") return joinProblem({ code: "game-over" }, seat);
  const held = game.seats.find((s) => s.seat === seat);
  if (held === undefined) return joinProblem({ code: "seat-not-found" }, seat);
  if (held.type !== "open") return `${joinProblem({ code: "seat-taken" }, seat)} (${held.name ?? seatKind(held)})`;
  return null;
}

export async function joinPage(root: HTMLElement, gameId: string, seat: number): Promise<void> {
  document.title = `Join ${seatName(seat)} · spies`;
  const problem = h("p", { class: "error", role: "alert", "data-testid": "join-error" });
  const nav = h("nav", {}, h("a", { href: "/" }, "Lobby"), " · ", h("a", { href: `/play/${gameId}` }, "Watch this game"));
  const title = h("h1", {}, `Join ${seatName(seat)}`);
  fill(root, h("header", { class: "page-head" }, nav, title), problem);

  if (tokensOf(gameId).has(seat)) {
    root.append(h("p", {}, "You already hold this seat. ", h("a", { href: `/play/${gameId}` }, "Go to the table")));
    return;
  }
  const { data: game, error } = await api.GET("/games/{game_id}", { params: { path: { game_id: gameId } } });
  if (game === undefined) {
    problem.textContent = joinProblem(error, seat);
    return;
  }
  const ui = gameUi(game.game);
  title.textContent = `Join ${seatName(seat)} of ${ui?.title ?? game.game}`;
  const closed = closedReason(game, seat);
  if (closed !== null) {
    problem.textContent = closed;
    return;
  }

  const name = h("input", {
    type: "text",
    id: "join-name",
    required: true,
    maxlength: 40,
    autocomplete: "nickname",
    value: myName(),
    "data-testid": "join-name",
  });
  const submit = h("button", { type: "submit", "data-testid": "join" }, `Take ${seatName(seat)}`);
  const others = game.seats
    .filter((s) => s.seat !== seat)
    .map((s) => h("li", {}, `${seatName(s.seat)}: ${seatLine(s)}`));
  const form = h(
    "form",
    { class: "create join", "aria-labelledby": "join-title" },
    h("h2", { id: "join-title" }, `${game.players} seat(s); the others:`),
    h("ul", {}, ...others),
    h("label", { for: "join-name" }, "Your display name (shown to the other players)"),
    name,
    submit,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const chosen = name.value.trim();
    if (chosen === "") {
      problem.textContent = "Type a display name first.";
      name.focus();
      return;
    }
    submit.disabled = true;
    void (async () => {
      const { data, error: refused } = await api.POST("/games/{game_id}/seats/{seat}/join", {
        params: { path: { game_id: gameId, seat } },
        body: { name: chosen },
      });
      submit.disabled = false;
      if (data === undefined) {
        problem.textContent = joinProblem(refused, seat);
        return;
      }
      keepName(chosen);
      keepToken(gameId, data.seat, data.token);
      chooseSeat(gameId, data.seat);
      location.assign(`/play/${gameId}`);
    })();
  });
  root.append(form);
  name.focus();
}
