import {
  calendarWords,
  separateCalendarWords,
  upgradeStoredTerms,
} from "../../text/calendar-words.js";
import { stem } from "../../text/stem.js";
import { isStopWord } from "../../text/stop-words.js";
import { wordTokens } from "../../text/tokenize.js";
import { unitWords, upgradeStoredUnits } from "../../text/unit-words.js";
import { LruMap } from "../lru-map.js";

/** Separates a memory's own words from its context's; never a word itself. */
const CONTEXT_MARKER = "|";

/**
 * The text kept for keyword search: search terms joined by spaces — the memory's own words,
 * then, after a `|`, the words of its context (e.g. the conversation turns before it), which
 * count for less in BM25. Segmenting here (not in SQL) is what makes Chinese words matchable;
 * PostgreSQL's 'simple' parser would keep a whole Chinese run as one token. English words are
 * stemmed, so "hiking" finds "hiked".
 */
export function searchText(parts: readonly string[], context?: string): string {
  const own = parts.flatMap(searchTerms);
  const around = context ? searchTerms(context) : [];
  return (around.length > 0 ? [...own, CONTEXT_MARKER, ...around] : own).join(" ");
}

/** A stored search text with its own words replaced and its context's kept (a correction). */
export function withOwnWords(stored: string, own: string): string {
  const { context } = searchDocument(stored);
  return [own, ...(context.length > 0 ? [CONTEXT_MARKER, ...context] : [])]
    .filter((part) => part.length > 0)
    .join(" ");
}

/** Normalised, segmented and stemmed words in text order (duplicates kept). */
export function searchTerms(text: string): string[] {
  return searchWords(text).map(stem);
}

/**
 * The words of a text as keyword search reads them, before stemming: calendar words and units
 * of measure in one form.
 */
export function searchWords(text: string): string[] {
  return unitWords(calendarWords(wordTokens(separateCalendarWords(text))));
}

export interface SearchDocument {
  /** The memory's own words. */
  own: string[];
  /** Words of its context. */
  context: string[];
}

/** The words of a stored search text, in order, its own and its context's apart. */
export function searchDocument(searchText: string): SearchDocument {
  const tokens = searchText.length > 0 ? searchText.split(" ") : [];
  const marker = tokens.indexOf(CONTEXT_MARKER);
  return marker < 0
    ? { own: tokens, context: [] }
    : { own: tokens.slice(0, marker), context: tokens.slice(marker + 1) };
}

const EVENING = /\bevenings?\b/i;
const EVEN = /\beven\b/i;

/**
 * A search text stored before calendar words had one form (周五 for "Friday", 星期五 and
 * 每周五), as the current tokenizer writes it, as far as its words tell; `source` is the
 * memory's own text, which tells whether a stored "even" was "evening". A current search text
 * is returned unchanged.
 */
export function withCalendarWords(stored: string, source: string): string {
  const evening = EVENING.test(source) && !EVEN.test(source);
  return rewriteParts(stored, (terms, own) => upgradeStoredTerms(terms, own && evening));
}

/**
 * A search text stored before units of measure had one form ("164cm" for 164 厘米), as the
 * current tokenizer writes it. A current search text is returned unchanged.
 */
export function withUnitWords(stored: string): string {
  return rewriteParts(stored, upgradeStoredUnits);
}

/**
 * A search text stored or exported by an earlier version (since stemming, see storage/reindex)
 * as the current tokenizer writes it; `source` is the memory's own text.
 */
export function currentSearchText(stored: string, source: string): string {
  return withUnitWords(withCalendarWords(stored, source));
}

/** A stored search text with each part's terms rewritten (`own`: the memory's own words). */
function rewriteParts(
  stored: string,
  rewrite: (terms: string[], own: boolean) => string[],
): string {
  const { own, context } = searchDocument(stored);
  const rewrittenOwn = rewrite(own, true);
  const rewrittenContext = rewrite(context, false);
  return (
    rewrittenContext.length > 0
      ? [...rewrittenOwn, CONTEXT_MARKER, ...rewrittenContext]
      : rewrittenOwn
  ).join(" ");
}

/** Every word of a stored search text, its own and its context's. */
export function searchTokens(searchText: string): string[] {
  const { own, context } = searchDocument(searchText);
  return context.length > 0 ? [...own, ...context] : own;
}

/**
 * The last queries' terms: a recall reads its query's words up to three times (its clauses,
 * whether it names a subject, its keywords), and segmenting is most of the query's own cost.
 */
const recentTerms = new LruMap<string, readonly string[]>(64);

/** The distinct search terms of a query's words that are not question words. */
function meaningfulTerms(text: string): string[] {
  let terms = recentTerms.get(text);
  if (!terms) {
    terms = [
      ...new Set(
        searchWords(text)
          .filter((token) => !isStopWord(token))
          .map(stem),
      ),
    ];
    recentTerms.set(text, terms);
  }
  return [...terms];
}

/**
 * Whether a query names something besides the shape of its question ("what did I do?" does
 * not; "what did I deploy?" does).
 */
export function namesSubject(query: string): boolean {
  return meaningfulTerms(query).length > 0;
}

/**
 * A query's distinct keywords: its search terms without the words that only shape a question
 * ("what", "did", "什么", "来着"); all of them when nothing else is left ("who is he?").
 */
export function queryTerms(query: string): string[] {
  const meaningful = meaningfulTerms(query);
  return meaningful.length > 0 ? meaningful : [...new Set(searchTerms(query))];
}

/** Ends a question or sentence, in English or Chinese ("." is left out: "Dr.", "3.5"). */
const CLAUSE_END = /[?？!！。;；\n]+/;

export interface QueryClause {
  text: string;
  /** Its keywords, question words left out. */
  terms: string[];
}

/**
 * Each question of a query that asks several ("我上司叫什么？另外，会议在哪？"), when at least
 * two of them have words beyond question words; otherwise none.
 */
export function queryClauses(query: string): QueryClause[] {
  const clauses = query
    .split(CLAUSE_END)
    .map((text) => ({ text: text.trim(), terms: meaningfulTerms(text) }))
    .filter((clause) => clause.terms.length > 0);
  return clauses.length >= 2 ? clauses : [];
}
