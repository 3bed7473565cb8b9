/**
 * `/rules/{game}`: a game's players' rulebook, its numbered sections anchored (`#s-5.2`), a
 * box to jump to a section by number and a search over the sections. The rule files are
 * bundled: the rules in short in the page's language (`rules/en/`, `rules/de/`), with the
 * section numbers of the reference, then the full English reference (`docs/rules/*.md`, the
 * implementers'), whose sections a link reaches when the rulebook leaves them out. The
 * rulebooks' worked examples show their cards as the table draws them (`examples.ts`).
 */

import blackSpyEn from "../../../docs/rules/black-spy.md";
import deckEn from "../../../docs/rules/deck-of-spies.md";
import spiesEn from "../../../docs/rules/spies-and-lies.md";
import { fill, h } from "../dom";
import { gameUi } from "../games/index";
import { LANG, langSwitch, T } from "../i18n/index";
import blackSpyDe from "./de/black-spy.md";
import deckDe from "./de/deck-of-spies.md";
import spiesDe from "./de/spies-and-lies.md";
import blackSpyShort from "./en/black-spy.md";
import deckShort from "./en/deck-of-spies.md";
import spiesShort from "./en/spies-and-lies.md";
import { drawExample } from "./examples";
import { RULE_GAMES, rulesHref } from "./links";
import { renderMarkdown, type Section } from "./markdown";

const ENGLISH: Readonly<Record<string, string>> = {
  "deck-of-spies": deckEn,
  "black-spy": blackSpyEn,
  "spies-and-lies": spiesEn,
};
/** The players' rulebooks: the rules in short, in each language, with the reference's numbers. */
const SUMMARIES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  de: { "deck-of-spies": deckDe, "black-spy": blackSpyDe, "spies-and-lies": spiesDe },
  en: { "deck-of-spies": deckShort, "black-spy": blackSpyShort, "spies-and-lies": spiesShort },
};

function otherGames(game: string): HTMLElement {
  return h(
    "p",
    { class: "rules-other" },
    `${T.rulesOther}: `,
    ...RULE_GAMES.filter((g) => g !== game).flatMap((g, i) => [
      i > 0 ? " · " : null,
      h("a", { href: rulesHref(g) }, gameUi(g)?.title ?? g),
    ]),
  );
}

/** Scrolls to section `number` and focuses it; false when there is none. */
function jump(number: string): boolean {
  const wanted = number.replace(/^§\s*/, "").replace(/\.$/, "");
  // the players' rulebook's section, else the reference's (the rulebook leaves some out)
  const target = document.getElementById(`s-${wanted}`) ?? document.getElementById(`en-s-${wanted}`);
  if (target === null) return false;
  target.scrollIntoView();
  target.focus();
  return true;
}

export function rulesPage(root: HTMLElement, game: string): void {
  const english = ENGLISH[game];
  const title = gameUi(game)?.title ?? game;
  if (english === undefined) {
    document.title = T.notFound;
    fill(root, h("header", { class: "page-head" }, h("nav", {}, h("a", { href: "/" }, T.lobby), " ", langSwitch())), h("main", {}, h("h1", {}, T.notFound), h("p", {}, T.rulesUnknown), otherGames(game)));
    return;
  }
  document.title = `${T.rulesTitle(title)} · spies`;
  const summary = SUMMARIES[LANG]?.[game];
  // the worked examples' ```cards blocks are drawn with the table's cards
  const main = summary === undefined ? renderMarkdown(english) : renderMarkdown(summary, "", { cards: drawExample });
  const full = summary === undefined ? null : renderMarkdown(english, "en-");
  const sections: Section[] = [...main.sections, ...(full?.sections ?? [])];

  const number = h("input", { type: "text", id: "rules-section", inputmode: "decimal", size: 6, "data-testid": "rules-section" });
  const search = h("input", { type: "search", id: "rules-search", "data-testid": "rules-search" });
  const found = h("div", { class: "rules-found", "data-testid": "rules-found", "aria-live": "polite" });
  const jumpForm = h(
    "form",
    { class: "rules-jump", role: "search" },
    h("label", { for: "rules-section" }, `${T.rulesGoTo} §`),
    number,
    h("button", { type: "submit", "data-testid": "rules-go" }, T.rulesGo),
    h("label", { for: "rules-search" }, T.rulesSearch),
    search,
  );
  jumpForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const wanted = number.value.trim();
    if (wanted !== "" && !jump(wanted)) found.textContent = T.rulesNoSection(wanted);
    else found.textContent = "";
  });
  search.addEventListener("input", () => {
    const query = search.value.trim().toLowerCase();
    if (query.length < 2) {
      fill(found);
      return;
    }
    // A section matches when its own text (up to the next section) holds the words.
    const matches = sections.filter((section) => {
      const start = document.getElementById(section.id);
      let text = start?.textContent ?? "";
      for (let next = start?.nextElementSibling; next !== null && next !== undefined && next.id === ""; next = next.nextElementSibling) {
        text += ` ${next.textContent ?? ""}`;
      }
      return text.toLowerCase().includes(query);
    });
    fill(
      found,
      h("p", {}, T.rulesMatches(matches.length)),
      h("ul", {}, ...matches.slice(0, 30).map((s) => h("li", {}, h("a", { href: `#${s.id}` }, s.title)))),
    );
  });

  const contents = main.sections.filter((s) => s.level <= 3);
  fill(
    root,
    h(
      "header",
      { class: "page-head" },
      h("nav", {}, h("a", { href: "/" }, T.lobby), " · ", langSwitch()),
      h("h1", {}, T.rulesTitle(title)),
      otherGames(game),
      jumpForm,
      found,
    ),
    h(
      "main",
      { class: "rules", "data-testid": "rules" },
      summary === undefined ? null : h("p", { class: "rules-note", "data-testid": "rules-note" }, T.rulesSummaryNote),
      h(
        "nav",
        { class: "rules-contents", "aria-label": T.rulesContents },
        h("h2", {}, T.rulesContents),
        h("ul", {}, ...contents.map((s) => h("li", { class: `level-${s.level}` }, h("a", { href: `#${s.id}` }, s.title)))),
      ),
      h("article", { lang: summary === undefined ? "en" : LANG }, ...main.nodes),
      full === null ? null : h("article", { lang: "en", class: "rules-full" }, ...full.nodes),
    ),
  );
  if (location.hash.startsWith("#s-")) jump(location.hash.slice(3));
}
