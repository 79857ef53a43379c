/**
 * Word tokens for keyword search and the hash embedder, for Chinese, English and mixed text.
 * `Intl.Segmenter` segments CJK runs into words (用户/偏好/中文) where PostgreSQL's
 * `to_tsvector('simple', …)` would keep a whole run as a single token.
 */
// Made on first use: building it loads ICU's dictionaries (~9 ms), which a command that never
// segments (a refused one, a forwarded one) should not pay.
let segmenter: Intl.Segmenter | undefined;
const NOT_WORD = /[^\p{L}\p{N}]+/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Lower-cased, NFKC-normalised word tokens in text order (duplicates kept). */
export function wordTokens(text: string): string[] {
  const tokens: string[] = [];
  segmenter ??= new Intl.Segmenter("zh", { granularity: "word" });
  for (const { segment, isWordLike } of segmenter.segment(text.normalize("NFKC"))) {
    if (!isWordLike) continue;
    const token = segment.toLowerCase().replace(NOT_WORD, "");
    if (token) tokens.push(token);
  }
  return tokens;
}

export function isCjk(token: string): boolean {
  return CJK.test(token);
}

/** Distinct tokens, first occurrence order. */
export function uniqueTokens(text: string): string[] {
  return [...new Set(wordTokens(text))];
}
