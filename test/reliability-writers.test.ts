/**
 * Several writer processes at once, against PostgreSQL and against `hindsight serve` on the
 * embedded store: every acknowledged write is stored, exactly once. The embedded server is
 * then killed with SIGKILL in the middle of a load and reopened: it must come back consistent,
 * holding every write it acknowledged.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createHindsight, parseConfig, silentLogger } from "../src/index.js";
import { openService } from "../src/open/service.js";
import { createTestSchema, postgresSkipReason } from "./support/backends.js";
import { killServers, serve } from "./support/serve.js";

const WRITER = fileURLToPath(new URL("./support/writer.mjs", import.meta.url));
const PROCESSES = 4;
const WRITES = 40;

interface WriterReport {
  acknowledged: string[];
  failures: { code: string; message: string }[];
}

/** Counts acknowledgements across all writers as they arrive. */
let acknowledgedSoFar = 0;

function runWriter(args: string[], env: Record<string, string | undefined>): Promise<WriterReport> {
  const report: WriterReport = { acknowledged: [], failures: [] };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRITER, ...args], {
      env: { ...process.env, HINDSIGHT_LOG_LEVEL: "error", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    createInterface({ input: child.stdout }).on("line", (line) => {
      const answer = JSON.parse(line) as { ack?: string; failure?: WriterReport["failures"][0] };
      if (answer.ack) {
        report.acknowledged.push(answer.ack);
        acknowledgedSoFar++;
      }
      if (answer.failure) report.failures.push(answer.failure);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`writer exited ${code}: ${stderr}`));
      else resolve(report);
    });
  });
}

function merge(reports: WriterReport[]): WriterReport {
  return {
    acknowledged: reports.flatMap((report) => report.acknowledged),
    failures: reports.flatMap((report) => report.failures),
  };
}

function writers(args: (index: number) => string[], env: Record<string, string | undefined>) {
  return Promise.all(Array.from({ length: PROCESSES }, (_, index) => runWriter(args(index), env)));
}

function log(what: string, attempted: number, report: WriterReport, stored: number): void {
  console.error(
    `${what}: ${attempted} writes attempted, ${report.acknowledged.length} acknowledged, ` +
      `${stored} stored, ${report.failures.length} failed`,
  );
}

afterEach(killServers);

describe.skipIf(postgresSkipReason)("writer processes against PostgreSQL", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it(`stores every acknowledged write of ${PROCESSES} processes × ${WRITES} writes`, async () => {
    const { url, drop } = await createTestSchema();
    cleanups.push(drop);
    // Migrate once first, as a deployment does, so the writers race on data, not on DDL.
    await (
      await createHindsight({ embedder: { kind: "hash" }, databaseUrl: url, dataDir: "memory://" })
    ).close();
    const report = merge(
      await writers((index) => ["library", String(WRITES), `pg-${index}`], {
        DATABASE_URL: url,
        HINDSIGHT_DATA_DIR: "memory://",
      }),
    );
    expect(report.failures).toEqual([]);
    expect(report.acknowledged).toHaveLength(PROCESSES * WRITES);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM episodic_memories WHERE id = ANY($1::uuid[])",
        [report.acknowledged],
      );
      const { rows: total } = await client.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM episodic_memories",
      );
      expect(rows[0]?.n).toBe(report.acknowledged.length);
      expect(total[0]?.n).toBe(report.acknowledged.length);
      log("postgres writers", PROCESSES * WRITES, report, rows[0]!.n);
    } finally {
      await client.end();
    }
  }, 120_000);
});

describe("writer processes against serve on the embedded store", () => {
  let dataDir: string;
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** How many of these ids the embedded store holds, read with the server stopped. */
  async function storedOf(ids: string[]): Promise<number> {
    const service = await openService(parseConfig({ dataDir, embedder: { kind: "hash" } }), {
      logger: silentLogger,
    });
    try {
      let found = 0;
      for (let start = 0; start < ids.length; start += 100) {
        found += (await service.storage.memories.getMany("episodic", ids.slice(start, start + 100)))
          .length;
      }
      return found;
    } finally {
      await service.close();
    }
  }

  it("stores every acknowledged write, and survives SIGKILL mid-load", async () => {
    dataDir = await mkdtemp(join(tmpdir(), "hindsight-writers-"));
    const env = { HINDSIGHT_DATA_DIR: dataDir, DATABASE_URL: undefined };
    const first = await serve(env);
    const report = merge(
      await writers((index) => ["http", String(WRITES), `serve-${index}`, first.url], {}),
    );
    expect(report.failures).toEqual([]);
    expect(report.acknowledged).toHaveLength(PROCESSES * WRITES);
    const stats = (await (await fetch(`${first.url}/v1/stats`)).json()) as {
      episodic: { total: number };
    };
    expect(stats.episodic.total).toBe(PROCESSES * WRITES);
    log("serve writers", PROCESSES * WRITES, report, stats.episodic.total);

    // Now a load that the server does not live through: killed once a quarter of it is in.
    const before = acknowledgedSoFar;
    const load = writers((index) => ["http", String(WRITES), `killed-${index}`, first.url], {});
    while (acknowledgedSoFar - before < (PROCESSES * WRITES) / 4) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    first.child.kill("SIGKILL");
    await first.exited;
    const killed = merge(await load);
    expect(killed.acknowledged.length).toBeGreaterThanOrEqual((PROCESSES * WRITES) / 4);
    expect(killed.failures.length).toBeGreaterThan(0);
    const acknowledged = [...report.acknowledged, ...killed.acknowledged];
    const stored = await storedOf(acknowledged);
    expect(stored).toBe(acknowledged.length);
    log("serve killed mid-load", PROCESSES * WRITES, killed, stored - report.acknowledged.length);

    // The directory reopens and serves again.
    const second = await serve(env);
    const recall = await fetch(`${second.url}/v1/recall`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query_text: "rotated the API keys" }),
    });
    expect(recall.status).toBe(200);
    expect(((await recall.json()) as { results: unknown[] }).results.length).toBeGreaterThan(0);
  }, 180_000);
});
