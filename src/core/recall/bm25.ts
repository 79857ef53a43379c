/**
 * Okapi BM25 over the memories' indexed words. Corpus statistics (document count, average
 * length, document frequency per term) are kept in the database as memories are written; the
 * score itself is computed here, exactly, for each candidate.
 */
export interface Bm25Parameters {
  k1: number;
  b: number;
}

export const DEFAULT_BM25: Bm25Parameters = { k1: 1.2, b: 0.75 };

/**
 * How much a word of a memory's context (the turns before it in a conversation, say) counts
 * against a word of the memory itself, in term frequency and in length (BM25F-style field
 * weighting): context makes a memory findable by its subject without outranking the memory
 * that says it.
 */
export const CONTEXT_WEIGHT = 0.5;

/** A memory's indexed words: its own, and its context's (weighted by CONTEXT_WEIGHT). */
export interface Bm25Document {
  own: readonly string[];
  context: readonly string[];
}

/** The length BM25 normalises by; the corpus's total is kept rounded per document. */
export function documentLength(document: Bm25Document): number {
  return document.own.length + CONTEXT_WEIGHT * document.context.length;
}

export interface CorpusStats {
  documents: number;
  averageLength: number;
  /** Document frequency of each query term (absent: no document has it). */
  documentFrequency: ReadonlyMap<string, number>;
}

/** Lucene's idf: always positive, so very common words still count a little. */
export function idf(documents: number, documentFrequency: number): number {
  return Math.log(1 + (documents - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/**
 * A document's term frequencies (context words at CONTEXT_WEIGHT) and BM25 length, counted
 * once: ranking scores each candidate against several word sets (each question of the query,
 * the feedback words), and counting its words again for each was most of ranking's time.
 */
export interface TermCounts {
  readonly counts: ReadonlyMap<string, number>;
  readonly length: number;
}

export function termCounts(documentTokens: readonly string[] | Bm25Document): TermCounts {
  const document: Bm25Document =
    "own" in documentTokens ? documentTokens : { own: documentTokens, context: [] };
  const counts = new Map<string, number>();
  for (const token of document.own) counts.set(token, (counts.get(token) ?? 0) + 1);
  for (const token of document.context)
    counts.set(token, (counts.get(token) ?? 0) + CONTEXT_WEIGHT);
  return { counts, length: documentLength(document) };
}

function asCounts(document: readonly string[] | Bm25Document | TermCounts): TermCounts {
  return "counts" in document ? document : termCounts(document);
}

export function bm25(
  queryTerms: readonly string[],
  documentTokens: readonly string[] | Bm25Document | TermCounts,
  corpus: CorpusStats,
  parameters: Bm25Parameters = DEFAULT_BM25,
): number {
  if (queryTerms.length === 0) return 0;
  const { counts, length } = asCounts(documentTokens);
  if (length === 0) return 0;
  const { k1, b } = parameters;
  const lengthNorm = 1 - b + b * (length / Math.max(corpus.averageLength, 1));
  let score = 0;
  for (const term of queryTerms) {
    const tf = counts.get(term);
    if (!tf) continue;
    const weight = idf(corpus.documents, corpus.documentFrequency.get(term) ?? 0);
    score += (weight * tf * (k1 + 1)) / (tf + k1 * lengthNorm);
  }
  return score;
}

/**
 * BM25 scaled to 0..1 against the score of an average-length document holding every query
 * term once, so it can be fused with cosine similarity on a fixed scale. Terms no memory holds
 * stay in that ideal (at the highest idf): left out, a single common word shared with an
 * unrelated memory ("where are the UI drafts kept?" → "logs are kept 30 days") would score as
 * a full match.
 */
export function normalisedBm25(
  queryTerms: readonly string[],
  documentTokens: readonly string[] | Bm25Document | TermCounts,
  corpus: CorpusStats,
  parameters: Bm25Parameters = DEFAULT_BM25,
): number {
  let ideal = 0;
  for (const term of queryTerms) {
    ideal += idf(corpus.documents, corpus.documentFrequency.get(term) ?? 0);
  }
  if (ideal === 0) return 0;
  return Math.min(1, bm25(queryTerms, documentTokens, corpus, parameters) / ideal);
}
