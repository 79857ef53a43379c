/**
 * Recall ranking, first version: a weighted sum of relevance (vector similarity and BM25
 * keyword score) and priors (freshness and access frequency), cut at a score floor.
 *
 * The priors are scaled by relevance, so a brand-new or much-used memory that has nothing to
 * do with the query cannot climb over the floor on freshness alone; the floor is applied to the
 * fused score, so a memory found only by keyword can still be returned.
 */
import { type Bm25Parameters, type CorpusStats, DEFAULT_BM25, normalisedBm25 } from "./bm25.js";
import type { Candidate, CandidateSet } from "./ports.js";
import { searchTokens } from "./search-text.js";
import type { MemoryLayer, ScoreSignals } from "./types.js";

export interface RankedCandidate {
  layer: MemoryLayer;
  id: string;
  score: number;
  signals: ScoreSignals;
}

export interface RankingWeights {
  vector: number;
  keyword: number;
  freshness: number;
  frequency: number;
}

export interface RankingOptions {
  weights: RankingWeights;
  bm25: Bm25Parameters;
  /** Fused scores below this are dropped: nothing is better than noise. */
  floor: number;
  /** Age at which freshness has halved. */
  freshnessHalfLifeDays: number;
}

export const DEFAULT_RANKING: RankingOptions = {
  weights: { vector: 0.5, keyword: 0.2, freshness: 0.2, frequency: 0.1 },
  bm25: DEFAULT_BM25,
  floor: 0.2,
  freshnessHalfLifeDays: 30,
};

const DAY_MS = 86_400_000;

export function freshness(eventTime: Date, now: Date, halfLifeDays: number): number {
  const ageDays = Math.max(0, (now.getTime() - eventTime.getTime()) / DAY_MS);
  return 2 ** (-ageDays / halfLifeDays);
}

export function frequency(accessCount: number): number {
  return Math.min(accessCount / 10, 1);
}

export function scoreCandidate(
  candidate: Candidate,
  queryTerms: readonly string[],
  corpus: CorpusStats,
  now: Date,
  options: RankingOptions,
): { score: number; signals: ScoreSignals } {
  const { weights } = options;
  // A zero query vector (text with no word in it) gives NaN distances in pgvector.
  const similarity = candidate.vector_similarity;
  const vector = Number.isFinite(similarity) ? Math.max(0, similarity) : 0;
  const keyword = normalisedBm25(
    queryTerms,
    searchTokens(candidate.search_text),
    corpus,
    options.bm25,
  );
  const fresh = freshness(candidate.event_time, now, options.freshnessHalfLifeDays);
  const used = frequency(candidate.access_count);
  const relevanceWeight = weights.vector + weights.keyword;
  const relevance =
    relevanceWeight > 0
      ? (weights.vector * vector + weights.keyword * keyword) / relevanceWeight
      : 0;
  const signals: ScoreSignals = {
    vector: weights.vector * vector,
    keyword: weights.keyword * keyword,
    freshness: weights.freshness * fresh * relevance,
    frequency: weights.frequency * used * relevance,
  };
  const score = signals.vector + signals.keyword + signals.freshness + signals.frequency;
  return { score, signals };
}

/**
 * @param queryTerms distinct words of the query
 */
export function rankCandidates(
  sets: readonly CandidateSet[],
  queryTerms: readonly string[],
  now: Date,
  topK: number,
  options: RankingOptions,
): RankedCandidate[] {
  const seen = new Set<string>();
  const ranked: RankedCandidate[] = [];
  for (const { candidates, corpus } of sets) {
    for (const candidate of candidates) {
      if (seen.has(candidate.id)) continue;
      seen.add(candidate.id);
      const { score, signals } = scoreCandidate(candidate, queryTerms, corpus, now, options);
      if (score < options.floor) continue;
      ranked.push({ layer: candidate.layer, id: candidate.id, score, signals });
    }
  }
  ranked.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  return ranked.slice(0, topK);
}
