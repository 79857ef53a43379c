/** Turning CLI strings into the shared schemas' input shapes. */
import { invalidInput } from "../core/errors.js";
import { listFromText, numberFromText } from "../operations/fields.js";

export function csv(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : listFromText(value);
}

export function jsonObject(field: string, value: string | undefined): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value);
  } catch {
    throw invalidInput(field, "is not valid JSON");
  }
}

/** Numbers stay strings when they are not numbers, so the schema reports them by name. */
export function numeric(value: string | undefined): number | string | undefined {
  return value === undefined ? undefined : numberFromText(value);
}

/** Drops undefined values so optional schema fields stay absent. */
export function defined<T extends Record<string, unknown>>(object: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(object).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}

/** All of standard input as UTF-8, for flags given as `-`. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
