/**
 * Picks working memory's store and says which on stderr: Redis when REDIS_URL is set,
 * otherwise the memory store's own database — a fallback the log names, so nobody mistakes
 * it for Redis (a silent fallback is a known way to lose track of data).
 */
import type { WorkingConfig } from "../../config/schema.js";
import { ErrorCode, HindsightError } from "../../core/errors.js";
import type { Logger, Storage } from "../../core/ports.js";
import type { WorkingMemoryStore } from "../../core/working/ports.js";
import { SqlStorage } from "../storage/sql-storage.js";

export async function openWorkingStore(
  config: WorkingConfig,
  storage: Storage,
  logger: Logger,
): Promise<WorkingMemoryStore> {
  if (config.redisUrl) {
    const { openRedisWorkingStore } = await import("./redis-store.js");
    const redis = await openRedisWorkingStore({
      url: config.redisUrl,
      keyPrefix: config.keyPrefix,
      timeoutMs: config.timeoutMs,
      logger,
    });
    logger.info(`working memory in Redis at ${redis.description}`);
    return redis;
  }
  if (!(storage instanceof SqlStorage)) {
    throw new HindsightError(
      ErrorCode.CONFIG_INVALID,
      "working memory needs REDIS_URL or a SQL memory store to keep its sessions in",
      { field: "working.redisUrl" },
    );
  }
  logger.info(
    `working memory kept in the database (${storage.admin.description}); set REDIS_URL to keep it in Redis`,
  );
  return storage.workingStore();
}
