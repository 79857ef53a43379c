import { wordTokens } from "../text/tokenize.js";

/**
 * The text kept for keyword search: word tokens joined by spaces. Segmenting here (not in
 * SQL) is what makes Chinese words matchable; PostgreSQL's 'simple' parser would keep a whole
 * Chinese run as one token.
 */
export function searchText(...parts: string[]): string {
  return parts.flatMap((part) => wordTokens(part)).join(" ");
}

/** The words of a stored search text, in order. */
export function searchTokens(searchText: string): string[] {
  return searchText.length > 0 ? searchText.split(" ") : [];
}
