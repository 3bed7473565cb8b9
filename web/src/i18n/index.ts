/**
 * The page's language: the one chosen with the switch (remembered in localStorage), else the
 * browser's first language we have (German or English), else English. Chosen once per page
 * load: the switch stores the choice and loads the page again.
 */

import { h } from "../dom";
import { de } from "./de";
import { en, type Texts } from "./en";

export type Lang = "en" | "de";

const KEY = "spies:lang";

function stored(): Lang | null {
  try {
    const value = localStorage.getItem(KEY);
    return value === "en" || value === "de" ? value : null;
  } catch {
    return null;
  }
}

/** The language of this page load. */
export function pickLang(): Lang {
  const chosen = stored();
  if (chosen !== null) return chosen;
  for (const language of navigator.languages ?? [navigator.language]) {
    const primary = language.toLowerCase().split("-")[0];
    if (primary === "de") return "de";
    if (primary === "en") return "en";
  }
  return "en";
}

export const LANG: Lang = pickLang();

/** Every player-facing string of the page, in its language. */
export const T: Texts = LANG === "de" ? de : en;

document.documentElement.lang = LANG;

/** The visible language switch: stores the other language and loads the page again. */
export function langSwitch(): HTMLElement {
  const other: Lang = LANG === "de" ? "en" : "de";
  return h(
    "button",
    {
      type: "button",
      class: "lang-switch",
      "data-testid": "lang-switch",
      lang: other,
      "aria-label": T.switchLabel,
      onclick: () => {
        localStorage.setItem(KEY, other);
        location.reload();
      },
    },
    T.switchTo,
  );
}

/** "a, b and c" ("a, b und c"). */
export function listWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${T.and} ${items[items.length - 1] ?? ""}`;
}
