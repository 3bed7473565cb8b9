/**
 * Python's notions of text that format 1 leans on (docs/protocol.md, "Seeds and
 * commitments"; `game_aborted.detail`): `str.isprintable`, `str.isspace`, and whether bytes
 * "read as text".
 */

// str.isprintable is false for the categories Cc, Cf, Cs, Co, Cn, Zl, Zp and Zs, except the
// ASCII space.
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;
// str.isspace: category Zs, or the bidirectional classes WS, B and S (which regular
// expressions cannot name: these are the characters of those classes outside Zs).
const SPACE = /[\p{Zs}\t\n\v\f\r\x1c-\x1f\x85\u2028\u2029]/u;

/** Whether every character of a text is printable as Python's `str.isprintable` says. */
export function printable(text: string): boolean {
  for (const ch of text) if (ch !== " " && UNPRINTABLE.test(ch)) return false;
  return true;
}

const utf8Decoder = new TextDecoder("utf-8", { fatal: true });

/** The text of bytes that are valid UTF-8, or null. */
export function utf8Text(bytes: Uint8Array): string | null {
  try {
    return utf8Decoder.decode(bytes);
  } catch {
    return null;
  }
}

/** Whether bytes read as text: valid UTF-8, every character printable or white space. */
export function readsAsText(bytes: Uint8Array): boolean {
  const text = utf8Text(bytes);
  if (text === null) return false;
  for (const ch of text) if (!(ch === " " || !UNPRINTABLE.test(ch) || SPACE.test(ch))) return false;
  return true;
}
