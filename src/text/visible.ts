/**
 * Text as a reader sees it, for the places where what a reader sees is what matters: markers
 * that fence stored text off from instructions, and names on a block list. Stored text is
 * never changed; these are applied when it is rendered or compared.
 *
 * - `visibleText`: NFKC (full-width ｍｅｍｏｒｙ is memory, ﹝ is [), without the format
 *   characters that render as nothing (zero-width space and joiners, soft hyphen, word joiner,
 *   bidirectional controls, byte-order mark), so nothing invisible can split a marker.
 * - `skeleton`: also lower-cased, with letters that look like Latin ones in Cyrillic and Greek
 *   mapped to them (Unicode's confusables for the letters of both scripts that have a Latin
 *   twin), whitespace collapsed and trailing dots dropped: "wіki" with a Cyrillic і, "wiki." and
 *   "wi\u00ADki" are all "wiki". One character in, one out, so positions carry over.
 */

const FORMAT_CHARACTERS = /\p{Cf}/gu;

export function visibleText(text: string): string {
  return text.normalize("NFKC").replace(FORMAT_CHARACTERS, "");
}

/** Cyrillic and Greek letters whose glyphs are Latin ones (lower case; upper folds first). */
const LATIN_TWINS: Record<string, string> = {
  // Cyrillic
  а: "a",
  в: "b",
  е: "e",
  ё: "e",
  һ: "h",
  і: "i",
  ї: "i",
  ј: "j",
  к: "k",
  м: "m",
  н: "h",
  о: "o",
  р: "p",
  с: "c",
  т: "t",
  у: "y",
  х: "x",
  ѕ: "s",
  ԁ: "d",
  ԛ: "q",
  ԝ: "w",
  ɡ: "g",
  // Greek
  α: "a",
  β: "b",
  ε: "e",
  η: "n",
  ι: "i",
  κ: "k",
  ν: "v",
  ο: "o",
  ρ: "p",
  τ: "t",
  υ: "u",
  χ: "x",
  ϲ: "c",
  ϳ: "j",
};

/** `visibleText`, lower-cased, Latin twins mapped: the same length as `visibleText`. */
export function foldLookalikes(visible: string): string {
  let folded = "";
  for (const character of visible) {
    const lower = character.toLowerCase();
    const twin = LATIN_TWINS[lower] ?? lower;
    // Keep one output unit per input unit, so positions match the visible text.
    folded += twin.length === character.length ? twin : character;
  }
  return folded;
}

export function skeleton(text: string): string {
  return foldLookalikes(visibleText(text)).replace(/\s+/gu, " ").trim().replace(/\.+$/u, "");
}

/** Opening brackets a reader may take for "[" (after NFKC, which already folds ［ and ﹝). */
const OPENING_BRACKETS = "\\[【〔〖〘〚⟦⟨〈《❲❴⦃⦅⦇⦉⦋⦍⦏⦑⦓⦕⦗⧼";

/**
 * The visible text with every look-alike of the marker `[<words>` / `[/<words>` broken: its
 * bracket becomes "(", so the words stay readable and no delimiter is left. Matched on the
 * folded text — any case, full-width or Cyrillic letters, spaces or invisible characters
 * inside — so what renders as the marker is what is caught.
 */
export function breakMarkers(text: string, words: readonly string[]): string {
  const visible = visibleText(text);
  const folded = foldLookalikes(visible);
  const pattern = new RegExp(`[${OPENING_BRACKETS}]\\s*/?\\s*${words.join("\\s*")}`, "gu");
  let out = "";
  let last = 0;
  for (const match of folded.matchAll(pattern)) {
    out += `${visible.slice(last, match.index)}(`;
    last = match.index + 1;
  }
  return out + visible.slice(last);
}

/** Line breaks as a reader sees them, including the Unicode line and paragraph separators. */
export const LINE_BREAK = /\r\n?|[\n\v\f\u0085\u2028\u2029]/u;
