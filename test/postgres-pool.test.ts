/**
 * Many tenants on one PostgreSQL share one bounded pool: the process never holds more than
 * its connection limit (a pool per tenant let six busy tenants take 60 connections), and
 * each tenant still reads only its own schema.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createHindsight, type Hindsight } from "../src/index.js";
import { POSTGRES_URL, postgresSkipReason } from "./support/backends.js";

const TENANTS = 6;
const WRITES = 15;

describe.skipIf(postgresSkipReason !== undefined)("tenants on PostgreSQL", () => {
  const application = `hindsight-pool-${randomUUID().slice(0, 8)}`;
  const url = new URL(POSTGRES_URL);
  url.searchParams.set("application_name", application);
  const tenants = Array.from(
    { length: TENANTS },
    (_, index) => `pool${index}${application.slice(-4)}`,
  );
  const memories: Hindsight[] = [];
  const admin = new pg.Client({ connectionString: POSTGRES_URL });

  afterAll(async () => {
    await Promise.all(memories.map((memory) => memory.close()));
    for (const tenant of tenants) {
      await admin.query(`DROP SCHEMA IF EXISTS hindsight_${tenant} CASCADE`).catch(() => undefined);
    }
    await admin.end();
  });

  it("share one pool: at most 10 connections for 6 busy tenants, each seeing its own", async () => {
    await admin.connect();
    for (const tenant of tenants) {
      memories.push(
        await createHindsight({
          databaseUrl: url.toString(),
          dataDir: "memory://",
          tenant,
          embedder: { kind: "hash" },
        }),
      );
    }
    let most = 0;
    let loading = true;
    const sampler = (async () => {
      while (loading) {
        const { rows } = await admin.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1",
          [application],
        );
        most = Math.max(most, rows[0]!.n);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    await Promise.all(
      memories.flatMap((memory, index) =>
        Array.from({ length: WRITES }, (_, n) =>
          memory.storeEpisodic({
            task_type: "load",
            summary: `tenant ${index} write ${n}`,
            outcome: "success",
          }),
        ),
      ),
    );
    loading = false;
    await sampler;
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(10);
    for (const memory of memories) {
      expect((await memory.stats()).episodic.total).toBe(WRITES);
    }
  }, 120_000);

  it("each tenant still reads its own rows once the statements are prepared on shared connections", async () => {
    // Statements run often are prepared per connection (postgres.ts); a connection moves between
    // tenants' schemas, and a prepared statement must follow its search_path.
    for (let round = 0; round < 4; round++) {
      for (const [index, memory] of memories.entries()) {
        const { results } = await memory.recall({ query_text: "tenant write", top_k: 3 });
        expect(results).toHaveLength(3);
        for (const result of results) {
          expect(result.layer === "episodic" && result.summary).toMatch(`tenant ${index} write`);
        }
        const listed = await memory.list({ limit: 2 });
        expect(listed.memories.map((item) => item.layer === "episodic" && item.summary)).toEqual([
          expect.stringContaining(`tenant ${index} write`),
          expect.stringContaining(`tenant ${index} write`),
        ]);
      }
    }
  }, 120_000);
});
