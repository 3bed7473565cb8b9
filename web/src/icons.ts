/** Icons drawn as inline SVG (never font glyphs, which the common fonts may lack). */

import { s } from "./dom";

const PATHS: Readonly<Record<string, string>> = {
  first: "M4 3h2.5v14H4zM17 3v14L7.5 10z",
  previous: "M15 3v14L5 10z",
  next: "M5 3v14l10-7z",
  last: "M13.5 3H16v14h-2.5zM3 3v14l9.5-7z",
};

/** The icon `name` (first, previous, next, last), sized by CSS, hidden from assistive tech. */
export function icon(name: keyof typeof PATHS & string): SVGElement {
  return s("svg", { viewBox: "0 0 20 20", class: "icon", "aria-hidden": "true", focusable: "false" }, s("path", { d: PATHS[name] ?? "", fill: "currentColor" }));
}
