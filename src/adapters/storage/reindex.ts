/**
 * Re-indexing keyword search after the tokenizer changed: English stemming was added after
 * databases had been written, so their older rows hold unstemmed words ("hiking") that a
 * stemmed query ("hike") no longer matches, and BM25 statistics counting both forms.
 *
 * A row's `search_text` cannot simply be rebuilt from its columns: the words of its `context`
 * (the turns before a conversation turn, say) are not stored anywhere else. It is rewritten
 * from itself instead: the stored words are exactly what the tokenizer gave, so stemming them
 * gives what the current tokenizer gives. Stemming is not idempotent ("agree" → "agre" →
 * "agr"), so only rows written before stemming are rewritten; a row is told by its own text
 * (summary, or key and value): it is unstemmed when its search text holds that text's
 * unstemmed words but not their stems. A row whose text has no word that stemming changes is
 * left as it is (its own words are the same either way).
 */
import { searchDocument, withCalendarWords, withUnitWords } from "../../core/recall/search-text.js";
import type { MemoryLayer } from "../../core/types.js";
import { stem } from "../../text/stem.js";
import { wordTokens } from "../../text/tokenize.js";
import type { SqlExecutor } from "./executor.js";
import { TABLE } from "./rows.js";
import { termsOf, updateCorpus } from "./search-index.js";

const BATCH = 500;

const SOURCE: Record<MemoryLayer, string> = {
  episodic: "summary",
  semantic: "key_text || ' ' || value_text",
};

/**
 * The current search text of a row written before stemming, or undefined when the row is
 * current (or cannot be told apart, see above).
 */
export function restemmedSearchText(searchText: string, sourceText: string): string | undefined {
  const plain = wordTokens(sourceText);
  // Stemming alone, as the tokenizer of the time gave: later changes have their own upgrade.
  const stemmed = plain.map(stem);
  const changed = plain.filter((word, index) => word !== stemmed[index]);
  if (changed.length === 0) return undefined;
  const own = new Set(searchDocument(searchText).own);
  const hasPlain = changed.every((word) => own.has(word));
  const hasStemmed = stemmed
    .filter((word, index) => word !== plain[index])
    .every((word) => own.has(word));
  if (!hasPlain || hasStemmed) return undefined;
  return searchText
    .split(" ")
    .map((token) => (token === "|" || token === "" ? token : stem(token)))
    .join(" ");
}

export interface ReindexReport {
  episodic: number;
  semantic: number;
}

/**
 * The search text of a row written before calendar words had one form (storage/migrations,
 * version 9), or undefined when it is current.
 */
export function calendarSearchText(searchText: string, sourceText: string): string | undefined {
  const upgraded = withCalendarWords(searchText, sourceText);
  return upgraded === searchText ? undefined : upgraded;
}

/**
 * The search text of a row written before units of measure had one form (storage/migrations,
 * version 10), or undefined when it is current.
 */
export function unitSearchText(searchText: string): string | undefined {
  const upgraded = withUnitWords(searchText);
  return upgraded === searchText ? undefined : upgraded;
}

/** Rewrites the unstemmed rows of both layers with their terms and BM25 statistics. */
export function reindexSearchText(tx: SqlExecutor): Promise<ReindexReport> {
  return rewriteSearchTexts(tx, restemmedSearchText);
}

/**
 * Rewrites every row of both layers whose search text `rewrite` changes (given the row's
 * search text and its own text), with its terms and the BM25 statistics.
 */
export async function rewriteSearchTexts(
  tx: SqlExecutor,
  rewrite: (searchText: string, sourceText: string) => string | undefined,
): Promise<ReindexReport> {
  const report: ReindexReport = { episodic: 0, semantic: 0 };
  for (const layer of ["episodic", "semantic"] as const) {
    const table = TABLE[layer];
    let after = "00000000-0000-0000-0000-000000000000";
    for (;;) {
      const rows = await tx.query<{ id: string; search_text: string; source: string }>(
        `SELECT id::text AS id, search_text, ${SOURCE[layer]} AS source FROM ${table}
         WHERE id > $1::uuid ORDER BY id LIMIT ${BATCH}`,
        [after],
      );
      if (rows.length === 0) break;
      after = rows[rows.length - 1]!.id;
      const changed = rows.flatMap((row) => {
        const text = rewrite(row.search_text, row.source);
        return text === undefined ? [] : [{ id: row.id, before: row.search_text, after: text }];
      });
      if (changed.length === 0) continue;
      await tx.query(
        `UPDATE ${table} m SET search_text = c.search_text, terms = c.terms::text[]
         FROM (SELECT unnest($1::uuid[]) AS id, unnest($2::text[]) AS search_text,
                      unnest($3::text[]) AS terms) c
         WHERE m.id = c.id`,
        [
          changed.map((row) => row.id),
          changed.map((row) => row.after),
          // One array literal per row: unnest of a 2-d array would flatten it.
          changed.map((row) => toArrayLiteral(termsOf(row.after))),
        ],
      );
      await updateCorpus(
        tx,
        layer,
        changed.map((row) => row.before),
        -1,
      );
      await updateCorpus(
        tx,
        layer,
        changed.map((row) => row.after),
        1,
      );
      report[layer] += changed.length;
    }
  }
  // Terms no memory holds any more are dead weight in the statistics.
  await tx.query("DELETE FROM search_terms WHERE df <= 0");
  return report;
}

/** A PostgreSQL text[] literal: every element quoted, quotes and backslashes escaped. */
function toArrayLiteral(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(",")}}`;
}
