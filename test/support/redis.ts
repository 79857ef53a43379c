/**
 * The machine's real Redis, on a database number of its own (11) so tests never touch other
 * data, with a key prefix per run. With CI=true an unreachable Redis fails the run.
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";

export const REDIS_URL = process.env.HINDSIGHT_TEST_REDIS_URL ?? "redis://127.0.0.1:6379/11";

async function probeRedis(): Promise<string | undefined> {
  const client = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.ping();
    return undefined;
  } catch (error) {
    return `Redis unreachable at ${REDIS_URL}: ${(error as Error).message}`;
  } finally {
    client.disconnect();
  }
}

const unavailable = await probeRedis();
if (unavailable && process.env.CI === "true") {
  throw new Error(`CI=true and ${unavailable}`);
}

/** Why Redis tests are skipped on this machine, or undefined when they run. */
export const redisSkipReason = unavailable;

/** A key prefix no other run uses, and a way to delete every key under it. */
export function testPrefix(): { keyPrefix: string; cleanup: () => Promise<void> } {
  const keyPrefix = `hindsight-test-${randomBytes(6).toString("hex")}:`;
  return {
    keyPrefix,
    cleanup: async () => {
      const client = new Redis(REDIS_URL);
      try {
        const keys = await client.keys(`${keyPrefix}*`);
        if (keys.length > 0) await client.del(...keys);
      } finally {
        client.disconnect();
      }
    },
  };
}
