/**
 * Re-embedding: every memory of both layers, whatever its status, gets a vector from another
 * embedder, so a store outlives a change of embedder. Batches are committed into a staging
 * table (see reembed-sql) while the old vectors stay in use, so a run killed at any point
 * loses nothing and the next run toward the same embedder continues where it stopped; one
 * transaction switches the store over at the end.
 */
import { embedChecked } from "../../core/embed.js";
import { ErrorCode, wrapError } from "../../core/errors.js";
import { embeddingText } from "../../core/memories/embedding-text.js";
import type { Embedder, EmbedderIdentity, Logger } from "../../core/ports.js";
import { LAYERS, type MemoryLayer } from "../../core/types.js";
import type { SqlDriver, SqlExecutor } from "./executor.js";
import { migrateForReembed } from "./migrate.js";
import { planReembed } from "./reembed-plan.js";
import {
  countPending,
  discardStaging,
  lockMemories,
  pendingMemories,
  readState,
  stageVectors,
  startStaging,
  switchVectors,
} from "./reembed-sql.js";
import { TABLE } from "./rows.js";

export interface ReembedProgress {
  tick(steps: number): void;
  done(): void;
}

export interface ReembedOptions {
  /** The embedder the store is to use from now on. */
  target: Embedder;
  /** Memories embedded and committed at a time. */
  batchSize: number;
  /** Counts what a run would do, and writes nothing. */
  dryRun: boolean;
  logger: Logger;
  /** Shows progress over `total` memories (the CLI draws a bar on stderr). */
  progress?: (total: number) => ReembedProgress;
}

export interface ReembedResult {
  /** `reembedded`: the store now uses `to`; `dry_run`: nothing was written. */
  status: "reembedded" | "nothing_to_do" | "dry_run";
  from: EmbedderIdentity;
  to: EmbedderIdentity;
  /** Memories embedded by this run (would be, for a dry run), per layer. */
  episodic: number;
  semantic: number;
  /** Whether this run continued an interrupted one toward the same embedder. */
  resumed: boolean;
  seconds: number;
}

type Counts = Record<MemoryLayer, number>;
type Outcome = Omit<ReembedResult, "seconds">;

/** The job lock that keeps two runs on one database apart. */
const JOB = "reembed";
/**
 * Passes over the tables before the switch. Others may write meanwhile (servers on
 * PostgreSQL); each pass embeds what the one before missed, so the switch, which holds the
 * tables locked, rarely has anything left to embed.
 */
const MAX_PASSES = 3;

const identityOf = (embedder: EmbedderIdentity): EmbedderIdentity => ({
  id: embedder.id,
  dimensions: embedder.dimensions,
});

const noProgress: ReembedProgress = { tick() {}, done() {} };

export async function reembedStore(
  driver: SqlDriver,
  options: ReembedOptions,
): Promise<ReembedResult> {
  const started = performance.now();
  let outcome: Outcome;
  try {
    if (options.dryRun) {
      outcome = await dryRun(driver, identityOf(options.target));
    } else {
      const run = () => reembedNow(driver, options);
      let exclusive = await driver.exclusive(JOB, false, run);
      if (!exclusive.ran) {
        options.logger.info("another re-embedding of this store is running; waiting for it");
        exclusive = await driver.exclusive(JOB, true, run);
      }
      if (!exclusive.ran) throw new Error("the re-embedding lock was not taken");
      outcome = exclusive.value;
    }
  } catch (error) {
    // Our own errors (the embedder failed) pass through unchanged.
    throw wrapError(ErrorCode.STORAGE_FAILED, "re-embedding the store", error);
  }
  return { ...outcome, seconds: Math.round(performance.now() - started) / 1000 };
}

async function dryRun(db: SqlExecutor, target: EmbedderIdentity): Promise<Outcome> {
  const state = await readState(db);
  const plan = planReembed(state, target);
  if (plan.action === "nothing") return nothingToDo(target);
  const counts: Counts = { episodic: 0, semantic: 0 };
  for (const layer of LAYERS) counts[layer] = await countPending(db, layer, plan.resume);
  return {
    status: "dry_run",
    from: state.built ?? target,
    to: target,
    ...counts,
    resumed: plan.resume,
  };
}

