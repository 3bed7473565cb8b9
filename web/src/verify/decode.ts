/**
 * Decoding parsed JSON into plain values by a shape (the JSON Schemas of
 * docs/protocol/*.schema.json, written as data): types checked, defaults filled, unknown keys
 * ignored unless the shape is closed.
 */

import { isNumber, type JInt, type JValue, JObject, type Plain, toPlain } from "./json";

/** A field of an object shape: its value's shape and, when it may be absent, its default. */
export interface Field {
  readonly shape: Shape;
  readonly default?: Plain;
}

export type Shape =
  | "int"
  | "number"
  | "string"
  | "bool"
  | "any"
  | "object"
  | { readonly nullable: Shape }
  | { readonly array: Shape; readonly min?: number; readonly max?: number }
  | { readonly enum: readonly string[] }
  | { readonly fields: Readonly<Record<string, Field>>; readonly closed?: boolean };

/** A value that does not fit its shape. */
export class Invalid extends Error {}

const isInt = (value: JValue): value is JInt => isNumber(value) && value.kind === "int";

/** Decodes `value` by `shape`; throws `Invalid` with the path of the first misfit. */
export function decode(value: JValue, shape: Shape, path = "$"): Plain {
  if (shape === "any") return toPlain(value);
  if (shape === "int") {
    if (!isInt(value) || value.huge === true) throw new Invalid(`${path}: not an integer`);
    return Number(value.value);
  }
  if (shape === "number") {
    if (!isNumber(value) || (value.kind === "int" && value.huge === true)) throw new Invalid(`${path}: not a number`);
    return Number(value.value);
  }
  if (shape === "string") {
    if (typeof value !== "string") throw new Invalid(`${path}: not a string`);
    return value;
  }
  if (shape === "bool") {
    if (typeof value !== "boolean") throw new Invalid(`${path}: not a boolean`);
    return value;
  }
  if (shape === "object") {
    if (!(value instanceof JObject)) throw new Invalid(`${path}: not an object`);
    return toPlain(value);
  }
  if ("nullable" in shape) return value === null ? null : decode(value, shape.nullable, path);
  if ("enum" in shape) {
    if (typeof value !== "string" || !shape.enum.includes(value)) throw new Invalid(`${path}: not one of ${shape.enum.join(", ")}`);
    return value;
  }
  if ("array" in shape) {
    if (!Array.isArray(value)) throw new Invalid(`${path}: not an array`);
    const items = value as readonly JValue[];
    if (shape.min !== undefined && items.length < shape.min) throw new Invalid(`${path}: too short`);
    if (shape.max !== undefined && items.length > shape.max) throw new Invalid(`${path}: too long`);
    return items.map((item, i) => decode(item, shape.array, `${path}[${i}]`));
  }
  if (!(value instanceof JObject)) throw new Invalid(`${path}: not an object`);
  const out: { [key: string]: Plain } = {};
  for (const [name, field] of Object.entries(shape.fields)) {
    const member = value.get(name);
    if (member === undefined) {
      if (field.default === undefined) throw new Invalid(`${path}.${name}: missing`);
      out[name] = field.default;
    } else {
      out[name] = decode(member, field.shape, `${path}.${name}`);
    }
  }
  if (shape.closed === true) {
    for (const key of value.keys()) if (!(key in shape.fields)) throw new Invalid(`${path}.${key}: unknown field`);
  }
  return out;
}

// Shorthands for shapes.
export const req = (shape: Shape): Field => ({ shape });
export const opt = (shape: Shape, fallback: Plain): Field => ({ shape, default: fallback });
export const nullable = (shape: Shape): Shape => ({ nullable: shape });
export const arrayOf = (shape: Shape): Shape => ({ array: shape });
export const oneOf = (...values: string[]): Shape => ({ enum: values });
export const obj = (fields: Record<string, Field>, closed = false): Shape => ({ fields, closed });

/** An event's shape: its `type` tag and fields. */
export const event = (type: string, fields: Record<string, Field>): Shape =>
  obj({ type: req(oneOf(type)), ...fields });

/** A command's shape: commands refuse unknown keys. */
export const command = (type: string, fields: Record<string, Field>): Shape =>
  obj({ type: req(oneOf(type)), ...fields }, true);

/** Decodes a tagged union by its `type` member; null when the tag is unknown or the value does not fit. */
export function decodeTagged(value: JValue, shapes: ReadonlyMap<string, Shape>): { type: string; [key: string]: Plain } | null {
  if (!(value instanceof JObject)) return null;
  const tag = value.get("type");
  if (typeof tag !== "string") return null;
  const shape = shapes.get(tag);
  if (shape === undefined) return null;
  try {
    return decode(value, shape) as { type: string; [key: string]: Plain };
  } catch (error) {
    if (error instanceof Invalid) return null;
    throw error;
  }
}
