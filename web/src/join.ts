/** `/join/{id}/{seat}`: claims an open seat with a display name, then goes to the table. */

import { api, problemText, type Summary } from "./api/client";
import { fill, h } from "./dom";
import { joinEntropy } from "./fairness";
import { gameUi } from "./games/index";
import { NAME_MAX } from "./generated/rules";
import { langSwitch, T } from "./i18n/index";
import { keepName, myName, seatKind, seatLine, seatName } from "./names";
import { sentAsPlayer } from "./player";
import { keepReceipt } from "./receipts";
import { chooseSeat, keepToken, tokensOf } from "./tokens";

/** A person's message for a refused join (the problem's code picks it). */
export function joinProblem(error: unknown, seat?: number): string {
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
  const which = seat === undefined ? T.thisSeat : T.seatCapital(seat);
  switch (code) {
    case "seat-taken":
      return T.seatTaken(which);
    case "no-open-seat":
      return T.noOpenSeat;
    case "game-over":
      return T.joinOver;
    case "seat-not-found":
      // "no seat 6" beside an address that says 5 (people count seats from 1) would puzzle
      return T.noSuchSeat(T.suchSeat);
    case "game-not-found":
      return T.noSuchGame;
    case "invalid-name":
      return T.badName(problemText(error));
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
  document.title = `${T.joinTitle(seat)} · spies`;
  const problem = h("p", { class: "error", role: "alert", "data-testid": "join-error" });
  const nav = h("nav", {}, h("a", { href: "/" }, T.lobby), " · ", h("a", { href: `/play/${gameId}` }, T.watchThisGame), " · ", langSwitch());
  const title = h("h1", {}, T.joinTitle(seat));
  fill(root, h("header", { class: "page-head" }, nav, title), problem);

  if (tokensOf(gameId).has(seat)) {
    root.append(h("p", {}, T.alreadyHeld, h("a", { href: `/play/${gameId}` }, T.goToTable)));
    return;
  }
  const { data: game, error } = await api.GET("/games/{game_id}", { params: { path: { game_id: gameId } } });
  if (game === undefined) {
    problem.textContent = joinProblem(error, seat);
    return;
  }
  const ui = gameUi(game.game);
  title.textContent = T.joinTitleOf(seat, ui?.title ?? game.game);
  const closed = closedReason(game, seat);
  if (closed !== null) {
    problem.textContent = closed;
    return;
  }

  const name = h("input", {
    type: "text",
    id: "join-name",
    required: true,
    maxlength: NAME_MAX,
    autocomplete: "nickname",
    value: myName(),
    "data-testid": "join-name",
  });
  const submit = h("button", { type: "submit", "data-testid": "join" }, T.takeSeat(seat));
  const others = game.seats
    .filter((s) => s.seat !== seat)
    .map((s) => h("li", {}, `${seatName(s.seat)}: ${seatLine(s)}`));
  const form = h(
    "form",
    { class: "create join", "aria-labelledby": "join-title" },
    h("h2", { id: "join-title" }, T.othersTitle(game.players)),
    h("ul", {}, ...others),
    h("label", { for: "join-name" }, T.joinName),
    name,
    submit,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const chosen = name.value.trim();
    if (chosen === "") {
      problem.textContent = T.typeName;
      name.focus();
      return;
    }
    submit.disabled = true;
    void (async () => {
      const { data, error: refused } = await sentAsPlayer((headers) =>
        api.POST("/games/{game_id}/seats/{seat}/join", { params: { path: { game_id: gameId, seat } }, body: { name: chosen, ...joinEntropy(game) }, headers }),
      );
      submit.disabled = false;
      if (data === undefined) {
        problem.textContent = joinProblem(refused, seat);
        return;
      }
      keepName(chosen);
      keepToken(gameId, data.seat, data.token);
      keepReceipt(data.receipt);
      chooseSeat(gameId, data.seat);
      location.assign(`/play/${gameId}`);
    })();
  });
  root.append(form);
  name.focus();
}
