/**
 * Benchmark: store throughput and recall latency on each backend, against the raw pgvector
 * top-k query on the same table in the same run (the floor no recall can beat).
 *
 *   npm run bench -- --json [--sizes 10000,100000] [--backends pglite,postgres] [--queries 200]
 *
 * Sizes grow one table: the 100k row set is the 10k one plus 90k more. After each load the
 * tables are vacuumed and analysed, so recall is measured in the steady state.
 *
 * `insert_floor_per_s` is the raw insert rate of the same vectors into a bare table with only
 * an HNSW index, in 1000-row statements: the most the database allows for vector writes.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { silentLogger, systemClock } from "../adapters.js";
import { DEFAULT_RANKING } from "../core/ranking.js";
import { MemoryService } from "../core/service.js";
import { createHashEmbedder } from "../embedders/hash.js";
import { type SqlDriver, toVectorLiteral } from "../storage/executor.js";
import { openPGlite } from "../storage/pglite.js";
import { openPostgres } from "../storage/postgres.js";
import { SqlMemoryStore } from "../storage/sql-store.js";
import { cl100k } from "../tokens.js";
import { generateMemory, generateQuery, random } from "./corpus.js";
import { type Percentiles, percentiles } from "./stats.js";

interface BenchResult {
  backend: string;
  n: number;
  store_per_s: number;
  insert_floor_per_s: number;
  embedder_per_s: number;
  recall_ms: Percentiles;
  floor_ms: Percentiles;
  recall_over_floor_p50: number;
}

const { values } = parseArgs({
  options: {
    json: { type: "boolean", default: false },
    sizes: { type: "string", default: "10000,100000" },
    backends: { type: "string", default: "pglite,postgres" },
    queries: { type: "string", default: "200" },
    "database-url": {
      type: "string",
      default: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
    },
  },
});

const sizes = values.sizes
  .split(",")
  .map(Number)
  .sort((a, b) => a - b);
const queryCount = Number(values.queries);
const BATCH = 1000;
const TOP_K = 5;
const progress = (message: string) => process.stderr.write(`bench: ${message}\n`);

async function openBackend(
  name: string,
): Promise<{ driver: SqlDriver; cleanup: () => Promise<void> }> {
  if (name === "pglite") {
    const dataDir = await mkdtemp(join(tmpdir(), "hindsight-bench-"));
    const driver = await openPGlite({ dataDir, logger: silentLogger });
    return { driver, cleanup: () => rm(dataDir, { recursive: true, force: true }) };
  }
  if (name === "postgres") {
    const schema = `hindsight_bench_${randomBytes(4).toString("hex")}`;
    const admin = await openPostgres({
      connectionString: values["database-url"],
      logger: silentLogger,
    });
    await admin.exec(`CREATE SCHEMA ${schema}`);
    const url = new URL(values["database-url"]);
    url.searchParams.set("options", `-c search_path=${schema},public`);
    const driver = await openPostgres({ connectionString: url.toString(), logger: silentLogger });
    return {
      driver,
      cleanup: async () => {
        await admin.exec(`DROP SCHEMA ${schema} CASCADE`);
        await admin.close();
      },
    };
  }
  throw new Error(`unknown backend ${name}`);
}

/** Inserts vectors into a bare HNSW-indexed table of the same size as the memory table. */
async function measureInsertFloor(driver: SqlDriver, vectors: Float32Array[]): Promise<number> {
  const sample = vectors.slice(0, 10_000);
  await driver.exec(
    `DROP TABLE IF EXISTS bench_insert_floor;
     CREATE TABLE bench_insert_floor (id bigserial PRIMARY KEY, embedding vector(${sample[0]?.length ?? 384}));
     CREATE INDEX ON bench_insert_floor USING hnsw (embedding vector_cosine_ops);`,
  );
  const start = performance.now();
  for (let i = 0; i < sample.length; i += BATCH) {
    const batch = sample.slice(i, i + BATCH);
    const values = batch.map((_, j) => `($${j + 1}::vector)`).join(", ");
    await driver.query(
      `INSERT INTO bench_insert_floor (embedding) VALUES ${values}`,
      batch.map((vector) => toVectorLiteral(vector)),
    );
  }
  const perSecond = Math.round((sample.length / (performance.now() - start)) * 1000);
  await driver.exec("DROP TABLE bench_insert_floor");
  return perSecond;
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await fn();
  return [value, performance.now() - start];
}

