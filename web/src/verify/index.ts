/**
 * The second verifier's public face: `verifyExport` and the report lines the command line and
 * the replay page show.
 */

export { verifyExport, type VerifyOptions } from "./verify";
export type { Caveat, Problem, Verdict } from "./verdict";
export { asKeyList, asReceipt, type KeyList, type Receipt } from "./receipts";

import type { Verdict } from "./verdict";

/** The report of one file: `FILE: ok` and a line per caveat, or `FILE: seq N CODE: message`. */
export function reportLines(file: string, verdict: Verdict): string[] {
  const p = verdict.problem;
  if (p !== null) return [`${file}: seq ${p.seq ?? "null"} ${p.code}: ${p.message}`];
  const lines = [`${file}: ok`];
  if (verdict.rederived === "not-checked") lines.push(`  caveat: rederived not-checked (no seed revealed: no draw or command was re-run)`);
  if (verdict.botMovesRederived > 0) lines.push(`  bot moves re-run: ${verdict.botMovesRederived} (random)`);
  for (const c of verdict.caveats) {
    const about = c.about === "" ? "" : ` ${c.about}`;
    const what = c.code === "bot-not-in-build" || c.code === "bot-version-not-in-build" ? " (not re-run, not verified)" : "";
    lines.push(`  caveat: ${c.code}${about}${what}, first at seq ${c.seq}, ${c.count} time${c.count === 1 ? "" : "s"}`);
  }
  return lines;
}
