/** What exporting and importing a store need from storage. */
import type { MemoryLayer } from "../types.js";
import type { ExportedGroup, ExportedMemory, ExportedTrust } from "./format.js";

/** Where an export page ends: memories are exported episodic first, each layer by id. */
export interface ExportPosition {
  layer: MemoryLayer;
  id: string;
}

/** A memory to import, with the vector it is stored under (given or embedded again). */
export type ImportedMemory = ExportedMemory & { embedding: number[] };

export interface ImportCounts {
  /** Memories written. */
  imported: number;
  /** Memories whose id the store holds already: left as they are. */
  skipped: number;
  groups: number;
  trust: number;
}

export interface TransferStore {
  /** Memories after `after`, with their history, links, statistics and (optionally) vectors. */
  exportMemories(
    after: ExportPosition | undefined,
    limit: number,
    withVectors: boolean,
  ): Promise<{ memories: ExportedMemory[]; next?: ExportPosition }>;
  /** Every group with its members, and every source's trust. */
  exportSharing(): Promise<{ groups: ExportedGroup[]; trust: ExportedTrust[] }>;
  /**
   * Writes, in one transaction, the memories whose ids are not stored yet — with their
   * history, statistics, decay state and the links to what is already there — and the group
   * memberships and trust settings the store lacks. What exists is left untouched, so
   * importing a file twice changes nothing the second time.
   */
  importRecords(
    memories: readonly ImportedMemory[],
    groups: readonly ExportedGroup[],
    trust: readonly ExportedTrust[],
  ): Promise<ImportCounts>;
}