async function benchBackend(name: string): Promise<BenchResult[]> {
  const { driver, cleanup } = await openBackend(name);
  const embedder = createHashEmbedder();
  const store = new SqlMemoryStore(driver);
  await store.migrate(embedder);
  const memory = new MemoryService({
    store,
    embedder,
    clock: systemClock,
    logger: silentLogger,
    ranking: DEFAULT_RANKING,
    candidateLimit: 30,
    tokens: cl100k,
  });
  const next = random(42);
  const results: BenchResult[] = [];
  let stored = 0;
  try {
    for (const n of sizes) {
      const items = Array.from({ length: n - stored }, (_, i) => generateMemory(next, stored + i));
      const [vectorsForFloor, embedMs] = await timed(() =>
        embedder.embed(items.map((item) => item.summary)),
      );
      const insertFloor = await measureInsertFloor(driver, vectorsForFloor);
      let storeMs = 0;
      for (let start = 0; start < items.length; start += BATCH) {
        const [, ms] = await timed(() =>
          memory.storeEpisodicBatch(items.slice(start, start + BATCH)),
        );
        storeMs += ms;
        progress(`${name}: stored ${stored + Math.min(start + BATCH, items.length)}/${n}`);
      }
      stored = n;
      // Measure the steady state: on PostgreSQL, autovacuum would otherwise be processing the
      // freshly loaded table during the measurement (and PGlite has no autovacuum at all).
      progress(`${name}: vacuum analyze`);
      await driver.exec("VACUUM ANALYZE");
      const queryNext = random(7);
      const queries = Array.from({ length: queryCount }, () => generateQuery(queryNext));
      const vectors = await embedder.embed(queries);
      const floorSql = `SELECT id FROM episodic_memories ORDER BY embedding <=> $1::vector LIMIT ${TOP_K}`;
      for (const query of queries.slice(0, 20)) {
        await memory.recall({ query_text: query, top_k: TOP_K });
        await driver.query(floorSql, [toVectorLiteral(vectors[0]!)]);
      }
      const recallMs: number[] = [];
      const floorMs: number[] = [];
      for (let i = 0; i < queries.length; i++) {
        recallMs.push(
          (await timed(() => memory.recall({ query_text: queries[i]!, top_k: TOP_K })))[1],
        );
        floorMs.push(
          (await timed(() => driver.query(floorSql, [toVectorLiteral(vectors[i]!)])))[1],
        );
      }
      const recall = percentiles(recallMs);
      const floor = percentiles(floorMs);
      const result = {
        backend: name,
        n,
        store_per_s: Math.round((items.length / storeMs) * 1000),
        insert_floor_per_s: insertFloor,
        embedder_per_s: Math.round((items.length / embedMs) * 1000),
        recall_ms: recall,
        floor_ms: floor,
        recall_over_floor_p50: Math.round((recall.p50 / floor.p50) * 100) / 100,
      };
      progress(`${name}: ${JSON.stringify(result)}`);
      results.push(result);
    }
  } finally {
    await store.close();
    await cleanup();
  }
  return results;
}

const results: BenchResult[] = [];
for (const backend of values.backends.split(","))
  results.push(...(await benchBackend(backend.trim())));
if (values.json) {
  process.stdout.write(`${JSON.stringify({ results })}\n`);
} else {
  for (const r of results) {
    process.stdout.write(
      `${r.backend.padEnd(9)} n=${String(r.n).padEnd(7)} store ${r.store_per_s}/s ` +
        `(insert floor ${r.insert_floor_per_s}/s, embedder ${r.embedder_per_s}/s)  ` +
        `recall p50 ${r.recall_ms.p50} p95 ${r.recall_ms.p95} p99 ${r.recall_ms.p99} ms  ` +
        `floor p50 ${r.floor_ms.p50} p95 ${r.floor_ms.p95} p99 ${r.floor_ms.p99} ms  (${r.recall_over_floor_p50}×)\n`,
    );
  }
}
