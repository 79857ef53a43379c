/**
 * Opens the memory service in this process: the embedder, the store, the migrations.
 */
import { systemClock } from "../adapters/clock.js";
import { createEmbedder } from "../adapters/embedders/create.js";
import { createLanguageModel } from "../adapters/llm/create.js";
import { openStorage } from "../adapters/storage/open-store.js";
import { cl100k } from "../adapters/tokens.js";
import { openWorkingStore } from "../adapters/working-stores/open-working-store.js";
import type { HindsightConfig } from "../config/schema.js";
import type { Clock, Embedder, LanguageModel, Logger } from "../core/ports.js";
import { MemoryService } from "../core/service.js";

export interface ServiceDeps {
  logger: Logger;
  clock?: Clock;
  embedder?: Embedder;
  /** A ready language model, instead of the one the configuration names. */
  llm?: LanguageModel;
  /** Loads the local model now (default) rather than on the first embedding. */
  warmEmbedder?: boolean;
}

export async function openService(
  config: HindsightConfig,
  deps: ServiceDeps,
): Promise<MemoryService> {
  const { logger } = deps;
  const embedder = deps.embedder ?? (await createEmbedder(config.embedder, logger));
  if (!deps.embedder && config.embedder.kind === "local" && deps.warmEmbedder !== false) {
    // The model loads lazily; load it now so a missing package or broken model directory
    // fails at start-up, not on a server's first request.
    await embedder.embed(["warm-up"]);
  }
  const llm = deps.llm ?? createLanguageModel(config.llm, logger);
  const storage = await openStorage(config, logger);
  let working: Awaited<ReturnType<typeof openWorkingStore>>;
  try {
    working = await openWorkingStore(config.working, storage, logger);
  } catch (error) {
    await storage.admin.close();
    throw error;
  }
  const service = new MemoryService({
    storage,
    embedder,
    ...(llm ? { llm } : {}),
    clock: deps.clock ?? systemClock,
    logger,
    candidateLimit: config.recall.candidateLimit,
    tokens: cl100k,
    lifecycle: config.lifecycle,
    sharing: config.sharing,
    working: {
      store: working,
      budgetTokens: config.working.budgetTokens,
      ttlSeconds: config.working.ttlSeconds,
    },
    ranking: {
      floor: config.recall.floor,
      freshnessHalfLifeDays: config.recall.freshnessHalfLifeDays,
      weights: config.recall.weights,
      bm25: config.recall.bm25,
      fusion: config.recall.fusion,
      rrfK: config.recall.rrfK,
      outcomeWeights: config.recall.outcomeWeights,
      timeWeight: config.recall.timeWeight,
      feedbackWeight: config.recall.feedbackWeight,
      keywordTrustAt: config.recall.keywordTrustAt,
    },
  });
  try {
    const migration = await service.migrate();
    if (migration.applied.length > 0)
      logger.info(`applied migrations ${migration.applied.join(", ")}`);
  } catch (error) {
    await service.close();
    throw error;
  }
  return service;
}