function nothingToDo(target: EmbedderIdentity): Outcome {
  return {
    status: "nothing_to_do",
    from: target,
    to: target,
    episodic: 0,
    semantic: 0,
    resumed: false,
  };
}

async function reembedNow(driver: SqlDriver, options: ReembedOptions): Promise<Outcome> {
  const { logger } = options;
  const target = identityOf(options.target);
  const { built } = await migrateForReembed(driver, target);
  const state = await readState(driver);
  const plan = planReembed(state, target);
  if (plan.discard && state.reembedding) {
    logger.info(
      `discarding the unfinished re-embedding for '${state.reembedding.id}' (${state.reembedding.dimensions} dimensions)`,
    );
  }
  if (plan.action === "nothing") {
    if (plan.discard) await driver.transaction(discardStaging);
    return nothingToDo(target);
  }
  if (!plan.resume) {
    await driver.transaction(async (tx) => {
      await discardStaging(tx);
      await startStaging(tx, target);
    });
  }
  let total = 0;
  for (const layer of LAYERS) total += await countPending(driver, layer, true);
  logger.info(
    `re-embedding ${total} memories of ${driver.description} from '${built.id}' (${built.dimensions} dimensions) to '${target.id}' (${target.dimensions} dimensions)${plan.resume ? ", resuming an interrupted run" : ""}`,
  );
  const progress = options.progress?.(total) ?? noProgress;
  const counts: Counts = { episodic: 0, semantic: 0 };
  try {
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      if ((await stagePass(driver, options, counts, progress)) === 0) break;
    }
    await driver.transaction(async (tx) => {
      await lockMemories(tx);
      await stagePass(tx, options, counts, progress);
      await switchVectors(tx, target);
    });
  } finally {
    // Ends the bar's line, so an error is not printed on top of it.
    progress.done();
  }
  await tidy(driver, logger);
  logger.info(`the store now uses embedder '${target.id}' (${target.dimensions} dimensions)`);
  return { status: "reembedded", from: built, to: target, ...counts, resumed: plan.resume };
}

/** Embeds and stages, batch by batch, every memory not staged yet; returns how many. */
async function stagePass(
  db: SqlExecutor,
  options: ReembedOptions,
  counts: Counts,
  progress: ReembedProgress,
): Promise<number> {
  let staged = 0;
  for (const layer of LAYERS) {
    let after: string | undefined;
    for (;;) {
      const rows = await pendingMemories(db, layer, after, options.batchSize);
      if (rows.length === 0) break;
      const texts = rows.map((row) => embeddingText(layer, row));
      // Memories are the documents of retrieval (e5 embeds them as "passage: …").
      const vectors = await embedChecked(options.target, texts, "document");
      await stageVectors(
        db,
        layer,
        rows.map((row, i) => ({
          id: row.id,
          fingerprint: row.fingerprint,
          embedding: vectors[i]!,
        })),
      );
      counts[layer] += rows.length;
      staged += rows.length;
      progress.tick(rows.length);
      after = rows.at(-1)!.id;
      if (rows.length < options.batchSize) break;
    }
  }
  return staged;
}

/**
 * Every memory row was rewritten: reclaim the old versions and refresh planner statistics,
 * which PGlite, without autovacuum, would otherwise never do. The switch has committed, so a
 * failure here costs only speed.
 */
async function tidy(driver: SqlDriver, logger: Logger): Promise<void> {
  for (const layer of LAYERS) {
    await driver.exec(`VACUUM ANALYZE ${TABLE[layer]}`).catch((error: unknown) => {
      logger.warn(`could not vacuum ${TABLE[layer]} after re-embedding`, {
        error: error instanceof Error ? error.message : String(error),
      });
    });
  }
}
