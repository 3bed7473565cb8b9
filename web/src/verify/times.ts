/**
 * The log's times (docs/protocol.md, "Times"): the texts a verifier accepts, their order, and
 * the clocks' milliseconds.
 */

const LOG_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?Z$/;

/** A log time: nanoseconds since 1970-01-01T00:00:00Z (for order) and `ms(t)` (for clocks). */
export interface LogTime {
  readonly ns: bigint;
  readonly ms: number;
}

const floorDiv = (a: bigint, b: bigint): bigint => (a >= 0n ? a / b : -((-a + b - 1n) / b));

/** Reads a log time, or null when the text is not one (or its date or time does not exist). */
export function parseLogTime(text: string): LogTime | null {
  const m = LOG_TIME.exec(text);
  if (m === null) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (year < 1 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  const fraction = (m[7] ?? ".").slice(1).padEnd(9, "0");
  const ns = BigInt(date.getTime()) * 1_000_000n + BigInt(fraction);
  return { ns, ms: Number(floorDiv(ns, 1_000_000n)) };
}

/** `text(ms)`: a millisecond instant with six digits of fraction, the last three zero. */
export function msText(ms: number): string {
  const iso = new Date(ms).toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
  return `${iso.slice(0, -1)}000Z`;
}
