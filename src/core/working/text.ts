/** Character-level helpers: limits here count characters (code points), not UTF-16 units. */

export function charLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}

/** The first `max` characters, with an ellipsis when something was cut. */
export function clipEnd(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  if (max <= 0) return "";
  return `${chars.slice(0, max - 1).join("")}…`;
}

/** The last `max` characters, with an ellipsis when something was cut: keeps the newest part. */
export function clipStart(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  if (max <= 0) return "";
  return `…${chars.slice(chars.length - max + 1).join("")}`;
}

/** Whitespace collapsed to single spaces: summaries are one line per part. */
export function oneLine(text: string): string {
  return text.replace(/\s+/gu, " ").trim();
}

/** The first sentence or clause, for condensing an item into a step. */
export function firstSentence(text: string): string {
  const line = oneLine(text);
  const match = /^(.+?[.!?。！？；;])(\s|$)/u.exec(line);
  return match?.[1] ?? line;
}

/**
 * Shrinks the longest parts first until all of them together fit in `total` characters: a
 * short part keeps its words, a long one gives up what it must. `clip` says from which end.
 */
export function fitParts<K extends string>(
  parts: Record<K, string>,
  total: number,
  clip: Partial<Record<K, "start" | "end">> = {},
): Record<K, string> {
  const keys = Object.keys(parts) as K[];
  const lengths = keys.map((key) => charLength(parts[key]));
  if (lengths.reduce((sum, length) => sum + length, 0) <= total) return { ...parts };
  // The largest cap c with sum(min(length, c)) <= total.
  let cap = total;
  while (cap > 0 && lengths.reduce((sum, length) => sum + Math.min(length, cap), 0) > total) cap--;
  const fitted = {} as Record<K, string>;
  for (const key of keys) {
    fitted[key] = clip[key] === "start" ? clipStart(parts[key], cap) : clipEnd(parts[key], cap);
  }
  return fitted;
}
