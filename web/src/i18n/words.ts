/** Small rules of wording both languages share. */

/**
 * A seat's number as people count it, from 1 ("seat 1" is the API's seat 0). The API, the
 * log's records and the links (`/join/{id}/{seat}`) keep counting from 0.
 */
export const shownSeat = (seat: number): number => seat + 1;

/**
 * `label` with `aside` in parentheses, never nested: "Ada" and "you" give "Ada (you)", "Ada
 * (seat 2)" and "you" give "Ada (seat 2, you)", "red" and "Ada (you)" give "red (Ada, you)".
 */
export function withAside(label: string, aside: string): string {
  const flat = aside.replace(/ \(([^()]*)\)$/, ", $1");
  return label.endsWith(")") && label.includes(" (") ? `${label.slice(0, -1)}, ${flat})` : `${label} (${flat})`;
}
