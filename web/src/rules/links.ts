/** Links into the rule pages: `/rules/{game}#s-{section}`, and the section behind a refusal or an outcome. */

import { h } from "../dom";
import { T } from "../i18n/index";

/** The rule section that a refusal's code points at, per game. */
const PROBLEM_SECTIONS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "deck-of-spies": {
    "not-your-turn": "3",
    "illegal-command": "3",
    "card-not-in-hand": "4.1",
    "duplicate-card": "4.1",
    "insufficient-value": "4.2",
    "unnecessary-card": "4.2",
    "wrong-suit": "5.2",
    "must-assassinate": "3.2",
    "assassination-not-allowed": "6.1",
    "not-an-ace": "6.3",
    "ace-not-available": "6.3",
    "retire-single-card": "7.1",
    "retire-mixed-ranks": "7.2",
  },
  "black-spy": {
    "not-your-turn": "5.1",
    "illegal-command": "5.2",
    "card-not-in-hand": "5.1",
    "wrong-pass-count": "3.1",
    "already-passed": "3.1",
    "passing-not-over": "3.4",
    "must-follow": "5.2",
    "black-lead-first-trick": "4.3",
  },
  "spies-and-lies": {
    "not-your-turn": "5.3",
    "illegal-command": "5",
    "not-deploy-phase": "5.1",
    "wrong-soldier-count": "5.1",
    "duplicate-soldier": "5.1",
    "soldier-not-in-hand": "5.1",
    "deployment-out-of-order": "5.1",
    "deployment-not-completable": "5.1",
    "soldier-exhausted": "11.1",
    "not-intel-phase": "5.2",
    "no-sergeant-deployed": "5.2",
    "sergeant-choice-required": "5.2",
    "not-guess-step": "5.3",
    "no-deception-token": "10.4",
    "outside-deception-window": "10.4",
    "choice-not-offered": "9",
    "borrow-not-exhausted": "9.6",
  },
};

/** The rule section of each way a game ends (the outcome's `reason`). */
const OUTCOME_SECTIONS: Readonly<Record<string, string>> = {
  "owned-faces": "9.2",
  "no-ace-left": "9.3",
  "threshold-reached": "7",
  "flag-captured": "12.1",
  territory: "12.2",
  infiltration: "12.2",
};

/** The games that have a rule page. */
export const RULE_GAMES = ["deck-of-spies", "black-spy", "spies-and-lies"] as const;

export function rulesHref(game: string, section?: string): string {
  return `/rules/${encodeURIComponent(game)}${section === undefined ? "" : `#s-${section}`}`;
}

/** The section a refusal's code points at in `game`'s rules, if any. */
export function problemSection(game: string, code: string | undefined): string | undefined {
  return code === undefined ? undefined : PROBLEM_SECTIONS[game]?.[code];
}

/** The section of the rule that ended the game, if known. */
export function outcomeSection(reason: string): string | undefined {
  return OUTCOME_SECTIONS[reason];
}

/** "Rule §5.2", a link to it. */
export function ruleLink(game: string, section: string): HTMLAnchorElement {
  return h("a", { href: rulesHref(game, section), class: "rule-link", "data-testid": "rule-link" }, T.ruleLink(section));
}
