/**
 * PostgreSQL crashing and coming back under a write load: every acknowledged write must
 * survive, writes in flight must fail with a clear error, and the same service must carry on
 * once the database is back, without being restarted. Runs on a PostgreSQL of its own, which
 * it crashes (`pg_ctl stop -m immediate`: no shutdown checkpoint, recovery from the WAL).
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpApp } from "../src/http/app.js";
import { createHindsight, type Hindsight, isHindsightError } from "../src/index.js";
import {
  type PrivatePostgres,
  privatePostgresSkipReason,
  startPrivatePostgres,
} from "./support/private-postgres.js";
import { until } from "./support/until.js";

if (privatePostgresSkipReason && process.env.CI === "true") {
  throw new Error(`CI=true and ${privatePostgresSkipReason}`);
}

const WRITERS = 4;
/** Acknowledged writes before the server is killed, and after it is back. */
const WRITES_BEFORE = 40;
const WRITES_AFTER = 40;

interface LoadReport {
  acknowledged: string[];
  failures: { code: string; message: string }[];
  acknowledgedAfterRestart: number;
}

describe.skipIf(privatePostgresSkipReason)("PostgreSQL restarted during a write load", () => {
  let server: PrivatePostgres;
  let memory: Hindsight;

  beforeAll(async () => {
    server = await startPrivatePostgres();
    memory = await createHindsight({
      embedder: { kind: "hash" },
      databaseUrl: server.url,
      dataDir: "memory://",
    });
  }, 120_000);

  afterAll(async () => {
    await memory?.close();
    await server?.stop();
  });

  it("keeps every acknowledged write, fails in-flight ones clearly and recovers", async () => {
    const report: LoadReport = { acknowledged: [], failures: [], acknowledgedAfterRestart: 0 };
    let phase: "before" | "crashing" | "after" | "done" = "before";
    const writer = async (writerIndex: number) => {
      for (let n = 0; phase !== "done"; n++) {
        const id = randomUUID();
        try {
          await memory.storeEpisodic({
            id,
            task_type: "load",
            summary: `writer ${writerIndex} write ${n}: deployed service ${n % 7} to staging`,
            outcome: "success",
          });
          report.acknowledged.push(id);
          if (phase === "after") report.acknowledgedAfterRestart++;
        } catch (error) {
          report.failures.push({
            code: isHindsightError(error) ? error.code : "UNCODED",
            message: error instanceof Error ? error.message : String(error),
          });
          // A client backs off a little before retrying a failed write.
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    };
    const load = Promise.all(Array.from({ length: WRITERS }, (_, index) => writer(index)));
    // Counts, not pauses: a busy machine only takes longer to reach them.
    await until(
      "writes before the crash",
      () => report.acknowledged.length >= WRITES_BEFORE,
      120_000,
    );
    phase = "crashing";
    await server.crashAndRestart();
    phase = "after";
    await until(
      "writes after the restart",
      () => report.acknowledgedAfterRestart >= WRITES_AFTER,
      120_000,
    );
    phase = "done";
    await load;

    // Every failure is a coded storage failure with a message, never an uncoded crash.
    for (const failure of report.failures) {
      expect(failure.code).toBe("STORAGE_FAILED");
      expect(failure.message.length).toBeGreaterThan(0);
    }
    // The same service object writes again once the database is back.
    expect(report.acknowledgedAfterRestart).toBeGreaterThan(0);

    // Every acknowledged write is in the database, read by a connection of our own.
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM episodic_memories WHERE id = ANY($1::uuid[])",
        [report.acknowledged],
      );
      expect(rows[0]?.n).toBe(report.acknowledged.length);
    } finally {
      await client.end();
    }
    // Recall works too, through the same service.
    const { results } = await memory.recall({ query_text: "deployed service to staging" });
    expect(results.length).toBeGreaterThan(0);
    console.error(
      `postgres restart: ${report.acknowledged.length + report.failures.length} writes attempted, ` +
        `${report.acknowledged.length} acknowledged and stored, ${report.failures.length} failed ` +
        `(${report.acknowledgedAfterRestart} acknowledged after the restart); failures said: ` +
        [...new Set(report.failures.map((failure) => failure.message))].slice(0, 3).join(" | "),
    );
  }, 120_000);
});

describe.skipIf(privatePostgresSkipReason)("PostgreSQL frozen (SIGSTOP)", () => {
  let server: PrivatePostgres;
  let memory: Hindsight;
  let app: ReturnType<typeof createHttpApp>;
  let storedBefore = "";

  beforeAll(async () => {
    server = await startPrivatePostgres();
    memory = await createHindsight({
      embedder: { kind: "hash" },
      databaseUrl: server.url,
      dataDir: "memory://",
      databaseTimeoutMs: 1500,
    });
    app = createHttpApp(memory, { logger: { debug() {}, info() {}, warn() {}, error() {} } });
    const stored = await memory.storeEpisodic({
      task_type: "t",
      summary: "before the freeze",
      outcome: "success",
    });
    storedBefore = stored.id;
  }, 120_000);

  afterAll(async () => {
    await server?.thaw().catch(() => undefined);
    await memory?.close();
    await server?.stop();
  });

  it("answers /health with 503 at once, fails requests with STORAGE_FAILED, and recovers", async () => {
    await server.freeze();
    try {
      const health = await app.request("/health");
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ code: "STORAGE_FAILED" });
      const failure = await memory.recall({ query_text: "freeze" }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isHindsightError(failure) && failure.code).toBe("STORAGE_FAILED");
    } finally {
      await server.thaw();
    }
    // The connections that timed out were discarded; fresh ones serve the next requests.
    await expect
      .poll(async () => (await app.request("/health")).status, { timeout: 30_000 })
      .toBe(200);
    const { results } = await memory.recall({ query_text: "before the freeze", min_score: 0 });
    expect(results.map((result) => result.id)).toContain(storedBefore);
  }, 60_000);
});
