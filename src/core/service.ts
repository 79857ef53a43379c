/**
 * The memory service: the composition root of the core. It wires each feature — storing,
 * recall, the lifecycle, sharing, working memory, summaries — to its own storage port and
 * answers the operations of `MemoryApi` by handing each to its feature. CLI, REST and MCP are
 * thin translators over these methods.
 */
import type { AuditEntry } from "./audit.js";
import { Turns } from "./concurrency.js";
import { embedChecked } from "./embed.js";
import { ErrorCode, HindsightError } from "./errors.js";
import {
  type ConsolidateResponse,
  type FeedbackResult,
  type JobOptions,
  Lifecycle,
  type MaintainResult,
} from "./lifecycle/lifecycle.js";
import type { MemoryHistory, RestoreOutcome } from "./lifecycle/ports.js";
import { DEFAULT_LIFECYCLE, type LifecycleSettings } from "./lifecycle/settings.js";
import { LlmFallbacks } from "./llm/fallbacks.js";
import { llmStats } from "./llm/stats.js";
import {
  getMemory,
  listMemories,
  type MemoryList,
  type MemoryWithProvenance,
} from "./memories/browse.js";
import { findMemories } from "./memories/read.js";
import { storeEpisodes } from "./memories/store-episodic.js";
import { storeKnowledge } from "./memories/store-semantic.js";
import { type UpdateResult, updateMemory } from "./memories/update.js";
import type { MemoryApi } from "./memory-api.js";
import type {
  Clock,
  Embedder,
  EmbedPurpose,
  LanguageModel,
  Logger,
  MigrationReport,
  Storage,
} from "./ports.js";
import { QueryVectors } from "./query-vectors.js";
import type { RankingOptions } from "./recall/ranking.js";
import { Recall, type RecallOptions, type RecallResponse } from "./recall/recall.js";
import { parseInstant } from "./recall/time/range.js";
import { warmUpRecall } from "./recall/warm-up.js";
import { AuditInput, StatsInput } from "./schemas.js";
import {
  DEFAULT_SHARING,
  type QuarantineList,
  SharedMemory,
  type SharingSettings,
  type SourcesList,
} from "./sharing/sharing.js";
import type {
  Access,
  Caller,
  Group,
  ReviewResult,
  SourceTrust,
  StoredKnowledge,
} from "./sharing/types.js";
import { summarize } from "./summarize/summarize.js";
import type { SummaryResult, TokenCounter } from "./summarize/summarize-memories.js";
import {
  type ExportPage,
  exportMemories,
  type ImportResult,
  importMemories,
  type TransferDeps,
} from "./transfer/transfer.js";
import type { ForgetResult, MemoryStats, StoreResult } from "./types.js";
import { isoDates, validate } from "./validate.js";
import type { WorkingMemoryStore } from "./working/ports.js";
import type {
  WorkingAppendResult,
  WorkingContext,
  WorkingEndResult,
  WorkingSessionList,
} from "./working/types.js";
import { WorkingMemory } from "./working/working-memory.js";

/** Query vectors kept per service: 1.5 kB each at 384 dimensions, under 1 MB in all. */
const QUERY_VECTORS_KEPT = 512;

export type { RecallOptions, RecallResponse } from "./recall/recall.js";

export interface MemoryServiceOptions {
  storage: Storage;
  embedder: Embedder;
  clock: Clock;
  logger: Logger;
  ranking: RankingOptions;
  /** Nearest neighbours and keyword hits fetched per layer before ranking. */
  candidateLimit: number;
  tokens: TokenCounter;
  /**
   * Writes summaries of interactions and memory groups, and working-memory summaries (cheap
   * tier); absent for provider `none`, whose fallbacks are extractive or rule-based.
   */
  llm?: LanguageModel | undefined;
  /** Working memory's store and limits; without it the working operations are unavailable. */
  working?: { store: WorkingMemoryStore; budgetTokens: number; ttlSeconds: number };
  /** Decay, consolidation, deduplication; defaults to DEFAULT_LIFECYCLE. */
  lifecycle?: LifecycleSettings;
  /** Shared memory's default trust; defaults to DEFAULT_SHARING. */
  sharing?: SharingSettings;
}

