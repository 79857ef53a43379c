/**
 * The memory service: the one place where storing, recalling and forgetting happen. CLI, REST
 * and MCP are thin translators over these methods.
 */
import { randomUUID } from "node:crypto";
import { scriptCoverage } from "../text/scripts.js";
import type { AuditEntry } from "./audit.js";
import { mapConcurrent } from "./concurrency.js";
import { embedChecked } from "./embed.js";
import { embeddingText } from "./embedding-text.js";
import { interactionMetadata, summariseInteraction } from "./episode-summary.js";
import { ErrorCode, HindsightError, invalidInput, notFound } from "./errors.js";
import {
  type ConsolidateResponse,
  type FeedbackResult,
  type JobOptions,
  Lifecycle,
  type MaintainResult,
} from "./lifecycle/lifecycle.js";
import { DEFAULT_LIFECYCLE, type LifecycleSettings } from "./lifecycle/settings.js";
import type { MemoryHistory, RestoreOutcome } from "./lifecycle/store-port.js";
import { LlmFallbacks } from "./llm/fallbacks.js";
import { llmStats } from "./llm/stats.js";
import type { MemoryApi } from "./memory-api.js";
import type {
  CandidateSet,
  Clock,
  Embedder,
  EmbedPurpose,
  LanguageModel,
  Logger,
  MemoryStore,
  MigrationReport,
  NewEpisodic,
  NewSemantic,
  StoredMemory,
} from "./ports.js";
import {
  interleave,
  type RankedCandidate,
  type RankingOptions,
  rankCandidates,
  type TimeWindow,
} from "./ranking.js";
import {
  AuditInput,
  ForgetInput,
  LIMITS,
  RecallInput,
  recallInputSchema,
  StatsInput,
  StoreEpisodicInput,
  StoreSemanticInput,
  SummarizeInput,
} from "./schemas.js";
import { namesSubject, queryClauses, queryTerms, searchText } from "./search-text.js";
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
import { type SummaryResult, summarizeMemories, type TokenCounter } from "./summarize.js";
import { findTimeExpressions, stripTimeExpressions } from "./time-expressions.js";
import { parseInstant, parseTimeRange } from "./time-range.js";
import type {
  ForgetResult,
  MemoryLayer,
  MemoryStats,
  RecalledMemory,
  StoreResult,
} from "./types.js";
import { validate } from "./validate.js";
import { renderSummary } from "./working/context.js";
import type { WorkingMemoryStore } from "./working/ports.js";
import type { WorkingAppendResult, WorkingContext, WorkingEndResult } from "./working/types.js";
import { WorkingMemory } from "./working/working-memory.js";

export interface MemoryServiceOptions {
  store: MemoryStore;
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

/** Interactions summarised at once in a batch store: a small limit spares rate limits. */
const SUMMARY_CONCURRENCY = 4;

/** Library-only recall options, not part of any wire format. */
export interface RecallOptions {
  /** Allows top_k above the public limit of 20 (evaluations measure recall@25 and more). */
  maxTopK?: number;
  /**
   * Counts the recall as an access to each result (default). Evaluations turn it off: one
   * question's recall must not change how the next one ranks.
   */
  recordAccess?: boolean;
}

export interface RecallResponse {
  results: RecalledMemory[];
  /** Periods the query named ("last week", "上周三"), which boosted memories from then. */
  time_expressions?: { text: string; from: Date; to: Date; precision: "exact" | "approximate" }[];
}

/** The smallest period covering all the windows: where to look for memories from then. */
function spanOf(windows: readonly TimeWindow[]): TimeWindow {
  return {
    from: new Date(Math.min(...windows.map((window) => window.from.getTime()))),
    to: new Date(Math.max(...windows.map((window) => window.to.getTime()))),
  };
}

/** Library callers may pass Dates where the wire format has ISO strings. */
function isoDates<T>(input: T): T {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return input;
  const copy: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  for (const [key, value] of Object.entries(copy)) {
    if (value instanceof Date) copy[key] = value.toISOString();
  }
  return copy as T;
}

type ScopeInput = Pick<
  StoreEpisodicInput,
  "metadata" | "tags" | "source" | "subject" | "user_id" | "agent_id" | "session_id"
>;

/** The fields both layers share, with their defaults. */
function scopeOf(item: ScopeInput) {
  return {
    metadata: item.metadata ?? {},
    tags: item.tags ?? [],
    source: item.source ?? null,
    subject: item.subject ?? null,
    user_id: item.user_id ?? null,
    agent_id: item.agent_id ?? null,
    session_id: item.session_id ?? null,
  };
}

/**
 * The recall schema for a top_k ceiling, built once per ceiling: zod compiles a schema on its
 * first use, which cost evaluations ~1 ms per recall at p50 and 20 ms at p90 when a new one was
 * built for every call.
 */
const recallSchemas = new Map<number, ReturnType<typeof recallInputSchema>>();
function recallSchema(maxTopK: number): ReturnType<typeof recallInputSchema> {
  let schema = recallSchemas.get(maxTopK);
  if (!schema) {
    schema = recallInputSchema(maxTopK);
    recallSchemas.set(maxTopK, schema);
  }
  return schema;
}

export class MemoryService implements MemoryApi {
  readonly store: MemoryStore;
  readonly embedder: Embedder;
  private readonly clock: Clock;
  private readonly options: MemoryServiceOptions;
  private pendingAccess: Promise<void> = Promise.resolve();
  private migration: MigrationReport | undefined;
  private readonly lifecycle: Lifecycle;
  private readonly fallbacks: LlmFallbacks;
  private readonly working: WorkingMemory | undefined;
  private readonly shared: SharedMemory;

