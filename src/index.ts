/**
 * hindsight as a library: `createHindsight(config)` opens the store and the embedder, applies
 * migrations and returns the memory service.
 */
import { silentLogger, systemClock } from "./adapters.js";
import { HindsightConfig, type HindsightConfigInput } from "./config/schema.js";
import { ErrorCode, HindsightError } from "./core/errors.js";
import type { Clock, Embedder, Logger, MigrationReport } from "./core/ports.js";
import { MemoryService } from "./core/service.js";
import { createEmbedder } from "./embedders/create.js";
import { openStore } from "./storage/open-store.js";
import { cl100k } from "./tokens.js";

export interface HindsightDeps {
  logger?: Logger;
  clock?: Clock;
  /** A ready embedder, instead of the one the configuration names. */
  embedder?: Embedder;
}

export interface Hindsight extends MemoryService {
  readonly config: Readonly<HindsightConfig>;
  readonly migration: MigrationReport;
}

export function parseConfig(input: HindsightConfigInput): Readonly<HindsightConfig> {
  const result = HindsightConfig.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue?.path.join(".") || "config";
    throw new HindsightError(ErrorCode.CONFIG_INVALID, `${field}: ${issue?.message}`, { field });
  }
  return Object.freeze(result.data);
}

export async function createHindsight(
  input: HindsightConfigInput,
  deps: HindsightDeps = {},
): Promise<Hindsight> {
  const config = parseConfig(input);
  const logger = deps.logger ?? silentLogger;
  const embedder = deps.embedder ?? (await createEmbedder(config.embedder, logger));
  const store = await openStore(config, logger);
  let migration: MigrationReport;
  try {
    migration = await store.migrate(embedder);
  } catch (error) {
    await store.close();
    throw error;
  }
  if (migration.applied.length > 0) {
    logger.info(`applied migrations ${migration.applied.join(", ")}`);
  }
  const service = new MemoryService({
    store,
    embedder,
    clock: deps.clock ?? systemClock,
    logger,
    candidateLimit: config.recall.candidateLimit,
    tokens: cl100k,
    ranking: {
      floor: config.recall.floor,
      freshnessHalfLifeDays: config.recall.freshnessHalfLifeDays,
      weights: config.recall.weights,
      bm25: config.recall.bm25,
    },
  });
  return Object.assign(service, { config, migration }) as Hindsight;
}

export { fixedClock, silentLogger, stderrLogger, systemClock } from "./adapters.js";
export { configFromEnv } from "./config/env.js";
export type { HindsightConfig, HindsightConfigInput } from "./config/schema.js";
export { ErrorCode, HindsightError, isHindsightError } from "./core/errors.js";
export type { Clock, Embedder, Logger, MemoryStore } from "./core/ports.js";
export * from "./core/schemas.js";
export type { MemoryApi } from "./core/memory-api.js";
export { MemoryService, type RecallResponse } from "./core/service.js";
export type { SummaryResult } from "./core/summarize.js";
export type * from "./core/types.js";
export { createHashEmbedder } from "./embedders/hash.js";
