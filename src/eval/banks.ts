/**
 * Memory banks for evaluations: each conversation, trajectory or labelled set is recalled
 * from a store holding nothing else, an in-memory PGlite database. One embedder serves every
 * bank, so a model loads once.
 */

import { createEmbedder } from "../adapters/embedders/create.js";
import { IN_MEMORY } from "../adapters/storage/pglite.js";
import type { HindsightConfig, HindsightConfigInput } from "../config/schema.js";
import { embeddingWith } from "../core/embed.js";
import { ErrorCode, HindsightError, wrapError } from "../core/errors.js";
import type { Clock, Embedder, Logger } from "../core/ports.js";
import { recallInputSchema } from "../core/schemas.js";
import type { MemoryService } from "../core/service.js";
import { parseConfig } from "../index.js";
import { openService } from "../open/service.js";
import { cachingEmbedder } from "./embedding-cache.js";

export interface EvalRuntime {
  readonly config: Readonly<HindsightConfig>;
  /** Shared by every bank; closing a bank leaves it open. */
  readonly embedder: Embedder;
  readonly logger: Logger;
  close(): Promise<void>;
}

/**
 * Builds the configuration (the configured embedder and ranking, but always an in-memory
 * store) and loads the embedder once.
 */
export async function openEvalRuntime(
  input: HindsightConfigInput,
  logger: Logger,
  options: { embeddingCache?: string } = {},
): Promise<EvalRuntime> {
  const { databaseUrl: _ignored, ...rest } = input;
  const config = parseConfig({ ...rest, dataDir: IN_MEMORY });
  const inner = await createEmbedder(config.embedder, logger);
  try {
    // Load a model now, so a broken model directory fails before any data is read.
    await inner.embed(["warm-up"]);
  } catch (error) {
    await inner.close?.().catch(() => {});
    throw wrapError(ErrorCode.EMBEDDER_FAILED, `embedder ${inner.id} failed`, error);
  }
  const cached = options.embeddingCache
    ? await cachingEmbedder(inner, options.embeddingCache)
    : undefined;
  const source = cached ?? inner;
  // Shared by every bank, so without close: closing a bank leaves it open.
  const shared = embeddingWith(source, (texts, purpose) => source.embed(texts, purpose));
  return {
    config,
    embedder: shared,
    logger,
    close: async () => {
      await cached?.flush();
      await inner.close?.();
    },
  };
}

export interface BankOptions {
  clock?: Clock;
  /** Open a new database for every bank, even where emptying the last one is equivalent. */
  freshBanks?: boolean;
}

/** Logs of every bank's start-up (applied migrations…) are not worth a line each. */
function quiet(logger: Logger): Logger {
  return { ...logger, info: () => {}, debug: () => {} };
}

/**
 * Hands out empty memory banks.
 *
 * Opening an in-memory PGlite database takes about a second, too slow for thousands of small
 * banks (MemDaily has one per trajectory). A bank no larger than the recall candidate limit is
 * therefore served by emptying the previous one (hard-deleting its memories, which also
 * removes their access counts and their share of the BM25 statistics): with at most that many
 * memories, every memory is a candidate of every recall and is scored exactly, so the ranking
 * is the one a new database would give. Larger banks always get a new database.
 */
export class BankPool {
  private spare: { service: MemoryService; ids: string[] } | undefined;
  private banks = 0;
  private readonly runtime: EvalRuntime;
  private readonly options: BankOptions;

  constructor(runtime: EvalRuntime, options: BankOptions = {}) {
    this.runtime = runtime;
    this.options = options;
  }

  /** An empty bank for `size` memories. Call `release` when done with it. */
  async acquire(size: number): Promise<Bank> {
    const reusable = !this.options.freshBanks && size <= this.runtime.config.recall.candidateLimit;
    if (reusable && this.spare) {
      const { service, ids } = this.spare;
      this.spare = undefined;
      await empty(service, ids);
      return new Bank(service, true, ++this.banks);
    }
    const service = await openService(this.runtime.config, {
      logger: quiet(this.runtime.logger),
      embedder: this.runtime.embedder,
      ...(this.options.clock ? { clock: this.options.clock } : {}),
    });
    return new Bank(service, reusable, ++this.banks);
  }

  async release(bank: Bank): Promise<void> {
    if (bank.reusable && !this.spare) {
      this.spare = { service: bank.service, ids: bank.ids };
      return;
    }
    await bank.service.close();
  }

  async close(): Promise<void> {
    const spare = this.spare;
    this.spare = undefined;
    await spare?.service.close();
  }
}

/**
 * A bank gives its memories ids that grow in storing order (unless the item brings its own):
 * recall breaks score ties by id, so ties fall the same way on every run, earliest first.
 */
export class Bank {
  readonly service: MemoryService;
  readonly reusable: boolean;
  /** Every memory stored, so the bank can be emptied. */
  readonly ids: string[] = [];
  private readonly number: number;

  constructor(service: MemoryService, reusable: boolean, number: number) {
    this.service = service;
    this.reusable = reusable;
    this.number = number;
  }

  /** The item with the next sequential id, unless it brings its own. */
  private withId(item: unknown, position: number): unknown {
    if (item === null || typeof item !== "object" || "id" in item) return item;
    return { id: sequentialUuid(this.number, position), ...item };
  }

  async storeEpisodic(items: readonly unknown[]): Promise<string[]> {
    const start = this.ids.length;
    const { ids } = await this.service.storeEpisodicBatch(
      items.map((item, index) => this.withId(item, start + index)),
    );
    this.ids.push(...ids);
    return ids;
  }

  async storeSemantic(item: unknown): Promise<string> {
    const { id } = await this.service.storeSemantic(this.withId(item, this.ids.length));
    this.ids.push(id);
    return id;
  }
}

/** A valid version-4-shaped UUID whose text orders by (bank, index). */
export function sequentialUuid(bank: number, index: number): string {
  const hex = (value: number, width: number) => value.toString(16).padStart(width, "0");
  return `${hex(bank, 8)}-0000-4000-8000-${hex(index, 12)}`;
}

async function empty(service: MemoryService, ids: readonly string[]): Promise<void> {
  for (const id of ids) await service.forget({ memory_id: id, mode: "hard" });
  const stats = await service.stats();
  if (stats.episodic.total !== 0 || stats.semantic.total !== 0) {
    throw new HindsightError(
      ErrorCode.INTERNAL,
      `an emptied evaluation bank still holds ${stats.episodic.total + stats.semantic.total} memories`,
    );
  }
}

/**
 * Whether recall takes a `query_time` (the time the question is asked). Read from the recall
 * schema at run time, so evaluations pass it as soon as the core accepts it.
 */
export function recallSupportsQueryTime(): boolean {
  return "query_time" in recallInputSchema(1).shape;
}

/** `{ query_time }` when asked for and supported, else nothing. */
export function queryTimeField(time: Date | undefined): { query_time?: string } {
  return time && recallSupportsQueryTime() ? { query_time: time.toISOString() } : {};
}