  constructor(options: MemoryServiceOptions) {
    this.options = options;
    this.fallbacks = new LlmFallbacks(options.logger);
    this.store = options.store;
    this.embedder = options.embedder;
    this.clock = options.clock;
    this.lifecycle = new Lifecycle({
      store: options.store,
      clock: options.clock,
      logger: options.logger,
      settings: options.lifecycle ?? DEFAULT_LIFECYCLE,
      llm: options.llm,
      fallbacks: this.fallbacks,
      embed: (texts) => this.embed(texts),
      similarity: options.embedder.similarity,
    });
    this.shared = new SharedMemory({
      store: options.store,
      clock: options.clock,
      logger: options.logger,
      settings: options.sharing ?? DEFAULT_SHARING,
    });
    this.working =
      options.working &&
      new WorkingMemory({
        ...options.working,
        clock: options.clock,
        logger: options.logger,
        tokens: options.tokens,
        llm: options.llm,
        storeEpisodic: (input) => this.storeEpisodic(input),
      });
  }

  /**
   * Stores one task interaction as an episodic memory. Given a raw `interaction`, the summary
   * is written for it (and returned, with how it was written).
   */
  async storeEpisodic(input: unknown): Promise<StoreResult> {
    const [stored] = await this.storeEpisodicItems([input]);
    return stored!;
  }

  /**
   * Stores many episodic memories in one transaction: all are validated before anything is
   * summarised, embedded or written, so one bad item writes nothing.
   */
  async storeEpisodicBatch(inputs: readonly unknown[]): Promise<{ ids: string[] }> {
    const stored = await this.storeEpisodicItems(inputs);
    return { ids: stored.map((item) => item.id) };
  }

  private async storeEpisodicItems(inputs: readonly unknown[]): Promise<StoreResult[]> {
    const parsed = inputs.map((input, index) => {
      try {
        return validate(StoreEpisodicInput, isoDates(input));
      } catch (error) {
        if (inputs.length === 1) throw error;
        throw prefixField(error, `[${index}]`);
      }
    });
    // A failing model never loses a memory: summariseInteraction falls back to extractive.
    const written = await mapConcurrent(parsed, SUMMARY_CONCURRENCY, (item) =>
      item.interaction === undefined
        ? Promise.resolve(undefined)
        : summariseInteraction(
            this.options.llm,
            { interaction: item.interaction, task_type: item.task_type, outcome: item.outcome },
            this.fallbacks,
          ),
    );
    const summaries = parsed.map((item, index) => written[index]?.summary ?? item.summary!);
    const embeddings = await this.embed(
      parsed.map((item, index) =>
        embeddingText("episodic", { task_type: item.task_type, summary: summaries[index]! }),
      ),
    );
    const now = this.clock.now();
    const rows: NewEpisodic[] = parsed.map((item, index) => ({
      id: item.id ?? randomUUID(),
      occurred_at: item.occurred_at ? parseInstant(item.occurred_at)! : now,
      recorded_at: now,
      task_type: item.task_type,
      summary: summaries[index]!,
      outcome: item.outcome,
      ...scopeOf(item),
      ...interactionMetadata(item.metadata, item.interaction, written[index]),
      confidence: storableConfidence(item.confidence),
      decay_score: 1,
      status: "active",
      embedding: embeddings[index]!,
      search_text: searchText(
        [item.task_type, summaries[index]!, ...(item.tags ?? [])],
        item.context,
      ),
    }));
    await this.store.insertEpisodic(rows);
    return rows.map((row, index) => {
      const summary = written[index];
      return summary
        ? { id: row.id, summary: summary.summary, summary_source: summary.source }
        : { id: row.id };
    });
  }

