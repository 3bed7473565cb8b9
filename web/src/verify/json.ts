/**
 * JSON as format 1 needs it (docs/protocol.md, "Canonical JSON"): a reader that keeps each
 * number's kind (integer or float, by its token), reports keys given twice, refuses unpaired
 * surrogates and measures nesting; and the canonical writer of the chain's bytes.
 */

/** An integer token, kept exactly. */
export interface JInt {
  readonly kind: "int";
  readonly value: bigint;
  /** More than 4300 digits: kept as a mark only (it cannot be canonicalised). */
  readonly huge?: true;
}

/** A float token, rounded to the nearest double (may be infinite: not canonicalisable). */
export interface JFloat {
  readonly kind: "float";
  readonly value: number;
}

/** An object: its members, the last occurrence of a key given twice winning (in place of the first). */
export class JObject {
  readonly members: ReadonlyMap<string, JValue>;
  constructor(members: ReadonlyMap<string, JValue>) {
    this.members = members;
  }
  get(key: string): JValue | undefined {
    return this.members.get(key);
  }
  has(key: string): boolean {
    return this.members.has(key);
  }
  keys(): string[] {
    return [...this.members.keys()];
  }
}

export type JValue = null | boolean | string | JInt | JFloat | readonly JValue[] | JObject;

/** Whether a parsed value is a number (of either kind). */
export function isNumber(value: JValue | undefined): value is JInt | JFloat {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof JObject);
}

/** What reading one JSON text found besides its value. */
export interface Parsed {
  readonly value: JValue;
  /** A key given twice in one object, at any depth. */
  readonly duplicateKey: boolean;
  /** The deepest nesting of arrays and objects (the outermost one is level 1). */
  readonly depth: number;
}

export class JsonSyntaxError extends Error {}

const MAX_INT_DIGITS = 4300;
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
// A lone surrogate: in a "u" regular expression a surrogate range matches only unpaired ones.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** Whether a string is valid Unicode (no unpaired surrogate). */
export function wellFormed(s: string): boolean {
  return !LONE_SURROGATE.test(s);
}

/** The deepest nesting of a JSON text's arrays and objects, measured before parsing it. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return deepest;
}

/**
 * Parses one JSON text (RFC 8259), keeping every number's kind.
 *
 * @throws JsonSyntaxError on anything that is not JSON, or a string that is not valid
 *   Unicode (an unpaired surrogate, raw or escaped).
 */
export function parseJson(text: string, maxDepth = Number.POSITIVE_INFINITY): Parsed {
  let pos = 0;
  let duplicateKey = false;
  let deepest = 0;

  const fail = (what: string): never => {
    throw new JsonSyntaxError(`${what} at character ${pos}`);
  };
  const skipWhite = (): void => {
    while (pos < text.length) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) pos++;
      else break;
    }
  };
  const expectWord = (word: string): void => {
    if (text.startsWith(word, pos)) pos += word.length;
    else fail("unexpected token");
  };

  const readString = (): string => {
    pos++; // the opening quote
    let out = "";
    let start = pos;
    for (;;) {
      if (pos >= text.length) fail("unterminated string");
      const c = text.charCodeAt(pos);
      if (c === 0x22) {
        out += text.slice(start, pos);
        pos++;
        break;
      }
      if (c < 0x20) fail("control character in string");
      if (c === 0x5c) {
        out += text.slice(start, pos);
        pos++;
        const e = text[pos];
        pos++;
        switch (e) {
          case '"':
            out += '"';
            break;
          case "\\":
            out += "\\";
            break;
          case "/":
            out += "/";
            break;
          case "b":
            out += "\b";
            break;
          case "f":
            out += "\f";
            break;
          case "n":
            out += "\n";
            break;
          case "r":
            out += "\r";
            break;
          case "t":
            out += "\t";
            break;
          case "u": {
            const hex = text.slice(pos, pos + 4);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("bad \\u escape");
            out += String.fromCharCode(Number.parseInt(hex, 16));
            pos += 4;
            break;
          }
          default:
            fail("bad escape");
        }
        start = pos;
      } else {
        pos++;
      }
    }
    if (!wellFormed(out)) fail("unpaired surrogate in string");
    return out;
  };

  const readNumber = (): JInt | JFloat => {
    NUMBER.lastIndex = pos;
    const m = NUMBER.exec(text);
    if (m === null) return fail("bad number");
    const token = m[0];
    pos += token.length;
    if (m[1] === undefined && m[2] === undefined) {
      if (token.replace("-", "").length > MAX_INT_DIGITS) {
        return { kind: "int", value: 0n, huge: true };
      }
      return { kind: "int", value: BigInt(token) };
    }
    return { kind: "float", value: Number(token) };
  };

  const readValue = (depth: number): JValue => {
    skipWhite();
    if (pos >= text.length) fail("unexpected end");
    const c = text[pos];
    if (c === "{" || c === "[") {
      if (depth + 1 > deepest) deepest = depth + 1;
      if (deepest > maxDepth) fail("nested too deep");
    }
    if (c === "{") {
      pos++;
      const members = new Map<string, JValue>();
      skipWhite();
      if (text[pos] === "}") {
        pos++;
        return new JObject(members);
      }
      for (;;) {
        skipWhite();
        if (text[pos] !== '"') fail("expected a key");
        const key = readString();
        skipWhite();
        if (text[pos] !== ":") fail("expected ':'");
        pos++;
        const value = readValue(depth + 1);
        if (members.has(key)) {
          duplicateKey = true;
          members.delete(key);
        }
        members.set(key, value);
        skipWhite();
        if (text[pos] === ",") {
          pos++;
          continue;
        }
        if (text[pos] === "}") {
          pos++;
          return new JObject(members);
        }
        fail("expected ',' or '}'");
      }
    }
    if (c === "[") {
      pos++;
      const items: JValue[] = [];
      skipWhite();
      if (text[pos] === "]") {
        pos++;
        return items;
      }
      for (;;) {
        items.push(readValue(depth + 1));
        skipWhite();
        if (text[pos] === ",") {
          pos++;
          continue;
        }
        if (text[pos] === "]") {
          pos++;
          return items;
        }
        fail("expected ',' or ']'");
      }
    }
    if (c === '"') return readString();
    if (c === "t") {
      expectWord("true");
      return true;
    }
    if (c === "f") {
      expectWord("false");
      return false;
    }
    if (c === "n") {
      expectWord("null");
      return null;
    }
    return readNumber();
  };

  const value = readValue(0);
  skipWhite();
  if (pos !== text.length) fail("trailing text");
  return { value, duplicateKey, depth: deepest };
}