export class MemoryService implements MemoryApi {
  readonly storage: Storage;
  readonly embedder: Embedder;
  private readonly options: MemoryServiceOptions;
  private migration: MigrationReport | undefined;
  private readonly fallbacks: LlmFallbacks;
  private readonly recaller: Recall;
  private readonly lifecycle: Lifecycle;
  private readonly shared: SharedMemory;
  private readonly working: WorkingMemory | undefined;
  /** Imports write one at a time, in the order asked (transfer/importMemories). */
  private readonly importWrites = new Turns();
  /** Recent queries' vectors: an agent asks the same thing again (see query-vectors). */
  private readonly queryVectors = new QueryVectors(QUERY_VECTORS_KEPT);
  /** The warm-up recalls in flight (see warmUp), which closing waits for. */
  private warming: Promise<void> = Promise.resolve();
  private closing = false;

  constructor(options: MemoryServiceOptions) {
    const { storage, clock, logger, llm } = options;
    this.options = options;
    this.storage = storage;
    this.embedder = options.embedder;
    this.fallbacks = new LlmFallbacks(logger);
    const embed = (texts: string[]) => this.embed(texts);
    this.recaller = new Recall({
      recall: storage.recall,
      memories: storage.memories,
      embedder: options.embedder,
      embed: (texts, purpose) => this.embed(texts, purpose),
      clock,
      logger,
      ranking: options.ranking,
      candidateLimit: options.candidateLimit,
    });
    this.lifecycle = new Lifecycle({
      memories: storage.memories,
      knowledge: storage.knowledge,
      lifecycle: storage.lifecycle,
      consolidation: storage.consolidation,
      clock,
      logger,
      settings: options.lifecycle ?? DEFAULT_LIFECYCLE,
      llm,
      fallbacks: this.fallbacks,
      embed,
      similarity: options.embedder.similarity,
    });
    this.shared = new SharedMemory({
      store: storage.sharing,
      clock,
      logger,
      settings: options.sharing ?? DEFAULT_SHARING,
    });
    this.working =
      options.working &&
      new WorkingMemory({
        ...options.working,
        clock,
        logger,
        tokens: options.tokens,
        llm,
        storeEpisodic: (input) => this.storeEpisodic(input),
      });
  }

  // ---- Storing (see memories/).

  /**
   * Stores one task interaction as an episodic memory. Given a raw `interaction`, the summary
   * is written for it (and returned, with how it was written).
   */
  async storeEpisodic(input: unknown): Promise<StoreResult> {
    const [stored] = await this.storeEpisodes([input]);
    return stored!;
  }

  /**
   * Stores many episodic memories in one transaction: all are validated before anything is
   * summarised, embedded or written, so one bad item writes nothing.
   */
  async storeEpisodicBatch(inputs: readonly unknown[]): Promise<{ ids: string[] }> {
    const stored = await this.storeEpisodes(inputs);
    return { ids: stored.map((item) => item.id) };
  }

  private storeEpisodes(inputs: readonly unknown[]): Promise<StoreResult[]> {
    return storeEpisodes(
      {
        memories: this.storage.memories,
        clock: this.options.clock,
        llm: this.options.llm,
        fallbacks: this.fallbacks,
        embed: (texts) => this.embed(texts),
      },
      inputs,
    );
  }

  /**
   * Stores a rule or fact as a semantic memory, linked to the episodes it came from. A
   * near-duplicate merges into the memory it repeats; a contradiction supersedes the older
   * fact (see lifecycle/knowledge).
   */
  storeSemantic(input: unknown, caller?: Caller): Promise<StoredKnowledge> {
    return storeKnowledge(
      {
        clock: this.options.clock,
        logger: this.options.logger,
        shared: this.shared,
        lifecycle: this.lifecycle,
        embed: (texts) => this.embed(texts),
      },
      input,
      caller,
    );
  }

  // ---- Looking at and correcting what is stored (see memories/browse, memories/update).

  /** One memory of either layer by id, with its provenance; reading it is no access. */
  get(input: unknown): Promise<MemoryWithProvenance> {
    return getMemory({ memories: this.storage.memories, lifecycle: this.storage.lifecycle }, input);
  }

