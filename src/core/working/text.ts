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

/*
 * Cutting at word and clause boundaries. English and other spaced scripts break only at
 * spaces (so `api:1.4` or a path is never split); Chinese, Japanese and Korean runs break
 * between the words `Intl.Segmenter` finds (构建/镜像) and at their punctuation.
 */
const segmenter = new Intl.Segmenter("zh", { granularity: "word" });
/** CJK characters and CJK / full-width punctuation: a word may end before or after any. */
const WIDE =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;
const SPACE = /\s/u;

/** Whether two adjacent characters belong to one word or token, so no cut goes between them. */
function joined(before: string, after: string): boolean {
  return !SPACE.test(before) && !SPACE.test(after) && !WIDE.test(before) && !WIDE.test(after);
}

/** Where `text` may be cut without splitting a word: character offsets, ascending. */
export function wordBreaks(text: string): number[] {
  const breaks: number[] = [];
  let offset = 0;
  let previous = "";
  for (const { segment } of segmenter.segment(text)) {
    const chars = Array.from(segment);
    if (offset > 0 && !joined(previous, chars[0]!)) breaks.push(offset);
    offset += chars.length;
    previous = chars.at(-1)!;
  }
  return breaks;
}

/** What may dangle at the end of a cut prefix and is dropped: spaces, commas, colons, brackets. */
const DANGLING = /[\s,，、;；:：(（[【{<《\-–—/|&+]+$/u;

function prefix(chars: readonly string[], end: number): string {
  return chars.slice(0, end).join("").replace(DANGLING, "");
}

/** At most `max` characters cut at a word boundary, with an ellipsis; never splits a word. */
export function clipWords(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  if (max <= 1) return "";
  const breaks = wordBreaks(text);
  for (let index = breaks.length - 1; index >= 0; index--) {
    const cut = prefix(chars, breaks[index]!);
    if (cut.length > 0 && charLength(cut) + 1 <= max) return `${cut}…`;
  }
  // One word longer than the whole room (a long path or hash): only then is a word cut.
  return clipEnd(text, max);
}

/** Sentence ends: CJK ones anywhere, Latin ones before a space or the end (not in `1.4`). */
const SENTENCE_END = /[。！？；]+|[.!?;]+(?=\s|$)/gu;
/** Clause ends: the sentence ends, commas, colons before a space, and "and"/"then" between words. */
const CLAUSE_END =
  /[。！？；，、：]|[.!?;,](?=\s|$)|:(?=\s)|\s(?=(?:and|then|but|so|while|after|并且|然后)\s)|(?<=\p{Script=Han})(?=(?:并且|然后)\p{Script=Han})/gu;

/** The sentences of `text`, on one line each, empty ones dropped. */
export function sentences(text: string): string[] {
  const line = oneLine(text);
  const result: string[] = [];
  let start = 0;
  for (const match of line.matchAll(SENTENCE_END)) {
    const end = match.index + match[0].length;
    result.push(line.slice(start, end).trim());
    start = end;
  }
  result.push(line.slice(start).trim());
  return result.filter((sentence) => sentence.length > 0);
}

const PARENTHESES = /\s*(?:\([^()]*\)|（[^（）]*）|\[[^[\]]*\])/gu;

/**
 * At most `max` characters of `text`, shortened the way a person would: first without
 * parenthetical detail, then at the last clause end that keeps a fair share of it (no
 * ellipsis: what is left is a whole clause), then at a word boundary with an ellipsis.
 */
export function shorten(text: string, max: number, { clauses = true } = {}): string {
  if (charLength(text) <= max) return text;
  const plain = oneLine(text.replace(PARENTHESES, ""));
  if (plain.length > 0 && plain !== text) {
    if (charLength(plain) <= max) return plain;
    return shorten(plain, max, { clauses });
  }
  if (clauses) {
    const chars = Array.from(text);
    let best = "";
    for (const match of text.matchAll(CLAUSE_END)) {
      const cut = prefix(chars, charLength(text.slice(0, match.index)));
      const length = charLength(cut);
      if (length > max) break;
      if (length >= max * 0.35) best = cut;
    }
    if (best) return best;
  }
  return clipWords(text, max);
}
