/**
 * The statements a recall sends keep one plan on PGlite, where they are prepared once
 * (adapters/storage/pglite-statements): PostgreSQL plans a prepared statement for its first five runs, then
 * keeps a plan for any values when that plan costs no more than the ones made for each run's.
 * A bound LIMIT or a bound array the planner could look into made every run look cheaper
 * planned on its own, so each recall paid ~0.9 ms of planning (docs/benchmarks.md).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHashEmbedder } from "../src/adapters/embedders/hash.js";
import { silentLogger } from "../src/adapters/logger.js";
import { findCandidateSets } from "../src/adapters/storage/candidates.js";
import type { SqlDriver } from "../src/adapters/storage/executor.js";
import { IN_MEMORY, openPGlite } from "../src/adapters/storage/pglite.js";
import { SqlStorage } from "../src/adapters/storage/sql-storage.js";
import type { MemoryService } from "../src/core/service.js";
import { serviceOn } from "./support/lifecycle.js";

interface PlanCounts {
  statement: string;
  generic_plans: number;
  custom_plans: number;
}

describe("recall's statements on PGlite", () => {
  let driver: SqlDriver;
  let memory: MemoryService;

  beforeAll(async () => {
    driver = await openPGlite({ dataDir: IN_MEMORY, logger: silentLogger });
    // The service's recall on a driver this test can also ask for the session's statements.
    memory = await serviceOn(new SqlStorage(driver));
    const topics = ["billing", "deploy", "gateway", "数据库", "certificates", "缓存", "invoices"];
    // Enough memories that the planner expects dozens of candidates, as in a real store (with a
    // handful it probes the usage table whatever the statement says).
    await memory.storeEpisodicBatch(
      Array.from({ length: 240 }, (_, i) => ({
        task_type: "ops",
        summary: `${topics[i % topics.length]} check ${i}: ${topics[(i * 3) % topics.length]} fine`,
        outcome: "success" as const,
      })),
    );
  });
  afterAll(async () => {
    await memory?.close();
  });

  it("are planned for their first runs only, then run on the plan PostgreSQL kept", async () => {
    const queries = [
      "billing",
      "why did the deploy fail",
      "数据库",
      "gateway certificates",
      "缓存 invoices",
      "deploy",
      "billing invoices",
      "certificates",
      "数据库 缓存",
      "gateway",
      "invoices",
      "why billing",
    ];
    for (const query_text of queries) await memory.recall({ query_text, top_k: 5 });
    // The last access count is written behind its response; a recall waits for it.
    await memory.recall({ query_text: "billing", top_k: 5 }, { recordAccess: false });
    const plans = await driver.query<PlanCounts>(
      `SELECT statement, generic_plans::int AS generic_plans, custom_plans::int AS custom_plans
       FROM pg_prepared_statements`,
    );
    const of = (marker: string) => {
      const found = plans.filter((plan) => plan.statement.includes(marker));
      expect(found, marker).toHaveLength(1);
      return found[0]!;
    };
    for (const marker of [
      "hits_0",
      "FROM episodic_memories m LEFT JOIN episodic_usage u",
      "INSERT INTO episodic_usage",
    ]) {
      const { generic_plans, custom_plans } = of(marker);
      // Planned for each of the first five runs, then never again.
      expect({ marker, custom_plans }).toEqual({ marker, custom_plans: 5 });
      expect(generic_plans, marker).toBeGreaterThanOrEqual(queries.length - 5);
    }
  });

  it("look up each candidate's access count, never reading the whole usage table", async () => {
    // A store in use: every recall leaves a usage row, so the table grows towards the number of
    // memories ever recalled. The rows' memories need not exist for the planner's choice, so
    // foreign keys are off while they are written.
    await driver.transaction(async (tx) => {
      await tx.exec("SET LOCAL session_replication_role = replica");
      await tx.exec(`INSERT INTO episodic_usage (id, access_count, last_accessed_at)
        SELECT gen_random_uuid(), 1, now() FROM generate_series(1, 5000)`);
    });
    await driver.exec("ANALYZE episodic_usage");
    const [embedding] = await createHashEmbedder().embed(["billing gateway"], "query");
    let statement: [string, readonly unknown[]] | undefined;
    await findCandidateSets(
      {
        query: async (sql, params = []) => {
          statement = [sql, params];
          return [];
        },
        exec: async () => {},
      },
      [
        {
          layer: "episodic",
          embedding: embedding!,
          keywords: ["billing", "gateway"],
          filter: { include_archived: false },
          limit: 30,
        },
      ],
    );
    const plan = await driver.query<{ "QUERY PLAN": string }>(
      `EXPLAIN ${statement![0]}`,
      statement![1],
    );
    const text = plan.map((row) => row["QUERY PLAN"]).join("\n");
    expect(text).toContain("episodic_usage_pkey");
    expect(text).not.toMatch(/Seq Scan on episodic_usage/);
  });
});
