/**
 * Upkeep and reading of the BM25 corpus statistics (document count, total tokens, document
 * frequency per term), in the same transaction as the memory rows they describe.
 */
import { documentLength } from "../../core/recall/bm25.js";
import { searchDocument, searchTokens } from "../../core/recall/search-text.js";
import type { MemoryLayer } from "../../core/types.js";
import type { SqlExecutor } from "./executor.js";

export function termsOf(searchText: string): string[] {
  return [...new Set(searchTokens(searchText))];
}

export interface CorpusSize {
  documents: number;
  analyzed_documents: number;
}

/** Adds (sign 1) or removes (sign -1) documents from the statistics. */
export async function updateCorpus(
  tx: SqlExecutor,
  layer: MemoryLayer,
  searchTexts: readonly string[],
  sign: 1 | -1,
): Promise<CorpusSize> {
  if (searchTexts.length === 0) return { documents: 0, analyzed_documents: 0 };
  const frequency = new Map<string, number>();
  let tokens = 0;
  for (const text of searchTexts) {
    tokens += Math.round(documentLength(searchDocument(text)));
    for (const term of termsOf(text)) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  }
  const [size] = await tx.query<CorpusSize>(
    `INSERT INTO search_stats (layer, documents, tokens) VALUES ($1, $2, $3)
     ON CONFLICT (layer) DO UPDATE SET documents = search_stats.documents + excluded.documents,
       tokens = search_stats.tokens + excluded.tokens
     RETURNING documents::float8 AS documents, analyzed_documents::float8 AS analyzed_documents`,
    [layer, sign * searchTexts.length, sign * tokens],
  );
  if (frequency.size > 0) await addTermFrequencies(tx, layer, frequency, sign);
  return size ?? { documents: 0, analyzed_documents: 0 };
}

async function addTermFrequencies(
  tx: SqlExecutor,
  layer: MemoryLayer,
  frequency: Map<string, number>,
  sign: 1 | -1,
): Promise<void> {
  // Sorted, so concurrent writers lock term rows in the same order and cannot deadlock.
  const terms = [...frequency.keys()].sort();
  await tx.query(
    `INSERT INTO search_terms (layer, term, df)
     SELECT $1, t.term, t.df FROM unnest($2::text[], $3::int[]) AS t(term, df)
     ON CONFLICT (layer, term) DO UPDATE SET df = search_terms.df + excluded.df`,
    [layer, terms, terms.map((term) => sign * frequency.get(term)!)],
  );
}

/** Whether the table has grown enough since the last ANALYZE for plans to go stale. */
export function needsAnalyze(size: CorpusSize): boolean {
  return size.documents >= Math.max(size.analyzed_documents * 1.2, size.analyzed_documents + 100);
}
