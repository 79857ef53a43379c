/**
 * What storing and reading memories by id need from storage: the rows of both layers. A
 * semantic memory is written through the knowledge port (lifecycle/ports), which deduplicates.
 */
import type { ScopeFilter } from "../filters.js";
import type { ListStatus } from "../schemas.js";
import type { EpisodicMemory, JsonObject, MemoryLayer, SemanticMemory } from "../types.js";

export type NewEpisodic = Omit<EpisodicMemory, "access_count" | "last_accessed_at"> & {
  embedding: Float32Array;
  search_text: string;
};

export type NewSemantic = Omit<
  SemanticMemory,
  "access_count" | "last_used_at" | "decay_score" | "superseded_by"
> & {
  embedding: Float32Array;
  search_text: string;
  source_episode_ids: string[];
};

export type StoredMemory =
  | ({ layer: "episodic" } & EpisodicMemory)
  | ({ layer: "semantic" } & SemanticMemory);

/** Where a page of a listing ends: the next page starts after it. */
export interface ListPosition {
  /** When it happened (episodic) or became valid (semantic): listings are newest first. */
  at: Date;
  layer: MemoryLayer;
  id: string;
}

export interface ListQuery {
  layers: readonly MemoryLayer[];
  filter: ScopeFilter & {
    status: ListStatus;
    task_type?: string;
    /** On the listing's time: occurred_at (episodic), valid_from (semantic). */
    from?: Date;
    to?: Date;
  };
  limit: number;
  after?: ListPosition;
}

export interface MemoryPage {
  memories: StoredMemory[];
  /** Memories matching the filter on all pages. */
  total: number;
  /** Absent on the last page. */
  next?: ListPosition;
}

/**
 * A correction by hand: the columns to set (only those that change), and when the text or
 * the tags change, the new vector and the memory's own search words (its context's words are
 * kept as they were).
 */
export interface MemoryCorrection {
  layer: MemoryLayer;
  id: string;
  set: Partial<
    Pick<
      EpisodicMemory & SemanticMemory,
      | "summary"
      | "key_text"
      | "value_text"
      | "task_type"
      | "outcome"
      | "tags"
      | "metadata"
      | "confidence"
    >
  >;
  embedding?: Float32Array;
  /** The search text of the memory's own words (see recall/search-text). */
  search_text?: string;
  at: Date;
  reason: string;
  /** For its history: the fields changed and what they said before. */
  details: JsonObject;
}

export interface MemoryRecords {
  /** Inserts in one transaction; an id stored before (a retried request) is skipped. */
  insertEpisodic(rows: readonly NewEpisodic[]): Promise<void>;
  /** Full rows of the given memories; ids that do not exist are left out. */
  getMany(layer: MemoryLayer, ids: readonly string[]): Promise<StoredMemory[]>;
  /** A page of the memories matching the filter, newest first, in a stable order. */
  list(query: ListQuery): Promise<MemoryPage>;
  /**
   * Applies a correction with its `updated` event in the history and the audit log, in one
   * transaction; false when the memory no longer exists.
   */
  update(correction: MemoryCorrection): Promise<boolean>;
}
