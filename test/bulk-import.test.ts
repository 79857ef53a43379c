/**
 * A restore into a new embedded store writes without the vector index and builds it once
 * (storage/vector-index `BulkImports`): before the next recall, at close, or at the next open
 * when the process died first. PostgreSQL keeps its index throughout.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../src/adapters/logger.js";
import type { SqlDriver } from "../src/adapters/storage/executor.js";
import { openDriver } from "../src/adapters/storage/open-store.js";
import { SqlStorage } from "../src/adapters/storage/sql-storage.js";
import { newEpisodeRecord } from "../src/core/transfer/format.js";
import type { RecalledMemory } from "../src/core/types.js";
import { BACKENDS, type FreshStore } from "./support/backends.js";
import { serviceOn } from "./support/lifecycle.js";

const [pglite, postgres] = BACKENDS as [(typeof BACKENDS)[0], (typeof BACKENDS)[1]];

async function open(location: { databaseUrl?: string; dataDir: string }) {
  const driver = await openDriver(location, silentLogger);
  const service = await serviceOn(new SqlStorage(driver));
  return { driver, service };
}

const indexed = async (driver: SqlDriver) =>
  (
    await driver.query<{ present: boolean }>(
      "SELECT to_regclass('episodic_embedding_idx') IS NOT NULL AS present",
    )
  )[0]?.present;

const summaryOf = (memory: RecalledMemory | undefined) =>
  memory?.layer === "episodic" ? memory.summary : undefined;

/** Runs `fn` on a new store of `make`'s, removed afterwards. */
async function onNewStore(
  make: () => Promise<FreshStore>,
  fn: (location: FreshStore["location"]) => Promise<void>,
): Promise<void> {
  const fresh = await make();
  try {
    await fn(fresh.location);
  } finally {
    await fresh.cleanup();
  }
}

/** A store opened at `location` with a first batch restored into it, its index left out. */
async function restoredInto(location: { dataDir: string }) {
  const opened = await open(location);
  await opened.service.importMemories(batch("lighthouse", 4));
  expect(await indexed(opened.driver)).toBe(false);
  return opened;
}

/** A batch of an export: episodes about `topic`, numbered from `from`. */
const batch = (topic: string, count: number, from = 0) => ({
  records: Array.from({ length: count }, (_, i) =>
    newEpisodeRecord({
      id: randomUUID(),
      occurred_at: "2025-04-01T08:00:00Z",
      task_type: "restore",
      summary: `${topic} note ${from + i}`,
      outcome: "success",
    }),
  ),
});

describe("a restore into a new embedded store", () => {
  it("writes without the vector index, and the next recall builds it and finds by it", async () => {
    await onNewStore(pglite.scratch, async (location) => {
      const { driver, service } = await open(location);
      try {
        await service.importMemories(batch("lighthouse", 6));
        expect(await indexed(driver)).toBe(false);
        // The table holds more than this batch brings, and the index is still left out.
        await service.importMemories(batch("harbour", 3));
        expect(await indexed(driver)).toBe(false);
        const { results } = await service.recall({ query_text: "harbour note 1", top_k: 1 });
        expect(await indexed(driver)).toBe(true);
        expect(summaryOf(results[0])).toBe("harbour note 1");
        const { count } = (
          await driver.query<{ count: number }>(
            "SELECT count(*)::int AS count FROM episodic_memories",
          )
        )[0]!;
        expect(count).toBe(9);
      } finally {
        await service.close();
      }
    });
  });

  it("builds the index at close, and the next open finds it", async () => {
    await onNewStore(pglite.fresh, async (location) => {
      const first = await restoredInto(location);
      await first.service.close();
      // Looked at below the store, which would build a missing index as it opens.
      const raw = await openDriver(location, silentLogger);
      expect(await indexed(raw)).toBe(true);
      await raw.close();
    });
  });

  it("an open after a process died mid-restore builds the index it left out", async () => {
    await onNewStore(pglite.fresh, async (location) => {
      const first = await restoredInto(location);
      // As a process killed before it closed would leave it: the index dropped, never built.
      await first.driver.close();
      const second = await open(location);
      expect(await indexed(second.driver)).toBe(true);
      const { results } = await second.service.recall({ query_text: "lighthouse note 2" });
      expect(summaryOf(results[0])).toBe("lighthouse note 2");
      await second.service.close();
    });
  });

  it("keeps the index when the store holds more memories than the batch brings", async () => {
    await onNewStore(pglite.scratch, async (location) => {
      const { driver, service } = await open(location);
      try {
        await service.storeEpisodicBatch(
          Array.from({ length: 4 }, (_, i) => ({
            task_type: "restore",
            summary: `kept note ${i}`,
            outcome: "success" as const,
          })),
        );
        await service.importMemories(batch("lighthouse", 3));
        expect(await indexed(driver)).toBe(true);
      } finally {
        await service.close();
      }
    });
  });
});

describe.skipIf(postgres.skip !== undefined)("a restore into a new PostgreSQL store", () => {
  it("keeps the vector index: other processes search the table meanwhile", async () => {
    await onNewStore(postgres.scratch, async (location) => {
      const { driver, service } = await open(location);
      try {
        await service.importMemories(batch("lighthouse", 6));
        expect(await indexed(driver)).toBe(true);
      } finally {
        await service.close();
      }
    });
  });
});
