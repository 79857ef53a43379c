import type { z } from "zod";
import { ErrorCode, HindsightError } from "./errors.js";
import { inputProblem } from "./input-shape.js";

/**
 * Parses input with a schema; a failure becomes one INVALID_INPUT error naming the first bad
 * field, which every transport reports the same way. Every input first passes the shape
 * checks of `input-shape` (nesting depth, well-formed text, no `__proto__` keys).
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const problem = inputProblem(input);
  if (problem) return fail(problem.path || "input", problem.message);
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.map(String).join(".") || (unknownKey(issue) ?? "input");
  const message = (issue && missing(issue, input)) ?? issue?.message ?? "invalid input";
  return fail(field, message);
}

/**
 * "required" for a field left out, with what it takes: zod says "Invalid option: expected one
 * of …" or "expected string, received undefined", which reads as a bad value given.
 */
export function missing(issue: z.core.$ZodIssue, input: unknown): string | undefined {
  if (issue.code !== "invalid_type" && issue.code !== "invalid_value") return undefined;
  if (issue.path.length === 0 || valueAt(input, issue.path) !== undefined) return undefined;
  if (issue.code === "invalid_value") {
    return `required: one of ${issue.values.map((value) => JSON.stringify(value)).join(", ")}`;
  }
  return `required (${issue.expected})`;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function unknownKey(issue: z.core.$ZodIssue | undefined): string | undefined {
  return issue?.code === "unrecognized_keys" ? issue.keys[0] : undefined;
}

function fail(field: string, message: string): never {
  throw new HindsightError(ErrorCode.INVALID_INPUT, `${field}: ${message}`, { field });
}

/** Library callers may pass Dates where the wire format has ISO strings. */
export function isoDates<T>(input: T): T {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return input;
  const copy: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  for (const [key, value] of Object.entries(copy)) {
    if (value instanceof Date) copy[key] = value.toISOString();
  }
  return copy as T;
}
