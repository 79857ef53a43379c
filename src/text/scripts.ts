/**
 * Writing systems (Unicode scripts) of text, and how much of a text an embedding model that
 * knows only some of them can represent. An English-only model (all-MiniLM-L6-v2: its
 * vocabulary maps most Chinese characters to `[UNK]`) gives every Chinese text nearly the same
 * vector; ranking uses the share computed here to lean on keywords for such a query instead.
 */
import { wordTokens } from "./tokenize.js";

/** The scripts told apart; a letter of any other script counts as `Other`. */
export const SCRIPTS = [
  "Latin",
  "Han",
  "Hiragana",
  "Katakana",
  "Hangul",
  "Cyrillic",
  "Greek",
  "Arabic",
  "Hebrew",
  "Thai",
  "Devanagari",
] as const;

export type Script = (typeof SCRIPTS)[number] | "Other";

const PATTERNS: ReadonlyArray<[Script, RegExp]> = SCRIPTS.map((script) => [
  script,
  new RegExp(`\\p{Script=${script}}`, "u"),
]);
const LETTER = /\p{L}/u;

/** The script of a word's first letter; undefined for a word without letters ("8080"). */
export function scriptOf(word: string): Script | undefined {
  const letter = [...word].find((char) => LETTER.test(char));
  if (letter === undefined) return undefined;
  return PATTERNS.find(([, pattern]) => pattern.test(letter))?.[0] ?? "Other";
}

/**
 * The share of a text's words (as keyword search segments them) written in one of `scripts`,
 * 0..1. Words without letters (numbers) are left out of the count; a text with no lettered word
 * counts as covered (1), and so does any text when `scripts` is undefined (the model knows every
 * script). Words, not characters, are counted: a Chinese word of two characters carries about
 * as much as an English word of six letters.
 */
export function scriptCoverage(text: string, scripts: readonly string[] | undefined): number {
  if (scripts === undefined) return 1;
  let lettered = 0;
  let covered = 0;
  for (const word of wordTokens(text)) {
    const script = scriptOf(word);
    if (script === undefined) continue;
    lettered++;
    if (scripts.includes(script)) covered++;
  }
  return lettered === 0 ? 1 : covered / lettered;
}

/**
 * The share of a text's lettered words in each script (summing to 1), counted as in
 * `scriptCoverage`; empty for a text with no lettered word.
 */
export function scriptShares(text: string): Map<Script, number> {
  const counts = new Map<Script, number>();
  let lettered = 0;
  for (const word of wordTokens(text)) {
    const script = scriptOf(word);
    if (script === undefined) continue;
    lettered++;
    counts.set(script, (counts.get(script) ?? 0) + 1);
  }
  for (const [script, count] of counts) counts.set(script, count / lettered);
  return counts;
}
