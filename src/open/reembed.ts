/**
 * `reembed(config)`: gives every memory of the configured tenant's store a vector from the
 * configured embedder (see storage/reembed). It opens the store below the memory service,
 * which refuses a store built for another embedder, and owns an embedded directory alone:
 * nothing is forwarded to another process, since that process could not open it either.
 */
import { z } from "zod";
import { createEmbedder } from "../adapters/embedders/create.js";
import { silentLogger } from "../adapters/logger.js";
import { acquireDirLock } from "../adapters/storage/dir-lock.js";
import { openDriver } from "../adapters/storage/open-store.js";
import { ensurePrivateDirectory } from "../adapters/storage/private-dir.js";
import {
  type ReembedProgress,
  type ReembedResult,
  reembedStore,
} from "../adapters/storage/reembed.js";
import type { HindsightConfig, HindsightConfigInput } from "../config/schema.js";
import { ErrorCode, HindsightError, isHindsightError } from "../core/errors.js";
import type { Embedder, Logger } from "../core/ports.js";
import { validate } from "../core/validate.js";
import { tenantConfig } from "../tenants/tenant.js";
import { sharesDirectory } from "./hindsight.js";
import { parseConfig } from "./parse-config.js";

export const ReembedInput = z.strictObject({
  batch_size: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(128)
    .describe("Memories embedded and committed at a time; an interrupted run keeps whole batches."),
  dry_run: z
    .boolean()
    .default(false)
    .describe("Count what would be re-embedded, from which embedder to which; write nothing."),
});
export type ReembedInput = z.input<typeof ReembedInput>;

export interface ReembedDeps {
  logger?: Logger;
  /** The target embedder, instead of the one the configuration names; the caller closes it. */
  embedder?: Embedder;
  progress?: (total: number) => ReembedProgress;
}

/**
 * Re-embeds the store of `config`'s tenant with `config`'s embedder. Stop every other
 * hindsight process using the store first: on an embedded directory this fails with
 * DATA_DIR_IN_USE while one runs; on PostgreSQL a server still running with the old embedder
 * would go on writing its vectors.
 */
export async function reembed(
  config: HindsightConfigInput,
  input: unknown = {},
  deps: ReembedDeps = {},
): Promise<ReembedResult> {
  const request = validate(ReembedInput, input);
  const parsed = parseConfig(config);
  const tenant = tenantConfig(parsed, parsed.tenant);
  const logger = deps.logger ?? silentLogger;
  const embedder = deps.embedder ?? (await createEmbedder(tenant.embedder, logger));
  try {
    return await owningDirectory(tenant, async () => {
      const driver = await openDriver(tenant, logger);
      try {
        return await reembedStore(driver, {
          target: embedder,
          batchSize: request.batch_size,
          dryRun: request.dry_run,
          logger,
          ...(deps.progress ? { progress: deps.progress } : {}),
        });
      } finally {
        await driver.close();
      }
    });
  } finally {
    if (!deps.embedder) await embedder.close?.();
  }
}

/** Runs `fn` holding an embedded data directory's lock, without serving anyone on it. */
async function owningDirectory<T>(config: HindsightConfig, fn: () => Promise<T>): Promise<T> {
  if (!sharesDirectory(config)) return fn();
  await ensurePrivateDirectory(config.dataDir, { field: "HINDSIGHT_DATA_DIR" });
  let lock: Awaited<ReturnType<typeof acquireDirLock>>;
  try {
    lock = await acquireDirLock(config.dataDir, { timeoutMs: config.lockTimeoutMs });
  } catch (error) {
    if (!isHindsightError(error) || error.code !== ErrorCode.DATA_DIR_IN_USE) throw error;
    const pid = error.details?.pid;
    throw new HindsightError(
      ErrorCode.DATA_DIR_IN_USE,
      `data directory ${config.dataDir} is in use by ${pid === undefined ? "another process" : `process ${pid}`}; ` +
        "re-embedding needs it to itself: stop the other hindsight processes using it " +
        "(MCP servers, `hindsight serve`), then run `hindsight reembed` again",
      { ...(error.details ? { details: error.details } : {}), cause: error },
    );
  }
  try {
    return await fn();
  } finally {
    await lock.release();
  }
}
