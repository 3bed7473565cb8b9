/** Links into the rule pages: `/rules/{game}#s-{section}`, and the section behind a refusal or an outcome. */

import type { GameId } from "../api/client";
import { h } from "../dom";
import { GAMES } from "../generated/rules";
import { T } from "../i18n/index";

/** What the server's sources say of each game (generated), keyed by every game id this client knows. */
const RULES: { readonly [G in GameId]: (typeof GAMES)[G] } = GAMES;

/** Sections by a refusal's code or an outcome's reason. */
type Sections = Readonly<Record<string, string | undefined>>;

function known(game: string): game is GameId {
  return Object.hasOwn(RULES, game);
}

/** The games that have a rule page: every game. */
export const RULE_GAMES: readonly GameId[] = Object.keys(RULES).filter(known);

/** The seat counts a game is played by, fewest first. */
export function seatCounts(game: GameId): readonly number[] {
  return RULES[game].seatCounts;
}

/** A game's options that a client may leave out: each one's default and, for a closed vocabulary, its values. */
export function optionDefaults(game: GameId): Readonly<Record<string, { readonly default: unknown; readonly choices?: readonly string[] }>> {
  return RULES[game].options;
}

export function rulesHref(game: string, section?: string): string {
  return `/rules/${encodeURIComponent(game)}${section === undefined ? "" : `#s-${section}`}`;
}

/** The section a refusal's code points at in `game`'s rules, if any. */
export function problemSection(game: string, code: string | undefined): string | undefined {
  if (code === undefined || !known(game)) return undefined;
  const refusals: Sections = RULES[game].refusals;
  return refusals[code];
}

/** The section of `game`'s rule that ended it (the outcome's `reason`), if there is one. */
export function outcomeSection(game: GameId, reason: string): string | undefined {
  const endings: Sections = RULES[game].endings;
  return endings[reason];
}

/** "Rule §5.2", a link to it. */
export function ruleLink(game: string, section: string): HTMLAnchorElement {
  return h("a", { href: rulesHref(game, section), class: "rule-link", "data-testid": "rule-link" }, T.ruleLink(section));
}
