/**
 * The checks every input passes before its schema sees it, walked without recursion so that
 * no input can exhaust the stack (5,000 levels of nesting in 10 KiB of JSON overflowed zod's
 * recursive parse: a 500 instead of a clear refusal):
 * - nesting at most MAX_INPUT_DEPTH levels deep;
 * - strings and keys well-formed UTF-16: an unpaired surrogate cannot be stored as UTF-8, and
 *   PostgreSQL refused it as a server error;
 * - no `__proto__` key: copying it into a new object sets the prototype instead, so the field
 *   silently vanished.
 */
export const MAX_INPUT_DEPTH = 32;

export interface InputProblem {
  /** Where, as a dotted path from the input's top (e.g. `metadata.a.b`). */
  path: string;
  message: string;
}

const LONE_SURROGATE = /\p{Cs}/u;

export const hasLoneSurrogate = (value: string): boolean => LONE_SURROGATE.test(value);

export const LONE_SURROGATE_MESSAGE =
  "must be valid Unicode: it holds an unpaired surrogate (half of a UTF-16 pair)";

/** The first problem found, breadth-first; undefined when there is none. */
export function inputProblem(input: unknown): InputProblem | undefined {
  const queue: { value: unknown; path: string[] }[] = [{ value: input, path: [] }];
  for (let index = 0; index < queue.length; index++) {
    const { value, path } = queue[index]!;
    if (typeof value === "string") {
      if (hasLoneSurrogate(value)) return { path: path.join("."), message: LONE_SURROGATE_MESSAGE };
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (path.length >= MAX_INPUT_DEPTH) {
      return {
        path: path.slice(0, 1).join(".") || "input",
        message: `must nest at most ${MAX_INPUT_DEPTH} levels deep`,
      };
    }
    if (Array.isArray(value)) {
      for (const [position, child] of value.entries()) {
        queue.push({ value: child, path: [...path, String(position)] });
      }
      continue;
    }
    for (const key of Object.keys(value)) {
      const at = [...path, key];
      if (key === "__proto__") {
        return { path: at.join("."), message: "'__proto__' is not allowed as a key" };
      }
      if (hasLoneSurrogate(key)) return { path: at.join("."), message: LONE_SURROGATE_MESSAGE };
      queue.push({ value: (value as Record<string, unknown>)[key], path: at });
    }
  }
  return undefined;
}
