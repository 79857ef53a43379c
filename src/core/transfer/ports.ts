/** What exporting and importing a store need from storage. */
import type { MemoryLayer } from "../types.js";
import type { ExportedGroup, ExportedMemory, ExportedSemantic, ExportedTrust } from "./format.js";

/** Where an export page ends: memories are exported episodic first, each layer by id. */
export interface ExportPosition {
  layer: MemoryLayer;
  id: string;
}

/** A memory to import, with the vector it is stored under (given or embedded again). */
export type ImportedMemory = ExportedMemory & { embedding: number[] };

/** A piece of knowledge's links to other memories, as exported. */
export type KnowledgeLinks = Pick<
  ExportedSemantic,
  "id" | "sources" | "superseded_by" | "supersedes"
>;

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
   * history, statistics and decay state — and the group memberships and trust settings the
   * store lacks; and makes each of `links` that both of its ends are stored for and the store
   * lacks, whether its knowledge was written now or before (an interrupted import could not
   * link knowledge to episodes that came after it). What exists is otherwise left untouched,
   * so importing a file twice changes nothing the second time.
   */
  importRecords(
    memories: readonly ImportedMemory[],
    groups: readonly ExportedGroup[],
    trust: readonly ExportedTrust[],
    links: readonly KnowledgeLinks[],
  ): Promise<ImportCounts>;
}
