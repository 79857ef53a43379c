import type { LlmFallbacks } from "../llm/fallbacks.js";
import type { MemoryRecords } from "../memories/ports.js";
import type { Clock, LanguageModel, Logger, SimilarityScale } from "../ports.js";
import type { ConsolidationStore, KnowledgeStore, LifecycleStore } from "./ports.js";
import type { LifecycleSettings } from "./settings.js";

/** What the lifecycle works with; the memory service provides it. */
export interface LifecycleDeps {
  memories: MemoryRecords;
  knowledge: KnowledgeStore;
  lifecycle: LifecycleStore;
  consolidation: ConsolidationStore;
  clock: Clock;
  logger: Logger;
  settings: LifecycleSettings;
  /** Absent with provider `none`: every step takes its deterministic fallback. */
  llm?: LanguageModel | undefined;
  /** Counts and logs each fallback (`stats.llm.fallbacks`). */
  fallbacks: LlmFallbacks;
  /** The service's embedder, checked for dimensions. */
  embed(texts: string[]): Promise<Float32Array[]>;
  /** The embedder's cosine scale: similarity thresholds are on the reference scale. */
  similarity?: SimilarityScale | undefined;
}

/** Runs a model call; on failure logs it and returns undefined so the caller falls back. */
export async function withFallback<T>(
  deps: LifecycleDeps,
  purpose: string,
  call: (llm: NonNullable<LifecycleDeps["llm"]>) => Promise<T>,
): Promise<T | undefined> {
  if (!deps.llm) return undefined;
  try {
    return await call(deps.llm);
  } catch (error) {
    deps.fallbacks.record(purpose, error, { model: deps.llm.id });
    return undefined;
  }
}