  /**
   * Stores a rule or fact as a semantic memory, linked to the episodes it came from. A
   * near-duplicate merges into the memory it repeats; a contradiction supersedes the older
   * fact (see lifecycle/knowledge).
   */
  async storeSemantic(input: unknown, caller?: Caller): Promise<StoredKnowledge> {
    const item = validate(StoreSemanticInput, isoDates(input));
    const sharing = await this.shared.admit(item, caller);
    const [embedding] = await this.embed([embeddingText("semantic", item)]);
    const now = this.clock.now();
    const id = item.id ?? randomUUID();
    const row: NewSemantic = {
      id,
      key_text: item.key_text,
      value_text: item.value_text,
      task_type: item.task_type ?? null,
      confidence: storableConfidence(item.confidence),
      created_at: now,
      updated_at: now,
      valid_from: item.valid_from ? parseInstant(item.valid_from)! : now,
      valid_to: null,
      ...scopeOf(item),
      status: "active",
      embedding: embedding!,
      search_text: searchText([item.key_text, item.value_text, ...(item.tags ?? [])]),
      source_episode_ids: [...new Set(item.source_episode_ids ?? [])],
      ...sharing,
    };
    const added = await this.lifecycle.addKnowledge({ row, requestId: item.id, reason: "stored" });
    if (sharing.shared_group === null) return added;
    if (sharing.review_status === "quarantined") {
      this.options.logger.info("shared memory quarantined until reviewed", {
        id: added.id,
        group: sharing.shared_group,
        source: item.source,
      });
    }
    return { ...added, shared_group: sharing.shared_group, review_status: sharing.review_status! };
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
    const memories: StoredMemory[] = [];
    const unique = [...new Set(memoryIds)];
    for (const layer of ["episodic", "semantic"] as const) {
      memories.push(...(await this.store.getMany(layer, unique)));
    }
    return this.shared.access(agent, memories);
  }

