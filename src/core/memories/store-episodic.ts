/**
 * The episodic store pipeline: validate every item, write summaries for raw interactions,
 * embed, and insert all in one transaction — so one bad item writes nothing.
 */
import { randomUUID } from "node:crypto";
import { mapConcurrent } from "../concurrency.js";
import { ErrorCode, HindsightError } from "../errors.js";
import type { LlmFallbacks } from "../llm/fallbacks.js";
import type { Clock, LanguageModel } from "../ports.js";
import { searchText } from "../recall/search-text.js";
import { parseInstant } from "../recall/time/range.js";
import { StoreEpisodicInput } from "../schemas.js";
import type { StoreResult } from "../types.js";
import { isoDates, validate } from "../validate.js";
import { embeddingText } from "./embedding-text.js";
import { interactionMetadata, summariseInteraction } from "./episode-summary.js";
import { scopeOf, storableConfidence } from "./fields.js";
import type { MemoryRecords, NewEpisodic } from "./ports.js";

/** Interactions summarised at once in a batch store: a small limit spares rate limits. */
const SUMMARY_CONCURRENCY = 4;

export interface EpisodeWriterDeps {
  memories: MemoryRecords;
  clock: Clock;
  /** Writes summaries of raw interactions; absent: extractive summaries. */
  llm?: LanguageModel | undefined;
  fallbacks: LlmFallbacks;
  embed(texts: string[]): Promise<Float32Array[]>;
}

/** Stores episodic memories; a raw `interaction`'s summary is returned with how it was written. */
export async function storeEpisodes(
  deps: EpisodeWriterDeps,
  inputs: readonly unknown[],
): Promise<StoreResult[]> {
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
          deps.llm,
          { interaction: item.interaction, task_type: item.task_type, outcome: item.outcome },
          deps.fallbacks,
        ),
  );
  const summaries = parsed.map((item, index) => written[index]?.summary ?? item.summary!);
  const texts = parsed.map((item, index) =>
    embeddingText("episodic", { task_type: item.task_type, summary: summaries[index]! }),
  );
  // The local model runs on its own thread: the rows' search text (segmenting Chinese takes a
  // while) is built meanwhile. The whole batch is embedded before the transaction opens, so
  // the store is held no longer than the writes (the embedded store has one connection).
  const embedding = deps.embed(texts);
  embedding.catch(() => undefined); // awaited below; a throw while building rows must not leave it unhandled
  const now = deps.clock.now();
  const fields: Omit<NewEpisodic, "embedding">[] = parsed.map((item, index) => ({
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
    search_text: searchText(
      [item.task_type, summaries[index]!, ...(item.tags ?? [])],
      item.context,
    ),
  }));
  const embeddings = await embedding;
  const rows = fields.map((row, index) => ({ ...row, embedding: embeddings[index]! }));
  await deps.memories.insertEpisodic(rows);
  return rows.map((row, index) => {
    const summary = written[index];
    return summary
      ? { id: row.id, summary: summary.summary, summary_source: summary.source }
      : { id: row.id };
  });
}

/** A batch item's error names its index: `[3].outcome`. */
function prefixField(error: unknown, prefix: string): unknown {
  if (error instanceof HindsightError && error.code === ErrorCode.INVALID_INPUT) {
    const field = `${prefix}.${error.field ?? "input"}`;
    return new HindsightError(ErrorCode.INVALID_INPUT, `${prefix}.${error.message}`, { field });
  }
  return error;
}
