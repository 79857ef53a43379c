/**
 * What kind of value an input field takes, read off its schema: how a surface that receives
 * text (a query string, a command-line flag) turns the text into the field's JSON shape before
 * the schema validates it.
 */
import type { z } from "zod";

export type FieldKind = "string" | "number" | "boolean" | "array" | "object";

/** Wrappers whose value has the kind of the schema they wrap. */
const WRAPPERS = new Set(["optional", "default", "nullable", "readonly", "prefault", "catch"]);

export function fieldKind(schema: z.ZodType): FieldKind {
  let def = schema._zod.def as { type: string; innerType?: z.ZodType; in?: z.ZodType };
  for (;;) {
    if (WRAPPERS.has(def.type) && def.innerType) def = def.innerType._zod.def as typeof def;
    else if (def.type === "pipe" && def.in) def = def.in._zod.def as typeof def;
    else break;
  }
  switch (def.type) {
    case "number":
    case "int":
    case "bigint":
      return "number";
    case "boolean":
      return "boolean";
    case "array":
    case "tuple":
    case "set":
      return "array";
    case "object":
    case "record":
    case "map":
      return "object";
    default:
      return "string";
  }
}

/**
 * A number given as text, as a number; text that is not a number stays text, so the schema
 * reports it by name ("top_k: expected number, received string").
 */
export function numberFromText(value: string): number | string {
  const number = Number(value);
  return value.trim() !== "" && Number.isFinite(number) ? number : value;
}

/**
 * A list given as text — comma-separated, in a flag or a query parameter, each possibly
 * repeated — as its items: trimmed, empty ones dropped, so `a, b,` and `?tags=a&tags=b` are
 * both `["a", "b"]` on every surface.
 */
export function listFromText(values: string | readonly string[]): string[] {
  return (typeof values === "string" ? [values] : values)
    .flatMap((value) => value.split(","))
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}
