/**
 * What every surface (library, CLI, REST, MCP) can ask of hindsight. The memory service
 * implements it in-process; a client of another process that owns the embedded store
 * implements it over a local socket.
 */

import type { AuditEntry } from "./audit.js";
import type {
  ConsolidateResponse,
  FeedbackResult,
  JobOptions,
  MaintainResult,
} from "./lifecycle/lifecycle.js";
import type { MemoryHistory, RestoreOutcome } from "./lifecycle/ports.js";
import type { MemoryList, MemoryWithProvenance } from "./memories/browse.js";
import type { UpdateResult } from "./memories/update.js";
import type { MigrationReport } from "./ports.js";
import type { RecallResponse } from "./recall/recall.js";
import type { QuarantineList, SourcesList } from "./sharing/sharing.js";
import type {
  Access,
  Caller,
  Group,
  ReviewResult,
  SourceTrust,
  StoredKnowledge,
} from "./sharing/types.js";
import type { SummaryResult } from "./summarize/summarize-memories.js";
import type { ExportPage, ImportResult } from "./transfer/transfer.js";
import type { ForgetResult, MemoryStats, StoreResult } from "./types.js";
import type {
  WorkingAppendResult,
  WorkingContext,
  WorkingEndResult,
  WorkingSessionList,
} from "./working/types.js";

export interface MemoryApi {
  storeEpisodic(input: unknown): Promise<StoreResult>;
  storeEpisodicBatch(inputs: readonly unknown[]): Promise<{ ids: string[] }>;
  /** `caller`: the agent whose key made the write, which bounds its trust (see sharing). */
  storeSemantic(input: unknown, caller?: Caller): Promise<StoredKnowledge>;
  recall(input: unknown): Promise<RecallResponse>;
  /** One memory of either layer by id, with its provenance. */
  get(input: unknown): Promise<MemoryWithProvenance>;
  /** A page of stored memories by filter, newest first. */
  list(input?: unknown): Promise<MemoryList>;
  /** Corrects a memory: its text, task type, outcome, tags, metadata or confidence. */
  update(input: unknown): Promise<UpdateResult>;
  /** A page of the store in the export format (memories, groups, trust). */
  exportMemories(input?: unknown): Promise<ExportPage>;
  /** Writes exported records into this store; what it holds already is left as it is. */
  importMemories(input: unknown): Promise<ImportResult>;
  forget(input: unknown): Promise<ForgetResult>;
  /** The audit log of destructive operations (forget, delete, merge, supersede, restore). */
  audit(input: unknown): Promise<{ entries: AuditEntry[] }>;
  summarize(input: unknown): Promise<SummaryResult>;
  /** Counts per layer; with `agent_id`, that agent's memories only. */
  stats(input?: unknown): Promise<MemoryStats>;
  maintain(input?: unknown, options?: JobOptions): Promise<MaintainResult>;
  consolidate(input?: unknown, options?: JobOptions): Promise<ConsolidateResponse>;
  feedback(input: unknown): Promise<FeedbackResult>;
  restore(input: unknown): Promise<RestoreOutcome>;
  history(input: unknown): Promise<MemoryHistory>;
  /** Working memory: adds an item to a session, compressing it when over budget. */
  workingAppend(input: unknown): Promise<WorkingAppendResult>;
  /** Working memory: the session assembled within budget, ready to paste into a prompt. */
  workingGet(input: unknown): Promise<WorkingContext>;
  /** Working memory: folds every item that need not stay verbatim into the summary now. */
  workingCompress(input: unknown): Promise<WorkingContext>;
  /** Working memory: promotes the session to an episodic memory and clears it. */
  workingEnd(input: unknown): Promise<WorkingEndResult>;
  /** Working memory: the live sessions, most recently written first, with their budget use. */
  workingList(input?: unknown): Promise<WorkingSessionList>;
  /** Shared memory: adds agents to a group (creating it). */
  grant(input: unknown): Promise<Group>;
  /** Shared memory: removes agents from a group. */
  revoke(input: unknown): Promise<Group>;
  /** Shared memory: the groups and their members. */
  groups(input?: unknown): Promise<{ groups: Group[] }>;
  /** Shared memory: sets how far a source is trusted. */
  setTrust(input: unknown): Promise<SourceTrust>;
  /** Shared memory: the sources with a trust level, and the default for the others. */
  sources(): Promise<SourcesList>;
  /** Shared memory: writes from low-trust sources waiting for review. */
  quarantined(input?: unknown): Promise<QuarantineList>;
  /** Shared memory: confirms or rejects a shared memory. */
  review(input: unknown): Promise<ReviewResult>;
  /** What an agent may do with each memory (own, visible, hidden); for agent keys. */
  access(agent: string, memoryIds: readonly string[]): Promise<Record<string, Access>>;
  /** Resolves when the store answers; for health checks. */
  ping(): Promise<void>;
  /**
   * The schema migrations: those applied when this store was opened (opening applies any that
   * are pending), the version it is at, and which store it is.
   */
  migrate(): Promise<MigrationReport & { store: string }>;
  close(): Promise<void>;
}

/** The operations a surface or a remote client may call, by name: all but close. */
export type MemoryOperation = Exclude<keyof MemoryApi, "close">;
