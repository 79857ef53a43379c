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
  /** When the local model loads: see `HindsightDeps.warmEmbedder`. */
  warmEmbedder?: boolean | "background";
  /** See `HindsightDeps.oneShot`. */
  oneShot?: boolean;
  /** See `HindsightDeps.warmRecall`. */
  warmRecall?: boolean;
  /** Where opening's announcements go (the store, the model in use); default `logger`. */
  announce?: Logger;
}

export async function openService(
  config: HindsightConfig,
  deps: ServiceDeps,
): Promise<MemoryService> {
  const { logger } = deps;
  const opening = deps.announce ?? logger;
  const embedder = deps.embedder ?? (await createEmbedder(config.embedder, opening));
  // Only a local model has anything to load (a remote one would be called over the network).
  const warm =
    deps.embedder || config.embedder.kind !== "local" ? false : (deps.warmEmbedder ?? true);
  // The model loads on its own thread while the store opens. Awaited (true), a missing package
  // or a broken model directory fails at start-up, not on a server's first request.
  const warming = warm === true ? embedder.embed(["warm-up"]) : undefined;
  warming?.catch(() => undefined); // awaited below, once the store is open
  if (warm === "background") embedder.prepare?.();
  const llm = deps.llm ?? createLanguageModel(config.llm, opening);
  // A failed open closes what it opened; an embedder the caller gave stays the caller's.
  const closeEmbedder = async () => {
    if (!deps.embedder) await embedder.close?.();
  };
  let storage: Awaited<ReturnType<typeof openStorage>>;
  try {
    storage = await openStorage(config, opening, { oneShot: deps.oneShot });
  } catch (error) {
    await closeEmbedder();
    throw error;
  }
  let working: Awaited<ReturnType<typeof openWorkingStore>>;
  try {
    await warming;
    working = await openWorkingStore(config.working, storage, opening);
  } catch (error) {
    await storage.admin.close();
    await closeEmbedder();
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
      askingWeight: config.recall.askingWeight,
      whenWeight: config.recall.whenWeight,
      echoWeight: config.recall.echoWeight,
      timeWeight: config.recall.timeWeight,
      feedbackWeight: config.recall.feedbackWeight,
      keywordTrustAt: config.recall.keywordTrustAt,
    },
  });
  try {
    const migration = await service.migrate();
    if (migration.applied.length > 0)
      opening.info(`applied migrations ${migration.applied.join(", ")}`);
  } catch (error) {
    await service.close();
    throw error;
  }
  if (deps.warmRecall) void service.warmUp();
  return service;
}
