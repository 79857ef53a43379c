/**
 * What storing and reading memories by id need from storage: the rows of both layers. A
 * semantic memory is written through the knowledge port (lifecycle/ports), which deduplicates.
 */
import type { EpisodicMemory, MemoryLayer, SemanticMemory } from "../types.js";

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

export interface MemoryRecords {
  /** Inserts in one transaction; an id stored before (a retried request) is skipped. */
  insertEpisodic(rows: readonly NewEpisodic[]): Promise<void>;
  /** Full rows of the given memories; ids that do not exist are left out. */
  getMany(layer: MemoryLayer, ids: readonly string[]): Promise<StoredMemory[]>;
}
