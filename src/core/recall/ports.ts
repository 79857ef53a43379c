/**
 * What recall needs from storage: candidates to rank, and a record of what was recalled. Full
 * rows of the winners come from the memory records (memories/ports).
 */

import type { ScopeFilter } from "../filters.js";
import type { MemoryLayer, Outcome } from "../types.js";
import type { CorpusStats } from "./bm25.js";

export interface CandidateFilter extends ScopeFilter {
  task_type?: string;
  from?: Date;
  to?: Date;
  include_archived: boolean;
}

export interface CandidateQuery {
  layer: MemoryLayer;
  embedding: Float32Array;
  /** Normalised word tokens of the query (see text/tokenize). */
  keywords: string[];
  filter: CandidateFilter;
  /** How many nearest neighbours and how many keyword hits to fetch, each. */
  limit: number;
  /** A period the query names: its nearest neighbours are fetched too (see ranking). */
  window?: { from: Date; to: Date };
}

/** Candidates of one layer, with the corpus statistics their keyword scores need. */
export interface CandidateSet {
  candidates: Candidate[];
  corpus: CorpusStats;
}

/**
 * What ranking needs of a memory, and no more: full rows are fetched only for the winners.
 */
export interface Candidate {
  layer: MemoryLayer;
  id: string;
  vector_similarity: number;
  /** Segmented words of the memory (see recall/search-text). */
  search_text: string;
  /** Event time for freshness: when it happened (episodic) or was last used (semantic). */
  event_time: Date;
  access_count: number;
  /** Episodic memories only. */
  outcome: Outcome | null;
  /**
   * Whether the memory's own text ends with a question (`?` or `？`): an episode's summary, a
   * fact's value. Ranking weighs it with `RankingOptions.askingWeight`.
   */
  asks: boolean;
}

export interface RecallStore {
  /**
   * Nearest neighbours by vector plus memories sharing the query's more selective words,
   * all passing the filter.
   */
  findCandidates(query: CandidateQuery): Promise<CandidateSet>;
  /** Several queries' candidates (a recall's layers), in the same order, in one round trip. */
  findCandidateSets(queries: readonly CandidateQuery[]): Promise<CandidateSet[]>;
  /** Records that memories were recalled: one more access, at this time. */
  recordAccess(layer: MemoryLayer, ids: readonly string[], at: Date): Promise<void>;
}
