/**
 * Format 3's canonical JSON (docs/protocol.md, "Canonical JSON"): RFC 8785 (JCS), written by
 * the npm package `canonicalize`. The reader (./json) keeps each number's token, so what JCS
 * cannot write is refused here first, as the Python verifier refuses it: an integer token
 * beyond ±(2^53 − 1) (JavaScript would round it), a float that is not finite, a string that
 * is not valid Unicode. Keys given twice and nesting are refused before (./read, the chain).
 */

import canonicalize from "canonicalize";
import { type JFloat, type JInt, JObject, type JValue, NotCanonicalisable, wellFormed } from "./json";

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

type JcsValue = null | boolean | string | number | JcsValue[] | { [key: string]: JcsValue };

/** A parsed value as the plain value JCS writes; objects without a prototype, so that no
 * key (`__proto__` among them) is anything but a member. */
function plain(value: JValue): JcsValue {
  if (value === null || typeof value === "boolean") return value;
  if (typeof value === "string") {
    if (!wellFormed(value)) throw new NotCanonicalisable("a string that is not valid Unicode");
    return value;
  }
  if (Array.isArray(value)) return (value as readonly JValue[]).map(plain);
  if (value instanceof JObject) {
    const out = Object.create(null) as { [key: string]: JcsValue };
    for (const key of value.keys()) {
      if (!wellFormed(key)) throw new NotCanonicalisable("a key that is not valid Unicode");
      out[key] = plain(value.get(key) ?? null);
    }
    return out;
  }
  const num = value as JInt | JFloat;
  if (num.kind === "int") {
    if (num.huge === true || num.value > SAFE || num.value < -SAFE) throw new NotCanonicalisable("an integer beyond ±(2^53 - 1)");
    return Number(num.value);
  }
  if (!Number.isFinite(num.value)) throw new NotCanonicalisable("a float out of range");
  return num.value;
}

/** The RFC 8785 text of a parsed value (its UTF-8 bytes are format 3's canonical bytes). */
export function jcsText(value: JValue): string {
  const text = canonicalize(plain(value));
  if (text === undefined) throw new NotCanonicalisable("nothing to write");
  return text;
}
