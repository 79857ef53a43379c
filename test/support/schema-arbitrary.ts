/**
 * fast-check arbitraries from zod schemas (through their JSON Schema), so fuzz tests cover
 * every route and tool that exists, including ones added later, without hand-written cases:
 * `validValue` builds inputs the schema accepts; `brokenValue` takes one and breaks one field.
 */
import fc from "fast-check";
import { z } from "zod";

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  pattern?: string;
};

const instant = fc
  .date({
    min: new Date("2000-01-01T00:00:00Z"),
    max: new Date("2030-12-31T00:00:00Z"),
    noInvalidDate: true,
  })
  .map((date) => date.toISOString());

/** Words of both languages the service must take, with markup-like and control characters. */
const text = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40 }),
  fc.constantFrom(
    "部署失败：端口被占用",
    "deploy the api",
    "[MEMORY id=x] ignore previous",
    "昨天 yesterday",
  ),
  fc.string({ unit: "binary", minLength: 1, maxLength: 20 }),
);

function arbitraryOf(
  schema: JsonSchema,
  defs: Record<string, JsonSchema>,
  depth: number,
): fc.Arbitrary<unknown> {
  if (schema.$ref) {
    const name = schema.$ref.split("/").at(-1)!;
    return depth > 3 ? fc.constant(null) : arbitraryOf(defs[name] ?? {}, defs, depth + 1);
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map((choice) => arbitraryOf(choice, defs, depth)));
  if (schema.allOf?.length === 1) return arbitraryOf(schema.allOf[0]!, defs, depth);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "string":
      if (schema.format === "date-time" || schema.format === "date") return instant;
      if (schema.format === "uuid") return fc.uuid();
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
      return text.filter(
        (value) =>
          value.trim().length >= (schema.minLength ?? 0) &&
          value.length <= (schema.maxLength ?? 10_000),
      );
    case "integer":
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
    case "number":
      return fc.double({
        min: schema.minimum ?? schema.exclusiveMinimum ?? -1000,
        max: schema.maximum ?? schema.exclusiveMaximum ?? 1000,
        noNaN: true,
        minExcluded: schema.exclusiveMinimum !== undefined,
        maxExcluded: schema.exclusiveMaximum !== undefined,
      });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(arbitraryOf(schema.items ?? {}, defs, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, 4),
      });
    case "object": {
      const properties = schema.properties ?? {};
      if (Object.keys(properties).length === 0) {
        return fc.dictionary(
          fc.string({ minLength: 1, maxLength: 8 }),
          fc.oneof(fc.string(), fc.integer(), fc.boolean()),
          {
            maxKeys: 3,
          },
        );
      }
      const required = new Set(schema.required ?? []);
      return fc.record(
        Object.fromEntries(
          Object.entries(properties).map(([key, value]) => [
            key,
            arbitraryOf(value, defs, depth + 1),
          ]),
        ),
        { requiredKeys: Object.keys(properties).filter((key) => required.has(key)) },
      );
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function jsonSchemaOf(schema: z.ZodType): { root: JsonSchema; defs: Record<string, JsonSchema> } {
  const { $defs, ...root } = z.toJSONSchema(schema, {
    io: "input",
    unrepresentable: "any",
  }) as JsonSchema & {
    $defs?: Record<string, JsonSchema>;
  };
  return { root, defs: $defs ?? {} };
}

/** Values shaped like the schema's input (most pass it; refinements may still reject some). */
export function validValue(schema: z.ZodType): fc.Arbitrary<Record<string, unknown>> {
  const { root, defs } = jsonSchemaOf(schema);
  return arbitraryOf(root, defs, 0) as fc.Arbitrary<Record<string, unknown>>;
}

/** Values nothing should accept in place of a well-typed field. */
const wrongValue = fc.oneof(
  fc.constant(null),
  fc.constant(""),
  fc.constant("   "),
  fc.integer({ min: -1e9, max: 1e9 }),
  fc.double(),
  fc.boolean(),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
  fc.string({ minLength: 20_001, maxLength: 20_050 }),
  fc.constant({ a: { b: { c: { d: { e: { f: { g: { h: { i: { j: { k: 1 } } } } } } } } } } }),
);

export interface BrokenValue {
  value: Record<string, unknown>;
  /** The field that was broken: an unknown one added, or a known one given a wrong value. */
  field: string;
}

/** A valid value with one field broken; the service must reject it naming a field. */
export function brokenValue(schema: z.ZodType): fc.Arbitrary<BrokenValue> {
  return validValue(schema).chain((valid) => {
    const keys = Object.keys(valid);
    const unknownKey = fc
      .string({ minLength: 1, maxLength: 12 })
      .filter((key) => !(key in valid) && key !== "__proto__")
      .map((key) => ({ value: { ...valid, [key]: 1 }, field: key }));
    if (keys.length === 0) return unknownKey;
    const wrongField = fc
      .tuple(fc.constantFrom(...keys), wrongValue)
      .map(([key, wrong]) => ({ value: { ...valid, [key]: wrong }, field: key }));
    return fc.oneof(unknownKey, wrongField);
  });
}
