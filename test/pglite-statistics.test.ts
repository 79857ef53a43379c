/**
 * PGlite has no autovacuum, so nothing analysed a table that changed while a process had it
 * open, and a prepared statement kept the plan it was given from the table's last statistics.
 * A store analysed while its access-count table was empty (a `VACUUM ANALYZE` after a load, as
 * the bench runs) made recall read that whole table once per candidate, slower with every
 * memory ever recalled (adapters/storage/pglite-statistics).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../src/adapters/logger.js";
import type { SqlDriver } from "../src/adapters/storage/executor.js";
import { IN_MEMORY, openPGlite } from "../src/adapters/storage/pglite.js";
import { SqlStorage } from "../src/adapters/storage/sql-storage.js";
import type { MemoryService } from "../src/core/service.js";
import { serviceOn } from "./support/lifecycle.js";

const MEMORIES = 2000;
const words = [
  "billing",
  "deploy",
  "gateway",
  "数据库",
  "certificates",
  "缓存",
  "invoices",
  "队列",
];

describe("planner statistics on PGlite", () => {
  let driver: SqlDriver;
  let storage: SqlStorage;
  let memory: MemoryService;
  const usageScans = async () => {
    // Counters are published when the session is next idle, at most once a second otherwise.
    await driver.query("SELECT pg_stat_force_next_flush()");
    const [row] = await driver.query<{ scans: number }>(
      "SELECT seq_scan::int AS scans FROM pg_stat_user_tables WHERE relname = 'episodic_usage'",
    );
    return row!.scans;
  };
  const query = (i: number) => `${words[i % words.length]} ${words[(i * 5 + 1) % words.length]}`;

  beforeAll(async () => {
    driver = await openPGlite({ dataDir: IN_MEMORY, logger: silentLogger });
    storage = new SqlStorage(driver);
    memory = await serviceOn(storage);
    for (let start = 0; start < MEMORIES; start += 500) {
      await memory.storeEpisodicBatch(
        Array.from({ length: 500 }, (_, k) => {
          const i = start + k;
          return {
            task_type: "ops",
            summary: `${words[i % words.length]} check ${i}: ${words[(i * 3) % words.length]} fine`,
            outcome: "success" as const,
          };
        }),
      );
    }
  });
  afterAll(async () => {
    await memory?.close();
  });

  it("keeps a recall's access-count look-up by key once the usage table has grown", async () => {
    // Statistics taken while nothing has been recalled yet; the statements are planned, and
    // their plans kept, while almost nothing has.
    await driver.exec("VACUUM ANALYZE");
    for (let i = 0; i < 10; i++) await memory.recall({ query_text: query(i), top_k: 5 });
    // Then every memory is recalled once, as a server's day of recalls would.
    const ids = (await driver.query<{ id: string }>("SELECT id FROM episodic_memories")).map(
      (row) => row.id,
    );
    expect(ids).toHaveLength(MEMORIES);
    for (let start = 0; start < ids.length; start += 100) {
      await storage.recall.recordAccess("episodic", ids.slice(start, start + 100), new Date());
    }
    // More than enough statements for the driver to have looked at its statistics.
    for (let i = 0; i < 40; i++) await memory.recall({ query_text: query(i), top_k: 5 });
    const before = await usageScans();
    for (let i = 0; i < 20; i++) await memory.recall({ query_text: query(i), top_k: 5 });
    // Before: one full read of the usage table per candidate, ~57 a recall. Now at most the
    // winners' rows read it whole once, where the planner finds that cheaper than five probes.
    expect((await usageScans()) - before).toBeLessThanOrEqual(20);
  });
});
