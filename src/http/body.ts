/** Request bodies: JSON objects, validated later by the memory API's own schemas. */
import type { Context } from "hono";
import { invalidInput } from "../core/errors.js";

/**
 * Reads the body as JSON whatever the Content-Type says, so `curl -d` works; browsers cannot
 * abuse that because cross-origin requests are refused by the Origin check first.
 */
export async function readJsonObject(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalidInput("body", `malformed JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw invalidInput("body", "must be a JSON object");
  }
  return value as Record<string, unknown>;
}
