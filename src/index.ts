/**
 * hindsight as a library: `createHindsight(config)` opens the store and the embedder, applies
 * migrations and returns the memory service, every operation typed by its input schema.
 */
import type { HindsightConfig, HindsightConfigInput } from "./config/schema.js";
import { type HindsightDeps, openHindsight } from "./open/hindsight.js";
import type { TypedMemoryApi } from "./operations/typed-api.js";

export type { HindsightDeps } from "./open/hindsight.js";

/**
 * What `createHindsight` returns: every operation typed by its input schema (see
 * operations/typed-api), and the configuration it runs with.
 */
export interface Hindsight extends TypedMemoryApi {
  readonly config: Readonly<HindsightConfig>;
  /**
   * On a shared embedded directory: "owner" when this process holds the database, "client"
   * when it forwards to the process that does. Absent for PostgreSQL and in-memory stores.
   */
  role?(): Promise<"owner" | "client">;
}

/**
 * Opens hindsight. On an embedded data directory several processes may do so at once: the
 * first owns the database and the others forward to it (see multiprocess/shared-directory). Inputs
 * are validated once, by the service; their types let the compiler catch wrong fields first.
 */
export function createHindsight(
  input: HindsightConfigInput,
  deps: HindsightDeps = {},
): Promise<Hindsight> {
  return openHindsight(input, deps);
}

export { fixedClock, systemClock } from "./adapters/clock.js";
export { createHashEmbedder } from "./adapters/embedders/hash.js";
export { createOpenAIChatModel, type OpenAIChatOptions } from "./adapters/llm/openai-chat.js";
export { silentLogger, stderrLogger } from "./adapters/logger.js";
export type { ReembedProgress, ReembedResult } from "./adapters/storage/reembed.js";
export { configFromEnv } from "./config/env.js";
export type { HindsightConfig, HindsightConfigInput } from "./config/schema.js";
export { ErrorCode, HindsightError, isHindsightError } from "./core/errors.js";
export type { AddedKnowledge } from "./core/lifecycle/knowledge.js";
export type {
  ConsolidateResponse,
  FeedbackResult,
  JobOptions,
  MaintainResult,
} from "./core/lifecycle/lifecycle.js";
export type { MemoryEvent, MemoryHistory, RestoreOutcome } from "./core/lifecycle/ports.js";
export { DEFAULT_LIFECYCLE, type LifecycleSettings } from "./core/lifecycle/settings.js";
export type { MemoryApi } from "./core/memory-api.js";
export type {
  ChatRequest,
  ChatResponse,
  Clock,
  Embedder,
  LanguageModel,
  Logger,
  Storage,
} from "./core/ports.js";
export {
  AuditInput,
  ConsolidateInput,
  FeedbackInput,
  ForgetInput,
  INTERACTION_METADATA_KEY,
  LIMITS,
  MaintainInput,
  MemoryIdInput,
  RecallInput,
  StatsInput,
  StoreEpisodicInput,
  StoreSemanticInput,
  SummarizeInput,
} from "./core/schemas.js";
export { MemoryService, type RecallResponse } from "./core/service.js";
export {
  GrantInput,
  GroupsInput,
  QuarantineInput,
  ReviewInput,
  SetTrustInput,
} from "./core/sharing/schemas.js";
export type { QuarantineList, SharingSettings, SourcesList } from "./core/sharing/sharing.js";
export {
  type Group,
  REVIEW_STATUSES,
  type ReviewResult,
  type SourceTrust,
  type StoredKnowledge,
  TRUST_LEVELS,
  type TrustLevel,
} from "./core/sharing/types.js";
export type { SummaryResult } from "./core/summarize/summarize-memories.js";
export { type ImportResult, importBatches } from "./core/transfer/transfer.js";
export {
  type EpisodicMemory,
  type ForgetResult,
  type JsonObject,
  type JsonValue,
  LAYERS,
  type LayerCounts,
  type LayerSelector,
  type LlmBreakerStats,
  type LlmCallCounts,
  type LlmStats,
  type MemoryLayer,
  type MemoryScope,
  type MemoryStats,
  type MemoryStatus,
  OUTCOMES,
  type Outcome,
  type RecalledMemory,
  type ScoreExplanation,
  type ScoreSignals,
  type SemanticMemory,
  STATUSES,
  type StoreResult,
  type SummarySource,
} from "./core/types.js";
export {
  WORKING_LIMITS,
  WorkingAppendInput,
  WorkingAppendOutput,
  WorkingCompressInput,
  WorkingContextOutput,
  WorkingEndInput,
  WorkingEndOutput,
  WorkingGetInput,
  WorkingItemOutput,
  WorkingSummaryOutput,
} from "./core/working/schemas.js";
export {
  ITEM_KINDS,
  ITEM_ROLES,
  type ItemKind,
  type ItemRole,
  type NewWorkingItem,
  type SummaryParts,
  type WorkingAppendResult,
  type WorkingContext,
  type WorkingEndResult,
  type WorkingItem,
  type WorkingSession,
  type WorkingSummary,
} from "./core/working/types.js";
export { parseConfig } from "./open/parse-config.js";
export { type ReembedDeps, ReembedInput, reembed } from "./open/reembed.js";
export type { EpisodeInput, KnowledgeInput, TypedMemoryApi } from "./operations/typed-api.js";
