/** Query-string parameters for the memory API's schemas. */
import type { Context } from "hono";

/**
 * A numeric query parameter as a number, or as the text given when it is not one, so the
 * schema reports it by name; absent when not given.
 */
export function numberQuery(c: Context, name: string): Record<string, number | string> {
  const raw = c.req.query(name);
  if (raw === undefined) return {};
  const value = Number(raw);
  return { [name]: raw.trim() !== "" && Number.isFinite(value) ? value : raw };
}
