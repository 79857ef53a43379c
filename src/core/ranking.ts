/**
 * Recall ranking, first version: a weighted sum of relevance (vector similarity and keyword
 * coverage) and priors (freshness and access frequency), cut at a score floor.
 *
 * The priors are scaled by relevance, so a brand-new or much-used memory that has nothing to
 * do with the query cannot climb over the floor on freshness alone; the floor is applied to the
 * fused score, so a memory found only by keyword can still be returned.
 */
import type { Candidate } from "./ports.js";
import type { RecalledMemory, ScoreSignals } from "./types.js";

export interface RankingWeights {
  vector: number;
  keyword: number;
  freshness: number;
  frequency: number;
}

export interface RankingOptions {
  weights: RankingWeights;
  /** Fused scores below this are dropped: nothing is better than noise. */
  floor: number;
  /** Age at which freshness has halved. */
  freshnessHalfLifeDays: number;
}

export const DEFAULT_RANKING: RankingOptions = {
  weights: { vector: 0.5, keyword: 0.2, freshness: 0.2, frequency: 0.1 },
  floor: 0.2,
  freshnessHalfLifeDays: 30,
};

const DAY_MS = 86_400_000;

/** Share of the distinct query tokens that occur in the memory's indexed text. */
export function keywordCoverage(queryTokens: readonly string[], searchText: string): number {
  if (queryTokens.length === 0) return 0;
  const words = new Set(searchText.split(" "));
  let hits = 0;
  for (const token of queryTokens) if (words.has(token)) hits++;
  return hits / queryTokens.length;
}

export function freshness(eventTime: Date, now: Date, halfLifeDays: number): number {
  const ageDays = Math.max(0, (now.getTime() - eventTime.getTime()) / DAY_MS);
  return 2 ** (-ageDays / halfLifeDays);
}

export function frequency(accessCount: number): number {
  return Math.min(accessCount / 10, 1);
}

function eventTimeOf(candidate: Candidate): Date {
  return candidate.layer === "episodic"
    ? candidate.memory.occurred_at
    : (candidate.memory.last_used_at ?? candidate.memory.updated_at);
}

export function scoreCandidate(
  candidate: Candidate,
  queryTokens: readonly string[],
  now: Date,
  options: RankingOptions,
): { score: number; signals: ScoreSignals } {
  const { weights } = options;
  // A zero query vector (text with no word in it) gives NaN distances in pgvector.
  const similarity = candidate.vector_similarity;
  const vector = Number.isFinite(similarity) ? Math.max(0, similarity) : 0;
  const keyword = keywordCoverage(queryTokens, candidate.search_text);
  const fresh = freshness(eventTimeOf(candidate), now, options.freshnessHalfLifeDays);
  const used = frequency(candidate.memory.access_count);
  const relevanceWeight = weights.vector + weights.keyword;
  const relevance =
    relevanceWeight > 0 ? (weights.vector * vector + weights.keyword * keyword) / relevanceWeight : 0;
  const signals: ScoreSignals = {
    vector: weights.vector * vector,
    keyword: weights.keyword * keyword,
    freshness: weights.freshness * fresh * relevance,
    frequency: weights.frequency * used * relevance,
  };
  const score = signals.vector + signals.keyword + signals.freshness + signals.frequency;
  return { score, signals };
}

export function rankCandidates(
  candidates: readonly Candidate[],
  queryTokens: readonly string[],
  now: Date,
  topK: number,
  options: RankingOptions,
): RecalledMemory[] {
  const seen = new Set<string>();
  const ranked: RecalledMemory[] = [];
  for (const candidate of candidates) {
    if (seen.has(candidate.memory.id)) continue;
    seen.add(candidate.memory.id);
    const { score, signals } = scoreCandidate(candidate, queryTokens, now, options);
    if (score < options.floor) continue;
    ranked.push({ layer: candidate.layer, score, signals, ...candidate.memory } as RecalledMemory);
  }
  ranked.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  return ranked.slice(0, topK);
}