/** Why a value cannot be canonicalised. */
export class NotCanonicalisable extends Error {}

/** Compares two strings by their code points (the order of their UTF-8 bytes). */
export function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const p = x[i]?.codePointAt(0) ?? 0;
    const q = y[i]?.codePointAt(0) ?? 0;
    if (p !== q) return p - q;
  }
  return x.length - y.length;
}

/** A float's canonical text (docs/protocol.md, "Canonical JSON", float). */
export function floatText(x: number): string {
  if (!Number.isFinite(x)) throw new NotCanonicalisable("a float out of range");
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  // toExponential() without digits gives the shortest digits that round-trip (as repr).
  const [mantissa = "", exponent = "0"] = Math.abs(x).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const n = digits.length;
  const kk = Number(exponent) + 1;
  const k = kk - n;
  let body: string;
  if (k >= 0 && kk <= 16) body = `${digits}${"0".repeat(k)}.0`;
  else if (kk > 0 && kk <= 16) body = `${digits.slice(0, kk)}.${digits.slice(kk)}`;
  else if (kk > -5 && kk <= 0) body = `0.${"0".repeat(-kk)}${digits}`;
  else body = `${digits[0] ?? ""}${n > 1 ? `.${digits.slice(1)}` : ""}e${kk - 1}`;
  return sign + body;
}

function stringText(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (c === 0x08) out += "\\b";
    else if (c === 0x09) out += "\\t";
    else if (c === 0x0a) out += "\\n";
    else if (c === 0x0c) out += "\\f";
    else if (c === 0x0d) out += "\\r";
    else if (c < 0x20) out += `\\u00${c.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}

/** The canonical text of a parsed value (its UTF-8 bytes are the canonical bytes). */
export function canonicalText(value: JValue): string {
  if (value === null) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "string") {
    if (!wellFormed(value)) throw new NotCanonicalisable("a string that is not valid Unicode");
    return stringText(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalText).join(",")}]`;
  if (value instanceof JObject) {
    const keys = value.keys().sort(compareCodePoints);
    return `{${keys.map((k) => `${stringText(k)}:${canonicalText(value.get(k) ?? null)}`).join(",")}}`;
  }
  const num = value as JInt | JFloat;
  if (num.kind === "int") {
    if (num.huge === true) throw new NotCanonicalisable("an integer of more than 4300 digits");
    return num.value.toString();
  }
  return floatText(num.value);
}

/** A plain JavaScript value as the engine would write it: whole numbers are integers. */
export type Plain = null | boolean | string | number | readonly Plain[] | { readonly [key: string]: Plain };

/** Converts a plain value (the rules' events) into the parsed form. */
export function fromPlain(value: Plain): JValue {
  if (value === null || typeof value === "boolean" || typeof value === "string") return value;
  if (typeof value === "number") {
    return Number.isInteger(value) ? { kind: "int", value: BigInt(value) } : { kind: "float", value };
  }
  if (Array.isArray(value)) return (value as readonly Plain[]).map(fromPlain);
  const members = new Map<string, JValue>();
  for (const [k, v] of Object.entries(value as { readonly [key: string]: Plain })) members.set(k, fromPlain(v));
  return new JObject(members);
}

/** The nesting of a parsed value's arrays and objects (a scalar is 0). */
export function depthOf(value: JValue): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...(value as readonly JValue[]).map(depthOf));
  if (value instanceof JObject) return 1 + Math.max(0, ...value.keys().map((k) => depthOf(value.get(k) ?? null)));
  return 0;
}

/** Converts a parsed value into a plain one (integers as numbers; exact within 2^53). */
export function toPlain(value: JValue): Plain {
  if (value === null || typeof value === "boolean" || typeof value === "string") return value;
  if (Array.isArray(value)) return (value as readonly JValue[]).map(toPlain);
  if (value instanceof JObject) {
    const out: { [key: string]: Plain } = {};
    for (const k of value.keys()) out[k] = toPlain(value.get(k) ?? null);
    return out;
  }
  const num = value as JInt | JFloat;
  return num.kind === "int" ? Number(num.value) : num.value;
}

const encoder = new TextEncoder();

/** The UTF-8 bytes of a text. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}
