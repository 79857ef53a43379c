/**
 * Domain types. Field names are snake_case because they are the public wire format of the
 * CLI, REST and MCP surfaces and the column names of the database: one name everywhere.
 */
import type { Sharing } from "./sharing/types.js";

export const OUTCOMES = ["success", "failure", "partial"] as const;
export type Outcome = (typeof OUTCOMES)[number];

export const STATUSES = ["active", "archived"] as const;
export type MemoryStatus = (typeof STATUSES)[number];

export const LAYERS = ["episodic", "semantic"] as const;
export type MemoryLayer = (typeof LAYERS)[number];
export type LayerSelector = MemoryLayer | "all";

export type JsonObject = { [key: string]: JsonValue };
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

/** Who a memory belongs to and where it came from; shared by both long-term layers. */
export interface MemoryScope {
  subject: string | null;
  user_id: string | null;
  agent_id: string | null;
  /** The session (conversation, task run) it came from. */
  session_id: string | null;
  source: string | null;
}

export interface EpisodicMemory extends MemoryScope {
  id: string;
  occurred_at: Date;
  recorded_at: Date;
  task_type: string;
  summary: string;
  outcome: Outcome;
  metadata: JsonObject;
  tags: string[];
  confidence: number;
  access_count: number;
  last_accessed_at: Date | null;
  decay_score: number;
  status: MemoryStatus;
}

export interface SemanticMemory extends MemoryScope, Sharing {
  id: string;
  key_text: string;
  value_text: string;
  /** The kind of task this knowledge applies to, when it was learnt from one. */
  task_type: string | null;
  confidence: number;
  last_used_at: Date | null;
  created_at: Date;
  updated_at: Date;
  valid_from: Date;
  valid_to: Date | null;
  tags: string[];
  metadata: JsonObject;
  access_count: number;
  status: MemoryStatus;
  /** Strength after decay (see the memory lifecycle); 1 until the first maintenance run. */
  decay_score: number;
  /** The newer memory that superseded this one (its valid_to is then set). */
  superseded_by: string | null;
}

/** How much each signal contributed to a recall score. */
export interface ScoreSignals {
  vector: number;
  keyword: number;
  freshness: number;
  frequency: number;
  /** Boost for falling in a period the query names ("last week", "上周三"); 0 when it names none. */
  time: number;
}

/** Why a memory scored what it did (`explain: true`): the raw signals before weighting. */
export interface ScoreExplanation {
  fusion: "weighted" | "rrf";
  /** Cosine similarity to the query, 0..1. */
  vector_similarity: number;
  /** BM25, normalised to 0..1 against an average document holding every query word once. */
  bm25: number;
  /**
   * How well it matches the words of the best keyword match that the query lacks, 0..1
   * (pseudo-relevance feedback); its keyword signal is `min(1, bm25 + feedbackWeight · feedback)`.
   */
  feedback: number;
  /** 1 now, 0.5 one half-life ago. */
  freshness: number;
  /** min(access_count / 10, 1). */
  frequency: number;
  outcome_weight: number;
  /** `askingWeight` when the memory's own text ends with a question, else 1. */
  asking_weight: number;
  /**
   * `whenWeight` when the query asks when and the memory, stored with a context, names no time
   * in its own words; else 1.
   */
  when_weight: number;
  /**
   * 1 − (1 − `echoWeight`) · the share of the memory's own words its context already holds
   * (a reply taking up what was just said); 1 for a memory stored without context.
   */
  echo_weight: number;
  /** 1 inside a period the query names, decaying outside it; 0 when it names none. */
  time_match: number;
  /**
   * The share of the query written in scripts the embedder knows (1: all of it). Below 1 the
   * vector weight was scaled by it and the rest given to keywords (see ranking).
   */
  vector_coverage: number;
  /**
   * How far the query's keyword matches were trusted (1: fully). Below 1 no memory held much of
   * the query's words, and that share of the keyword weight moved to the vector (see ranking).
   */
  keyword_trust: number;
  /** 1-based rank of this memory on each signal among the candidates. */
  ranks: { vector: number; keyword: number; freshness: number; frequency: number };
}

interface Scored {
  score: number;
  signals: ScoreSignals;
  explanation?: ScoreExplanation;
}

export type RecalledMemory =
  | ({ layer: "episodic" } & Scored & EpisodicMemory)
  | ({ layer: "semantic" } & Scored & SemanticMemory);

export interface LayerCounts {
  total: number;
  active: number;
  archived: number;
}

/** Calls and tokens of one model tier since the process started. */
export interface LlmCallCounts {
  requests: number;
  failures: number;
  prompt_tokens: number;
  completion_tokens: number;
}

/** The language model in use and what it has cost; provider `none` has all counts at 0. */
export interface LlmStats extends LlmCallCounts {
  provider: string;
  model: string | null;
  summary_model: string | null;
  tiers: { main: LlmCallCounts; cheap: LlmCallCounts };
  /** Times a feature took its deterministic fallback because the model failed, by purpose. */
  fallbacks: Record<string, number>;
  /** The circuit breaker guarding the model; absent when none does (provider `none`). */
  breaker?: LlmBreakerStats;
}

/**
 * The language model's circuit breaker (core/llm/breaker). `closed`: calls go through; `open`:
 * every task takes its fallback at once, without calling the model, until `open_until`;
 * `half_open`: the cool-down is over and the next task is a trial call (the others still
 * skip the model while it runs); `disabled`: HINDSIGHT_LLM_BREAKER_FAILURES=0.
 */
export interface LlmBreakerStats {
  state: "closed" | "open" | "half_open" | "disabled";
  /** Tasks in a row whose model call failed or gave nothing usable. */
  consecutive_failures: number;
  /** Times the breaker opened, re-openings after a failed trial included. */
  opens: number;
  /** Tasks that took their fallback without calling the model because the breaker was open. */
  skipped: number;
  /** While open: when the trial call is allowed (ISO 8601); otherwise null. */
  open_until: string | null;
  /** How long the next opening lasts: doubled after each failed trial, up to a maximum. */
  cooldown_ms: number;
}

export interface MemoryStats {
  episodic: LayerCounts;
  semantic: LayerCounts;
  store: string;
  embedder: string;
  llm: LlmStats;
  /** Where working-memory sessions live; null without working memory. */
  working: string | null;
}

/** How the summary of a memory stored from a raw interaction was written. */
export type SummarySource = "extractive" | `llm:${string}`;

export interface StoreResult {
  id: string;
  /** With `interaction`: the summary written for it, and how. */
  summary?: string;
  summary_source?: SummarySource;
}

export interface ForgetResult {
  id: string;
  layer: MemoryLayer;
  mode: "soft" | "hard";
  status: MemoryStatus | "deleted";
}