  /** Finds the memories most relevant to a query, best first, none below the score floor. */
  async recall(input: unknown, options: RecallOptions = {}): Promise<RecallResponse> {
    const schema = options.maxTopK === undefined ? RecallInput : recallSchema(options.maxTopK);
    const request = validate(schema, input);
    const range = request.time_range ? parseTimeRange(request.time_range) : {};
    if (typeof range === "string") throw invalidInput("time_range", range);
    const layers: MemoryLayer[] =
      request.memory_layer === "all" ? ["episodic", "semantic"] : [request.memory_layer];
    const now = this.clock.now();
    // Periods named in the query boost memories from then, unless an explicit range filters.
    const expressions = request.time_range
      ? []
      : findTimeExpressions(
          request.query_text,
          request.query_time ? parseInstant(request.query_time)! : now,
          {
            ...(request.time_zone ? { timeZone: request.time_zone } : {}),
          },
        );
    const windows = expressions.map(({ from, to }) => ({ from, to }));
    // "yesterday" is not a word to look for in memories: search what the query is about.
    const about =
      stripTimeExpressions(request.query_text, expressions).trim() || request.query_text;
    // A query of several questions is several searches, each with its own vector and words,
    // whose rankings are interleaved: one vector for "where does my boss live? and when is
    // the meeting?" would favour memories about both over the answer to either.
    const clauses = queryClauses(about);
    const searches = clauses.length >= 2 ? clauses : [{ text: about, terms: queryTerms(about) }];
    const embeddings = await this.embed(
      searches.map((search) => search.text),
      "query",
    );
    await this.pendingAccess;
    const filter = {
      ...(request.task_type_filter === undefined ? {} : { task_type: request.task_type_filter }),
      ...(request.user_id === undefined ? {} : { user_id: request.user_id }),
      ...(request.agent_id === undefined ? {} : { agent_id: request.agent_id }),
      ...(request.session_id === undefined ? {} : { session_id: request.session_id }),
      ...range,
      include_archived: request.include_archived,
    };
    const rankings: RankedCandidate[][] = [];
    for (const [index, search] of searches.entries()) {
      const sets: CandidateSet[] = [];
      for (const layer of layers) {
        sets.push(
          await this.store.findCandidates({
            layer,
            embedding: embeddings[index]!,
            keywords: search.terms,
            filter,
            limit: Math.max(this.options.candidateLimit, request.top_k * 2),
            ...(windows.length > 0 ? { window: spanOf(windows) } : {}),
          }),
        );
      }
      const ranking = {
        ...this.options.ranking,
        floor: request.min_score ?? this.options.ranking.floor,
        vectorCoverage: scriptCoverage(search.text, this.embedder.scripts),
        similarity: this.embedder.similarity,
        timeAlone: !namesSubject(search.text),
      };
      rankings.push(rankCandidates(sets, search.terms, now, request.top_k, ranking, windows));
    }
    const ranked = rankings.length === 1 ? rankings[0]! : interleave(rankings, request.top_k);
    const results = await this.fetchRecalled(ranked, now, options.recordAccess ?? true);
    if (!request.explain) for (const result of results) delete result.explanation;
    if (expressions.length === 0) return { results };
    const time_expressions = expressions.map(({ text, from, to, precision }) => ({
      text,
      from,
      to,
      precision,
    }));
    return { results, time_expressions };
  }

  /**
   * Fetches the winners' full rows and counts this recall as an access to each. The count is
   * written behind the response, off the recall's critical path; the next recall waits for it,
   * so this process always reads its own counts.
   */
  private async fetchRecalled(
    ranked: RankedCandidate[],
    now: Date,
    recordAccess: boolean,
  ): Promise<RecalledMemory[]> {
    const rows = new Map<string, StoredMemory>();
    const accessed: Promise<void>[] = [];
    for (const layer of ["episodic", "semantic"] as const) {
      const ids = ranked.filter((entry) => entry.layer === layer).map((entry) => entry.id);
      if (ids.length === 0) continue;
      for (const row of await this.store.getMany(layer, ids)) rows.set(row.id, row);
      if (recordAccess) accessed.push(this.store.recordAccess(layer, ids, now));
    }
    this.pendingAccess = Promise.all(accessed).then(
      () => undefined,
      (error: unknown) =>
        this.options.logger.warn("could not record memory access", { error: String(error) }),
    );
    // A memory hard-deleted between ranking and fetching is simply not returned.
    return ranked.flatMap(({ id, score, signals, explanation }) => {
      const row = rows.get(id);
      if (!row) return [];
      if (!recordAccess) return [{ ...row, score, signals, explanation } as RecalledMemory];
      const access_count = row.access_count + 1;
      return [
        row.layer === "episodic"
          ? { ...row, access_count, last_accessed_at: now, score, signals, explanation }
          : { ...row, access_count, last_used_at: now, score, signals, explanation },
      ];
    });
  }

  /** Soft: archive (left out of recall, reversible). Hard: delete for good. */
  async forget(input: unknown): Promise<ForgetResult> {
    const request = validate(ForgetInput, input);
    const result = await this.store.forget(
      request.memory_id,
      request.mode,
      this.clock.now(),
      request.reason,
    );
    if (!result) throw notFound("memory_id", request.memory_id);
    this.options.logger.info("memory forgotten", { ...result });
    return result;
  }

  /** The audit log of forgets, deletes, merges, supersedes and restores, newest first. */
  async audit(input: unknown): Promise<{ entries: AuditEntry[] }> {
    const request = validate(AuditInput, isoDates(input));
    const entries = await this.store.audit({
      ...(request.since ? { since: parseInstant(request.since)! } : {}),
      ...(request.until ? { until: parseInstant(request.until)! } : {}),
      ...(request.operation ? { operation: request.operation } : {}),
      ...(request.memory_id ? { memory_id: request.memory_id } : {}),
      ...(request.target ? { target: request.target } : {}),
      limit: request.limit,
    });
    return { entries };
  }

