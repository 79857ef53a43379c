/**
 * The REST routes of the memory operations, derived from the operation registry: each `http`
 * binding becomes a route whose input is the JSON body, the query parameters it declares and
 * its path parameters, named as the schema's fields so errors name them too.
 */
import type { Context } from "hono";
import { z } from "zod";
import { invalidInput } from "../../core/errors.js";
import type { MemoryOperation } from "../../core/memory-api.js";
import { toJson } from "../../core/outputs.js";
import { fieldKind, listFromText, numberFromText } from "../../operations/fields.js";
import { invoke, OPERATION_NAMES, operationSpec } from "../../operations/index.js";
import type { HttpBinding, OperationSpec } from "../../operations/spec.js";
import { readJsonObject } from "../body.js";
import { json, type RouteSpec } from "../route.js";

type Spec = OperationSpec<MemoryOperation>;

const takesBody = (binding: HttpBinding) =>
  binding.body ?? (binding.method === "post" || binding.method === "patch");

/** The input fields this route does not take from its body. */
function elsewhere(binding: HttpBinding): Set<string> {
  return new Set([...Object.values(binding.params ?? {}), ...(binding.query ?? [])]);
}

/** The body's schema for the document: the input without its path and query fields. */
function bodySchema(input: z.ZodObject, binding: HttpBinding): z.ZodType {
  const excluded = elsewhere(binding);
  const required = new Set(binding.requires ?? []);
  if (excluded.size === 0 && required.size === 0) return input;
  // Built from the shape (`.omit` refuses schemas with refinements): it documents, it does not
  // validate — the service validates with the operation's own schema.
  const shape = Object.fromEntries(
    Object.entries(input.shape)
      .filter(([field]) => !excluded.has(field))
      .map(([field, schema]) => [
        field,
        required.has(field) && schema instanceof z.ZodOptional ? schema.unwrap() : schema,
      ]),
  );
  return z.strictObject(shape as z.ZodRawShape);
}

/** Where else an input field is accepted, for a refusal that says so. */
function otherwise(spec: Spec, binding: HttpBinding, field: string): string {
  const other = (spec.http ?? []).find(
    (candidate) =>
      candidate !== binding &&
      (candidate.query?.includes(field) ||
        (takesBody(candidate) && !elsewhere(candidate).has(field))),
  );
  return other ? `; ${other.method.toUpperCase()} ${other.path} takes it` : "";
}

/**
 * The declared query parameters, as the schema's field types (numbers as numbers, lists as
 * lists, `true` / `false` as booleans). A field of the input that this route does not take from the query is refused — a
 * GET never writes, so `GET /v1/working/{session}?budget=` must not set a budget behind the
 * reader's back — while names the input does not know are passed on for the strict schema to
 * refuse by name.
 */
function queryInput(c: Context, spec: Spec, binding: HttpBinding): Record<string, unknown> {
  const shape = spec.input?.shape ?? {};
  const declared = new Set(binding.query ?? []);
  const input: Record<string, unknown> = {};
  for (const [name, values] of Object.entries(c.req.queries())) {
    const schema = shape[name] as z.ZodType | undefined;
    const value = values[0] ?? "";
    if (declared.has(name)) {
      const kind = schema && fieldKind(schema);
      // A list is the parameter repeated (?tags=a&tags=b), or comma-separated, or both.
      input[name] =
        kind === "array"
          ? listFromText(values)
          : kind === "number"
            ? numberFromText(value)
            : kind === "boolean" && (value === "true" || value === "false")
              ? value === "true"
              : value;
    } else if (schema) {
      throw invalidInput(
        name,
        `is not a query parameter of ${binding.method.toUpperCase()} ${binding.path}${otherwise(spec, binding, name)}`,
      );
    } else if (spec.input) {
      input[name] = value;
    }
  }
  return input;
}

function operationRoute(name: MemoryOperation, spec: Spec, binding: HttpBinding): RouteSpec {
  const input = spec.input;
  const params = binding.params ?? {};
  const field = (f: string): z.ZodType => {
    const schema = input?.shape[f] as z.ZodType | undefined;
    // A parameter must be one of the operation's fields: documenting it as any string would
    // hide a misnamed binding.
    if (!schema) throw new Error(`operation ${name}: ${binding.path} names no input field '${f}'`);
    return schema;
  };
  const body = takesBody(binding);
  if (body && !input) throw new Error(`operation ${name}: a body needs an input schema`);
  return {
    method: binding.method,
    path: binding.path,
    operationId: binding.operationId ?? name,
    summary: binding.summary ?? spec.summary,
    ...((binding.description ?? spec.description) !== undefined && {
      description: binding.description ?? spec.description,
    }),
    tags: [binding.tag],
    auth: true,
    hostCheck: true,
    request: {
      ...(body && input && { body: bodySchema(input, binding) }),
      ...(binding.params && {
        path: Object.fromEntries(Object.entries(params).map(([p, f]) => [p, field(f)])),
      }),
      ...(binding.query && {
        query: Object.fromEntries(binding.query.map((f) => [f, field(f)])),
      }),
    },
    responses: {
      [binding.status]: {
        description: binding.returns,
        ...(spec.output && { content: json(spec.output) }),
      },
    },
    errors: [...binding.errors],
    handle: async (c, { memory }) => {
      // Path parameters last: errors about them name the schema's field (memory_id, …).
      const request: Record<string, unknown> = {
        ...(body ? await readJsonObject(c) : {}),
        ...queryInput(c, spec, binding),
        ...Object.fromEntries(Object.entries(params).map(([p, f]) => [f, c.req.param(p)])),
      };
      for (const required of binding.requires ?? []) {
        if (request[required] === undefined) throw invalidInput(required, "is required");
      }
      const result = await invoke(memory, name, request);
      return c.json(toJson(result) as object, binding.status);
    },
  };
}

/** Every operation route, in the registry's order. */
export const OPERATION_ROUTES: readonly RouteSpec[] = OPERATION_NAMES.flatMap((name) => {
  const spec = operationSpec(name);
  return (spec.http ?? []).map((binding) => operationRoute(name, spec, binding));
});
