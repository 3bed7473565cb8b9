/**
 * The server's signed receipts this browser was given, per game, in localStorage: every answer
 * that appends carries one (docs/api.md, "Receipts"). The replay page checks the game's export
 * against them, so a log rewritten before a receipt's seq fails verification here. A receipt's
 * head hash commits to every event before it, so the newest few are kept (bounded per game).
 */

import { asReceipt, type Receipt } from "./verify/receipts";

const PREFIX = "spies:receipts:";
/** The receipts kept per game: the newest ones (each covers the whole log up to its seq). */
const KEPT = 16;

/** The receipts this browser holds for `gameId`, oldest first. */
export function receiptsOf(gameId: string): Receipt[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(PREFIX + gameId) ?? "[]");
    if (!Array.isArray(parsed)) return [];
    return parsed.map(asReceipt).filter((r): r is Receipt => r !== null && r.game_id === gameId);
  } catch {
    return []; // a corrupted entry holds nothing
  }
}

/** Keeps a receipt an answer carried (none: nothing to keep). */
export function keepReceipt(receipt: unknown): void {
  const r = asReceipt(receipt);
  if (r === null) return;
  const held = receiptsOf(r.game_id).filter((k) => k.seq !== r.seq || k.head_hash !== r.head_hash);
  held.push(r);
  held.sort((a, b) => a.seq - b.seq);
  try {
    localStorage.setItem(PREFIX + r.game_id, JSON.stringify(held.slice(-KEPT)));
  } catch {
    // storage full or refused: the game plays on without keeping it
  }
}
