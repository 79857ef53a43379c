/**
 * Ports: what the core needs from the outside world. Adapters live outside `core/` and the
 * core never imports them.
 */
import type { AuditLog } from "./audit.js";
import type { ConsolidationStore, KnowledgeStore, LifecycleStore } from "./lifecycle/ports.js";
import type { MemoryRecords } from "./memories/ports.js";
import type { RecallStore } from "./recall/ports.js";
import type { SharingStore } from "./sharing/ports.js";
import type { TransferStore } from "./transfer/ports.js";
import type { LayerCounts, LlmBreakerStats, MemoryLayer } from "./types.js";

export interface Clock {
  now(): Date;
}

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export interface Embedder {
  /** Stable identifier recorded in the database, e.g. `hash-v1` or `openai:text-embedding-3-small`. */
  readonly id: string;
  readonly dimensions: number;
  /**
   * The Unicode scripts (`\p{Script=…}` names: "Latin", "Han", …) whose text the model
   * represents; absent: every script. Recall weighs the vector signal by the share of the query
   * written in them (`scriptCoverage`), so an English-only model's noise on a Chinese query
   * gives way to keywords.
   */
  readonly scripts?: readonly string[];
  /**
   * Where the model's cosine similarities lie (see `SimilarityScale`); absent: they already
   * lie on hindsight's reference scale (the hash embedder, all-MiniLM-L6-v2, OpenAI's models).
   */
  readonly similarity?: SimilarityScale;
  /**
   * Embeds a batch of texts; returns one L2-normalised vector per text, in order. `purpose`
   * tells a model trained for asymmetric retrieval (e5's "query: " / "passage: ") which side
   * a text is on; default "document". Others ignore it.
   */
  embed(texts: readonly string[], purpose?: EmbedPurpose): Promise<Float32Array[]>;
  /**
   * Starts loading the model in the background, for a caller that will embed soon; a failure
   * shows on the next `embed`. Absent: nothing to load.
   */
  prepare?(): void;
  close?(): Promise<void>;
}

export type EmbedPurpose = "query" | "document";

/**
 * A model's typical cosine for a query and a memory it is not about (`unrelated`) and one it
 * is about (`related`). Models differ widely — e5 puts unrelated pairs near 0.8 — so every
 * cosine is mapped onto one reference scale (core/similarity) before it is fused, compared
 * with the score floor or with a similarity threshold.
 */
export interface SimilarityScale {
  unrelated: number;
  related: number;
}

/** What the store needs to know about the embedder to create and check the vector column. */
export interface EmbedderIdentity {
  id: string;
  dimensions: number;
}

export interface MigrationReport {
  applied: number[];
  current: number;
}

/** The store itself: where it is, its schema, its size, whether it answers. */
export interface StoreAdmin {
  /** Human-readable location, credentials removed: `pglite:/home/u/.hindsight/data`. */
  readonly description: string;
  /** Applies pending migrations and checks the embedder recorded in the database. */
  migrate(embedder: EmbedderIdentity): Promise<MigrationReport>;
  /** Memories per status; with `agentId`, that agent's only. */
  counts(layer: MemoryLayer, agentId?: string): Promise<LayerCounts>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Storage, as one port per feature: each feature is handed its own and no other (recall
 * cannot forget, sharing cannot decay). One SQL adapter (storage/sql-storage) serves them all
 * from one database, PGlite or PostgreSQL.
 */
export interface Storage {
  readonly admin: StoreAdmin;
  readonly memories: MemoryRecords;
  readonly recall: RecallStore;
  readonly knowledge: KnowledgeStore;
  readonly lifecycle: LifecycleStore;
  readonly consolidation: ConsolidationStore;
  readonly sharing: SharingStore;
  readonly audit: AuditLog;
  readonly transfer: TransferStore;
}

/**
 * Which model a request is for: the main one (consolidation, merging) or the cheaper one that
 * writes summaries (episodic summaries, working-memory compression).
 */
export type LlmTier = "main" | "cheap";

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface ChatRequest {
  tier: LlmTier;
  /** What the call is for ("summary", "consolidation", …), for logs and metrics. */
  purpose: string;
  messages: ChatMessage[];
  /** Asks the model for one JSON object (OpenAI `response_format: json_object`). */
  json?: boolean;
  maxTokens?: number;
  temperature?: number;
}

export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

export interface ChatResponse {
  text: string;
  /** The model that answered, as the server named it. */
  model: string;
  usage: TokenUsage;
}

export interface LlmCounts extends TokenUsage {
  /** Chat calls made (a call's retries are part of it). */
  requests: number;
  /** Calls that ended in LLM_FAILED. */
  failures: number;
}

/** What the language model has cost since this process started. */
export interface LlmUsage extends LlmCounts {
  /** The same counts split by tier, when the model keeps them. */
  tiers?: Record<LlmTier, LlmCounts>;
}

/**
 * Language-model port. With provider `none` there is no LanguageModel at all and every caller
 * takes its deterministic fallback, saying so in what it returns.
 */
export interface LanguageModel {
  /** `<provider>:<main model>`, e.g. `openai:gpt-4o-mini`. */
  readonly id: string;
  /** The model each tier uses, when known (shown in stats). */
  readonly models?: Record<LlmTier, string>;
  /** Fails with LLM_FAILED once timeouts and retries are exhausted. */
  chat(request: ChatRequest): Promise<ChatResponse>;
  usage(): LlmUsage;
  /**
   * Present when a circuit breaker guards the model (core/llm/breaker): completeJson runs each
   * task through it, and stats report it.
   */
  readonly breaker?: LlmBreaker;
}

/**
 * Stops calling a model that keeps failing, for a cool-down, then tries it again. A task is
 * one structured request with its corrections (completeJson).
 */
export interface LlmBreaker {
  /**
   * Runs the task and records how it ended (any error counts as a failure); while the breaker
   * is open fails at once with LLM_FAILED, without running it.
   */
  run<T>(purpose: string, task: () => Promise<T>): Promise<T>;
  stats(): LlmBreakerStats;
}
