/**
 * hindsight as a library: `createHindsight(config)` opens the store and the embedder, applies
 * migrations and returns the memory service.
 */
import { silentLogger } from "./adapters.js";
import type { HindsightConfig, HindsightConfigInput } from "./config/schema.js";
import type { MemoryApi } from "./core/memory-api.js";
import type { Clock, Embedder, LanguageModel, Logger } from "./core/ports.js";
import { openSharedEmbeddedMemory } from "./embedded/shared-memory.js";
import { openService } from "./open-service.js";
import { parseConfig } from "./parse-config.js";
import { IN_MEMORY } from "./storage/pglite.js";
import { ensurePrivateDirectory } from "./storage/private-dir.js";
import { tenantConfig } from "./tenants/tenant.js";

export interface HindsightDeps {
  logger?: Logger;
  clock?: Clock;
  /** A ready embedder, instead of the one the configuration names. */
  embedder?: Embedder;
  /** A ready language model, instead of the one the configuration names. */
  llm?: LanguageModel;
}

export interface Hindsight extends MemoryApi {
  readonly config: Readonly<HindsightConfig>;
  /**
   * On a shared embedded directory: "owner" when this process holds the database, "client"
   * when it forwards to the process that does. Absent for PostgreSQL and in-memory stores.
   */
  role?(): Promise<"owner" | "client">;
}

/**
 * Opens hindsight. On an embedded data directory several processes may do so at once: the
 * first owns the database and the others forward to it (see embedded/shared-memory).
 */
export async function createHindsight(
  input: HindsightConfigInput,
  deps: HindsightDeps = {},
): Promise<Hindsight> {
  // A tenant other than the default one has a store of its own (see tenants/tenant.ts).
  const parsed = parseConfig(input);
  const config = tenantConfig(parsed, parsed.tenant);
  const serviceDeps = { ...deps, logger: deps.logger ?? silentLogger };
  let memory: MemoryApi;
  if (config.databaseUrl || config.dataDir === IN_MEMORY) {
    memory = await openService(config, serviceDeps);
  } else {
    await ensurePrivateDirectory(config.dataDir, { field: "HINDSIGHT_DATA_DIR" });
    memory = await openSharedEmbeddedMemory({
      dataDir: config.dataDir,
      lockTimeoutMs: config.lockTimeoutMs,
      logger: serviceDeps.logger,
      openLocal: () => openService(config, serviceDeps),
    });
  }
  return Object.assign(memory, { config });
}

export { fixedClock, silentLogger, stderrLogger, systemClock } from "./adapters.js";
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
export { DEFAULT_LIFECYCLE, type LifecycleSettings } from "./core/lifecycle/settings.js";
export type { MemoryEvent, MemoryHistory, RestoreOutcome } from "./core/lifecycle/store-port.js";
export type { MemoryApi } from "./core/memory-api.js";
export type {
  ChatRequest,
  ChatResponse,
  Clock,
  Embedder,
  LanguageModel,
  Logger,
  MemoryStore,
} from "./core/ports.js";
export * from "./core/schemas.js";
export { MemoryService, type RecallResponse } from "./core/service.js";
export * from "./core/sharing/schemas.js";
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
export type { SummaryResult } from "./core/summarize.js";
export type * from "./core/types.js";
export * from "./core/working/schemas.js";
export * from "./core/working/types.js";
export { createHashEmbedder } from "./embedders/hash.js";
export { createOpenAIChatModel, type OpenAIChatOptions } from "./llm/openai-chat.js";
export { parseConfig } from "./parse-config.js";
export { type ReembedDeps, ReembedInput, reembed } from "./reembed.js";
export type { ReembedProgress, ReembedResult } from "./storage/reembed.js";
