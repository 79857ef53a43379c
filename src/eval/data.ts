/** Reading evaluation files: clear errors naming the file and the field at fault. */
import { readdir, readFile, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import type { z } from "zod";
import { ErrorCode, HindsightError, invalidInput } from "../core/errors.js";

/** `["queries", 3, "expected", 1]` → `queries[3].expected[1]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const key of path) {
    if (typeof key === "number") text += `[${key}]`;
    else text += text === "" ? String(key) : `.${String(key)}`;
  }
  return text;
}

/** The first issue of a failed parse: where and what. */
export function describeIssue(error: z.ZodError): { path: PropertyKey[]; message: string } {
  const issue = error.issues[0];
  if (!issue) return { path: [], message: "invalid" };
  let path: PropertyKey[] = issue.path;
  let message = issue.message;
  if (issue.code === "unrecognized_keys") {
    path = [...path, issue.keys[0] ?? ""];
    message = "unknown field";
  }
  return { path, message };
}

/**
 * Parses `value` (the content of `file`) with `schema`; a failure is INVALID_INPUT on the
 * `--data` flag, naming the file and the path inside it.
 */
export function parseData<S extends z.ZodType>(
  schema: S,
  value: unknown,
  file: string,
  /** Where `value` sits inside the file. */
  prefix: readonly PropertyKey[] = [],
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const { path, message } = describeIssue(result.error);
  const field = formatPath([...prefix, ...path]);
  throw new HindsightError(
    ErrorCode.INVALID_INPUT,
    `data: ${basename(file)}${field ? ` ${field}` : ""}: ${message}`,
    { field: "data", details: { file, path: field } },
  );
}

export async function readJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw invalidInput(
      "data",
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? error}`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalidInput("data", `${basename(file)} is not valid JSON: ${(error as Error).message}`);
  }
}

/** A file, or the `.json` files of a directory in name order. */
export async function jsonFiles(path: string): Promise<string[]> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch (error) {
    throw invalidInput(
      "data",
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? error}`,
    );
  }
  if (!info.isDirectory()) return [path];
  const names = (await readdir(path)).filter((name) => name.endsWith(".json")).sort();
  if (names.length === 0) throw invalidInput("data", `${path} holds no .json file`);
  return names.map((name) => join(path, name));
}
