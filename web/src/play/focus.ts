/**
 * The table is drawn anew on every change: the focus goes back to the same control, or,
 * when the move that had it was played, to the first move now legal. Controls are matched
 * by their `data-key` (see `games/common.ts`).
 */

import { fill } from "../dom";

/** Redraws a table host, keeping the focus: `(table, busy)` puts `table` in `host`. */
export type TableRedraw = (table: HTMLElement, busy: boolean) => void;

/** A {@link TableRedraw} for `host`, which from now on remembers the control last focused. */
export function focusKeepingRedraw(host: HTMLElement): TableRedraw {
  let focusKey: string | null = null;
  host.addEventListener("focusin", (event) => {
    const target = event.target;
    focusKey = target instanceof HTMLElement ? target.getAttribute("data-key") : null;
  });

  function refocus(key: string, busy: boolean): void {
    const same = host.querySelector<HTMLButtonElement>(`[data-key="${CSS.escape(key)}"]`);
    if (same !== null && !same.disabled) {
      same.focus();
    } else if (key.startsWith("command:") && !busy) {
      host.querySelector<HTMLButtonElement>("[data-testid=command]:not(:disabled)")?.focus();
    }
  }

  return (table, busy) => {
    // A control removed by a redraw leaves the focus on the body: it still counts as the table's.
    const hadFocus = host.contains(document.activeElement) || document.activeElement === document.body;
    fill(host, table);
    if (focusKey !== null && hadFocus) refocus(focusKey, busy);
  };
}