  /**
   * Compresses memories (given by id, or recalled for a query) into a summary within budget,
   * or a working-memory session into its four-part summary.
   */
  async summarize(input: unknown): Promise<SummaryResult> {
    const request = validate(SummarizeInput, input);
    if (request.session_id) {
      const session = await this.workingMemory().compress({
        session_id: request.session_id,
        ...(request.agent_id === undefined ? {} : { agent_id: request.agent_id }),
      });
      const summary = session.summary ? renderSummary(session.summary) : "";
      return {
        summary,
        tokens: this.options.tokens.count(summary),
        max_tokens: request.max_tokens,
        memory_ids: [],
        groups: [],
        method: "working_memory",
        session,
      };
    }
    let memories: StoredMemory[];
    if (request.memory_ids) {
      memories = await this.memoriesById(request.memory_ids);
    } else {
      const { results } = await this.recall({
        query_text: request.query_text,
        memory_layer: "all",
        top_k: LIMITS.topK,
        ...(request.user_id === undefined ? {} : { user_id: request.user_id }),
        ...(request.agent_id === undefined ? {} : { agent_id: request.agent_id }),
      });
      memories = results;
    }
    return summarizeMemories(memories, request.max_tokens, {
      tokens: this.options.tokens,
      llm: this.options.llm,
      fallbacks: this.fallbacks,
      embed: (texts) => this.embed(texts),
      similarity: this.embedder.similarity,
    });
  }

  /** Memories of either layer in the order asked; an unknown id is NOT_FOUND. */
  private async memoriesById(ids: readonly string[]): Promise<StoredMemory[]> {
    const unique = [...new Set(ids)];
    const found = new Map<string, StoredMemory>();
    for (const layer of ["episodic", "semantic"] as const) {
      const wanted = unique.filter((id) => !found.has(id));
      if (wanted.length === 0) break;
      for (const memory of await this.store.getMany(layer, wanted)) found.set(memory.id, memory);
    }
    const missing = unique.find((id) => !found.has(id));
    if (missing) throw notFound("memory_ids", missing);
    return unique.map((id) => found.get(id)!);
  }

  /** Decay and cold storage (see lifecycle): `{ archived, reactivated, scored, … }`. */
  async maintain(input: unknown = {}, options?: JobOptions): Promise<MaintainResult> {
    // Recalls answered just before count as accesses: wait for their counts to be written.
    await this.pendingAccess;
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

  ping(): Promise<void> {
    return this.store.ping();
  }

  async migrate(): Promise<MigrationReport & { store: string }> {
    this.migration ??= await this.store.migrate(this.embedder);
    return { ...this.migration, store: this.store.description };
  }

  async stats(input: unknown = {}): Promise<MemoryStats> {
    const { agent_id: agent } = validate(StatsInput, input);
    return {
      episodic: await this.store.counts("episodic", agent),
      semantic: await this.store.counts("semantic", agent),
      store: this.store.description,
      embedder: this.embedder.id,
      llm: llmStats(this.options.llm, this.fallbacks),
    };
  }

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

  private workingMemory(): WorkingMemory {
    if (!this.working) {
      throw new HindsightError(
        ErrorCode.CONFIG_INVALID,
        "working memory is not configured: give the service a working-memory store",
      );
    }
    return this.working;
  }

  async close(): Promise<void> {
    await this.pendingAccess;
    await this.working?.close();
    await this.embedder.close?.();
    await this.store.close();
  }

  private embed(texts: string[], purpose: EmbedPurpose = "document"): Promise<Float32Array[]> {
    return embedChecked(this.embedder, texts, purpose);
  }
}

/**
 * Confidence is stored as a 4-byte real, which cannot hold the tiniest doubles (PostgreSQL
 * rejects 1e-300 as out of range); no one means more than six decimals of confidence.
 */
function storableConfidence(confidence: number | undefined): number {
  return confidence === undefined ? 1 : Math.round(confidence * 1e6) / 1e6;
}

function prefixField(error: unknown, prefix: string): unknown {
  if (error instanceof HindsightError && error.code === ErrorCode.INVALID_INPUT) {
    const field = `${prefix}.${error.field ?? "input"}`;
    return new HindsightError(ErrorCode.INVALID_INPUT, `${prefix}.${error.message}`, { field });
  }
  return error;
}