  /** A page of stored memories by filter, newest first, with the total and the next cursor. */
  list(input: unknown = {}): Promise<MemoryList> {
    return listMemories(this.storage.memories, input);
  }

  /** Corrects a memory by hand: re-embedded and re-indexed as needed, kept in its history. */
  update(input: unknown): Promise<UpdateResult> {
    return updateMemory(
      {
        memories: this.storage.memories,
        clock: this.options.clock,
        logger: this.options.logger,
        embed: (texts) => this.embed(texts),
      },
      input,
    );
  }

  // ---- Moving a store (see transfer/).

  /** A page of the store in the export format: memories, and groups and trust on the first. */
  exportMemories(input: unknown = {}): Promise<ExportPage> {
    return exportMemories(this.transferDeps(), input);
  }

  /** Writes exported records; same ids, so importing twice changes nothing the second time. */
  importMemories(input: unknown): Promise<ImportResult> {
    return importMemories(this.transferDeps(), input);
  }

  private transferDeps(): TransferDeps {
    return {
      transfer: this.storage.transfer,
      memories: this.storage.memories,
      embedder: this.embedder,
      embed: (texts) => this.embed(texts),
      now: () => this.options.clock.now(),
      writes: this.importWrites,
    };
  }

  // ---- Recall and summaries (see recall/, summarize/).

  /** Finds the memories most relevant to a query, best first, none below the score floor. */
  recall(input: unknown, options: RecallOptions = {}): Promise<RecallResponse> {
    return this.recaller.recall(input, options);
  }

  /**
   * Compresses memories (given by id, or recalled for a query) into a summary within budget,
   * or a working-memory session into its four-part summary.
   */
  summarize(input: unknown): Promise<SummaryResult> {
    return summarize(
      {
        memories: this.storage.memories,
        tokens: this.options.tokens,
        llm: this.options.llm,
        fallbacks: this.fallbacks,
        embed: (texts) => this.embed(texts),
        similarity: this.embedder.similarity,
        recall: (request) => this.recall(request),
        compressSession: (request) => this.workingMemory().compress(request),
      },
      input,
    );
  }

  // ---- The lifecycle: forgetting, decay, consolidation, feedback (see lifecycle/).

  /** Soft: archive (left out of recall, reversible). Hard: delete for good. */
  forget(input: unknown): Promise<ForgetResult> {
    return this.lifecycle.forget(input);
  }

  /**
   * Resolves once the access counts of the recalls answered so far are written. A recall
   * returns before its count is written (the next recall waits for it): a caller that reads the
   * counts, or times what comes after, waits here.
   */
  accessCountsWritten(): Promise<void> {
    return this.recaller.settled();
  }

  /** Decay and cold storage (see lifecycle): `{ archived, reactivated, scored, … }`. */
  async maintain(input: unknown = {}, options?: JobOptions): Promise<MaintainResult> {
    // Recalls answered just before count as accesses: wait for their counts to be written.
    await this.recaller.settled();
    return this.lifecycle.maintain(input, options);
  }

  /** Draws semantic patterns from task types with enough unconsolidated episodes. */
  consolidate(input: unknown = {}, options?: JobOptions): Promise<ConsolidateResponse> {
    return this.lifecycle.consolidate(input, options);
  }

  /** A recalled memory was (not) useful: its confidence rises (falls). */
  feedback(input: unknown): Promise<FeedbackResult> {
    return this.lifecycle.feedback(input);
  }

  /** Brings an archived memory back from cold storage. */
  restore(input: unknown): Promise<RestoreOutcome> {
    return this.lifecycle.restore(input);
  }

  /** What happened to a memory, when and why. */
  history(input: unknown): Promise<MemoryHistory> {
    return this.lifecycle.history(input);
  }

  /** The audit log of forgets, deletes, merges, supersedes and restores, newest first. */
  async audit(input: unknown): Promise<{ entries: AuditEntry[] }> {
    const request = validate(AuditInput, isoDates(input));
    const entries = await this.storage.audit.list({
      ...(request.since ? { since: parseInstant(request.since)! } : {}),
      ...(request.until ? { until: parseInstant(request.until)! } : {}),
      ...(request.operation ? { operation: request.operation } : {}),
      ...(request.memory_id ? { memory_id: request.memory_id } : {}),
      ...(request.target ? { target: request.target } : {}),
      limit: request.limit,
    });
    return { entries };
  }

  // ---- Shared memory: groups, source trust, quarantine and reviews (see sharing/).

  grant(input: unknown): Promise<Group> {
    return this.shared.grant(input);
  }
  revoke(input: unknown): Promise<Group> {
    return this.shared.revoke(input);
  }
  groups(input: unknown = {}): Promise<{ groups: Group[] }> {
    return this.shared.groups(input);
  }
  setTrust(input: unknown): Promise<SourceTrust> {
    return this.shared.setTrust(input);
  }
  sources(): Promise<SourcesList> {
    return this.shared.sources();
  }
  quarantined(input: unknown = {}): Promise<QuarantineList> {
    return this.shared.quarantined(input);
  }
  review(input: unknown): Promise<ReviewResult> {
    return this.shared.review(input);
  }

  /**
   * What an agent may do with each memory: `own`, `visible` (its groups' confirmed
   * knowledge) or `hidden`; unknown ids are left out. Agent keys check this before reading or
   * changing a memory by id (tenants/agent-scope); it is no surface's operation.
   */
  async access(agent: string, memoryIds: readonly string[]): Promise<Record<string, Access>> {
    const found = await findMemories(this.storage.memories, memoryIds);
    return this.shared.access(agent, [...found.values()]);
  }

  // ---- Working memory (see working/).

  workingAppend(input: unknown): Promise<WorkingAppendResult> {
    return this.workingMemory().append(input);
  }

  workingGet(input: unknown): Promise<WorkingContext> {
    return this.workingMemory().get(input);
  }

  workingCompress(input: unknown): Promise<WorkingContext> {
    return this.workingMemory().compress(input);
  }

  workingEnd(input: unknown): Promise<WorkingEndResult> {
    return this.workingMemory().end(input);
  }

  workingList(input?: unknown): Promise<WorkingSessionList> {
    return this.workingMemory().list(input);
  }

  private workingMemory(): WorkingMemory {
    if (!this.working) {
      throw new HindsightError(
        ErrorCode.CONFIG_INVALID,
        "working memory is not configured: give the service a working-memory store",
      );
    }
    return this.working;
  }

  // ---- The store itself.

  ping(): Promise<void> {
    return this.storage.admin.ping();
  }

  async migrate(): Promise<MigrationReport & { store: string }> {
    this.migration ??= await this.storage.admin.migrate(this.embedder);
    return { ...this.migration, store: this.storage.admin.description };
  }

  async stats(input: unknown = {}): Promise<MemoryStats> {
    const { agent_id: agent } = validate(StatsInput, input);
    return {
      episodic: await this.storage.admin.counts("episodic", agent),
      semantic: await this.storage.admin.counts("semantic", agent),
      store: this.storage.admin.description,
      embedder: this.embedder.id,
      llm: llmStats(this.options.llm, this.fallbacks),
      working: this.options.working?.store.description ?? null,
    };
  }

  /**
   * Starts a few read-only recalls in the background, so that a serving process's first recalls
   * run at full speed (see recall/warm-up). Nothing needs to wait for the promise, which never
   * rejects; closing waits for it.
   */
  warmUp(): Promise<void> {
    this.warming = warmUpRecall(
      (input, options) => this.recall(input, options),
      () => this.closing,
      this.options.logger,
    );
    return this.warming;
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.warming;
    await this.recaller.settled();
    await this.working?.close();
    await this.embedder.close?.();
    await this.storage.admin.close();
  }

  private embed(texts: string[], purpose: EmbedPurpose = "document"): Promise<Float32Array[]> {
    if (purpose === "query") {
      return this.queryVectors.embed(texts, (missing) =>
        embedChecked(this.embedder, missing, "query"),
      );
    }
    return embedChecked(this.embedder, texts, purpose);
  }
}
