/**
 * Benchmark: store throughput and recall latency on each backend, against the raw pgvector
 * top-k query on the same table in the same run (the floor no recall can beat).
 *
 *   npm run bench -- --json [--sizes 10000,100000] [--backends pglite,postgres] [--queries 200]
 *                    [--embedder hash|default] [--serve] [--end-to-end 10000] [--cli-rounds 7]
 *
 * One run prints every figure of issue #18, and `targets` says which hold:
 *
 * - the engine: each size of `--sizes` grows one table, embedded with `--embedder` (the hash
 *   embedder by default: loading 100 000 memories through the model would take hours), and
 *   recall is measured against the raw query on the same vectors;
 * - end to end (`--end-to-end n`, default 10 000; 0 skips it): each backend again, a store of n
 *   memories embedded with the default model (multilingual-e5-small, fetched by `npm run
 *   fetch:model`): recall with its query embedding (`query_embed_ms`) against its floor of one
 *   query embedding + the raw query (`floor_with_embed_ms`), the same recalls through
 *   `hindsight serve` over HTTP on loopback (`serve_recall_ms`, the client's wall time per
 *   request), and cold ingest with the model;
 * - the command line (`--cli-rounds`, default 7; 0 skips it), as an agent hook pays for it, one
 *   process per call, against a bare `node -e 0` in the same run (src/bench/cli.ts): a refused
 *   input, `stats`, and `store` / `recall` with and without a process owning the directory,
 *   with the default model when the end-to-end part runs, else with `--embedder`.
 *
 * `--embedder default` runs the engine part with the model too, and `--serve` adds `serve` to
 * it. After each load the tables are vacuumed and analysed, so recall is measured in the steady
 * state. `insert_floor_per_s` is the raw insert rate of the same vectors into a bare table with
 * only an HNSW index, in 1000-row statements: the most the database allows for vector writes.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { systemClock } from "../adapters/clock.js";
import { createEmbedder } from "../adapters/embedders/create.js";
import { silentLogger } from "../adapters/logger.js";
import { type SqlDriver, toVectorLiteral } from "../adapters/storage/executor.js";
import { openPGlite } from "../adapters/storage/pglite.js";
import { openPostgres } from "../adapters/storage/postgres.js";
import { SqlStorage } from "../adapters/storage/sql-storage.js";
import { cl100k } from "../adapters/tokens.js";
import { embeddingWith } from "../core/embed.js";
import { embeddingText } from "../core/memories/embedding-text.js";
import type { Embedder } from "../core/ports.js";
import { DEFAULT_RANKING } from "../core/recall/ranking.js";
import { MemoryService } from "../core/service.js";
import { newEpisodeRecord } from "../core/transfer/format.js";
import { importBatches } from "../core/transfer/transfer.js";
import { cachingEmbedder } from "../eval/embedding-cache.js";
import { benchCli, type CliBench, type CliCase } from "./cli.js";
import { generateMemory, generateQuery, random } from "./corpus.js";
import { type Percentiles, percentiles } from "./stats.js";
import { targets } from "./targets.js";

interface BenchResult {
  backend: string;
  n: number;
  store_per_s: number;
  insert_floor_per_s: number;
  embedder_per_s: number;
  recall_ms: Percentiles;
  floor_ms: Percentiles;
  recall_over_floor_p50: number;
  embedder: string;
  query_embed_ms?: Percentiles;
  floor_with_embed_ms?: Percentiles;
  /** Recall (its query embedding included) ÷ one query embedding + the raw query. */
  recall_over_floor_with_embed_p50?: number;
  serve_recall_ms?: Percentiles;
  /** After the last size: fresh memories stored with their embedding (nothing cached). */
  ingest?: Ingest;
}

interface Ingest {
  items: number;
  batch: number;
  /** storeEpisodicBatch, embedding included. */
  store_per_s: number;
  /** The embedder alone on as many other fresh texts, in one call, before and after the writes. */
  embedder_per_s: number;
  /** store ÷ embedder: 1 would mean storing costs nothing beyond the embedding. */
  ratio: number;
  /** `hindsight import` of as many fresh exported memories without vectors, same batch size. */
  import_per_s: number;
  /** import ÷ embedder. */
  import_ratio: number;
}

const { values } = parseArgs({
  options: {
    json: { type: "boolean", default: false },
    sizes: { type: "string", default: "10000,100000" },
    backends: { type: "string", default: "pglite,postgres" },
    queries: { type: "string", default: "200" },
    embedder: { type: "string", default: "hash" },
    serve: { type: "boolean", default: false },
    "end-to-end": { type: "string", default: "10000" },
    "cli-rounds": { type: "string", default: "7" },
    "database-url": {
      type: "string",
      default: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
    },
  },
});

type EmbedderKind = "hash" | "default";

/** One part of the run: which embedder, which sizes grow the table, whether `serve` is asked. */
interface Part {
  embedder: EmbedderKind;
  sizes: number[];
  serve: boolean;
  /** Cold ingest after the last size: measured where the default model runs, if anywhere. */
  ingest: boolean;
}

function embedderKind(name: string): EmbedderKind {
  if (name !== "hash" && name !== "default") {
    throw new Error(`--embedder: '${name}' is not hash or default`);
  }
  return name;
}

const endToEndSize = Number(values["end-to-end"]);
if (!Number.isInteger(endToEndSize) || endToEndSize < 0) {
  throw new Error(`--end-to-end: '${values["end-to-end"]}' is not a number of memories`);
}
const engineEmbedder = embedderKind(values.embedder);
const engine: Part = {
  embedder: engineEmbedder,
  sizes: values.sizes
    .split(",")
    .map(Number)
    .sort((a, b) => a - b),
  serve: values.serve,
  // The hash embedder's ingest ratio says nothing about the model's; with no model part, the
  // engine's ingest is still reported, as before.
  ingest: engineEmbedder === "default" || endToEndSize === 0,
};
const endToEnd: Part | undefined =
  endToEndSize > 0
    ? { embedder: "default", sizes: [endToEndSize], serve: true, ingest: true }
    : undefined;
const queryCount = Number(values.queries);
const BATCH = 1000;
const TOP_K = 5;
const progress = (message: string) => process.stderr.write(`bench: ${message}\n`);
const CLI = join(dirname(fileURLToPath(import.meta.url)), "..", "cli", "main.js");

/**
 * The embedder under test. Documents' vectors are kept in memory so that the floor's table and
 * the memory table get the same vectors without embedding them twice; queries are always
 * embedded, as recall does.
 */
async function benchEmbedder(scratch: string, kind: EmbedderKind): Promise<Embedder> {
  const inner = await createEmbedder(
    kind === "hash" ? { kind: "hash" } : { kind: "local", allowRemote: false },
    silentLogger,
  );
  const documents = await cachingEmbedder(inner, join(scratch, "unused.bin"));
  return {
    ...embeddingWith(inner, (texts, purpose = "document") =>
      purpose === "query" ? inner.embed(texts, purpose) : documents.embed(texts, purpose),
    ),
    close: () => inner.close?.() ?? Promise.resolve(),
  };
}

/** `hindsight serve` on the given store, its URL once it listens; kill() stops it. */
async function startServe(
  env: Record<string, string>,
): Promise<{ url: string; kill(): Promise<void> }> {
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0"], {
    env: { ...process.env, HINDSIGHT_LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  return {
    url,
    kill: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/**
 * Groups of bench queries, no query in two places: a recall of a query asked before finds its
 * vector kept (core/query-vectors) and would not pay for the embedding.
 */
function distinctQueries(sizes: readonly number[], seed = 7): string[][] {
  const next = random(seed);
  const seen = new Set<string>();
  return sizes.map((size) => {
    const group: string[] = [];
    while (group.length < size) {
      const query = generateQuery(next);
      if (seen.has(query)) continue;
      seen.add(query);
      group.push(query);
    }
    return group;
  });
}

/** `serve`'s recall p50/p99 over the timed queries, after a pass over the warm-up ones. */
async function serveRecall(
  url: string,
  [warmUps = [], timedQueries = []]: readonly string[][],
): Promise<Percentiles> {
  const recall = (query_text: string) =>
    fetch(`${url}/v1/recall`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query_text, top_k: TOP_K }),
    }).then(async (response) => {
      if (!response.ok) throw new Error(`recall: ${response.status} ${await response.text()}`);
      await response.json();
    });
  // Steady state, as for the in-process recalls: the server has just opened the store, and
  // V8 optimises PGlite's hot WebAssembly and the service's code only after they have run a
  // while, which the in-process side has done throughout the load. One pass over as many
  // other queries.
  for (const query of warmUps) await recall(query);
  const ms: number[] = [];
  for (const query of timedQueries) ms.push((await timed(() => recall(query)))[1]);
  return percentiles(ms);
}

interface Backend {
  driver: SqlDriver;
  /** How `hindsight serve` reaches the same store. */
  serveEnv: Record<string, string>;
  /** PGlite allows one process per directory: the bench closes and reopens around serve. */
  exclusive: boolean;
  reopen(): Promise<SqlDriver>;
  cleanup: () => Promise<void>;
}

async function openBackend(name: string): Promise<Backend> {
  if (name === "pglite") {
    const dataDir = await mkdtemp(join(tmpdir(), "hindsight-bench-"));
    const open = () => openPGlite({ dataDir, logger: silentLogger });
    return {
      driver: await open(),
      serveEnv: { HINDSIGHT_DATA_DIR: dataDir },
      exclusive: true,
      reopen: open,
      cleanup: () => rm(dataDir, { recursive: true, force: true }),
    };
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
    const open = () => openPostgres({ connectionString: url.toString(), logger: silentLogger });
    return {
      driver: await open(),
      serveEnv: { DATABASE_URL: url.toString() },
      exclusive: false,
      reopen: open,
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

/**
 * Cold ingest: fresh memories whose vectors no cache holds, stored in import-sized batches
 * (storeEpisodicBatch, then `hindsight import`'s way: importBatches over export lines without
 * vectors), against the embedder alone on as many other fresh texts before the writes and after.
 */
async function measureIngest(
  memory: MemoryService,
  embedder: Embedder,
  kind: EmbedderKind,
  next: () => number,
): Promise<Ingest> {
  const items = kind === "hash" ? 4096 : 512;
  const batch = 128;
  const fresh = Array.from({ length: 3 * items }, (_, i) => generateMemory(next, 90_000_000 + i));
  // The embedder alone, before the writes and again after them: the model's speed drifts by a
  // fifth within a minute on a shared machine (docs/benchmarks.md), and one measurement taken
  // before would carry that drift into the ratio.
  const embedAlone = async (part: number) => {
    const texts = fresh
      .slice(part * items, (part + 1) * items)
      .map((item) => embeddingText("episodic", item));
    return (await timed(() => embedder.embed(texts)))[1];
  };
  const embedBeforeMs = await embedAlone(1);
  let storeMs = 0;
  for (let start = 0; start < items; start += batch) {
    storeMs += (await timed(() => memory.storeEpisodicBatch(fresh.slice(start, start + batch))))[1];
  }
  const exported = Array.from({ length: items }, (_, i) =>
    newEpisodeRecord({
      id: `00000000-0000-4000-8000-${String(95_000_000 + i).padStart(12, "0")}`,
      ...generateMemory(next, 95_000_000 + i),
    }),
  );
  const batches = Array.from({ length: Math.ceil(items / batch) }, (_, i) => ({
    records: exported.slice(i * batch, (i + 1) * batch),
  }));
  const [imported, importMs] = await timed(() => importBatches(memory, batches));
  if (imported.imported !== items) throw new Error(`imported ${imported.imported} of ${items}`);
  const embedAfterMs = await embedAlone(2);
  const store_per_s = Math.round((items / storeMs) * 1000);
  const embedder_per_s = Math.round(((2 * items) / (embedBeforeMs + embedAfterMs)) * 1000);
  const import_per_s = Math.round((items / importMs) * 1000);
  return {
    items,
    batch,
    store_per_s,
    embedder_per_s,
    ratio: Math.round((store_per_s / embedder_per_s) * 100) / 100,
    import_per_s,
    import_ratio: Math.round((import_per_s / embedder_per_s) * 100) / 100,
  };
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await fn();
  return [value, performance.now() - start];
}

async function benchBackend(name: string, part: Part): Promise<BenchResult[]> {
  const { sizes } = part;
  const backend = await openBackend(name);
  const scratch = await mkdtemp(join(tmpdir(), "hindsight-bench-vectors-"));
  const embedder = await benchEmbedder(scratch, part.embedder);
  let driver = backend.driver;
  const open = async () => {
    const storage = new SqlStorage(driver);
    await storage.admin.migrate(embedder);
    const service = new MemoryService({
      storage,
      embedder,
      clock: systemClock,
      logger: silentLogger,
      ranking: DEFAULT_RANKING,
      candidateLimit: 30,
      tokens: cl100k,
    });
    return { store: storage.admin, service };
  };
  let { store, service: memory } = await open();
  /** A new connection to the same database, and the service on it (the old one is closed). */
  const reopen = async () => {
    driver = await backend.reopen();
    ({ store, service: memory } = await open());
  };
  const next = random(42);
  const results: BenchResult[] = [];
  let stored = 0;
  try {
    for (const n of sizes) {
      const items = Array.from({ length: n - stored }, (_, i) => generateMemory(next, stored + i));
      // The text the store embeds, so the stored vectors come cached.
      const [vectorsForFloor, embedMs] = await timed(() =>
        embedder.embed(items.map((item) => embeddingText("episodic", item))),
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
      if (backend.exclusive) {
        // As a server starting on a store of this size would: PGlite sizes its buffer pool to
        // the store when it opens it (pglite-buffers), and this process opened it empty.
        await store.close();
        await reopen();
      }
      // Each query asked once, warm-up ones apart: the service keeps recent queries' vectors
      // (core/query-vectors), and what is measured is a recall that embeds its query. The
      // floor runs its own new queries: on the recall's vector it would find the graph pages
      // that recall just read in the buffer pool (at 100 000 memories 4% faster on PGlite, 25–30%
      // on PostgreSQL: docs/benchmarks.md), a head start no recall of a new question has.
      const [warmUps = [], queries = [], floorQueries = []] = distinctQueries([
        20,
        queryCount,
        queryCount,
      ]);
      const floorVectors = await embedder.embed(floorQueries, "query");
      const floorSql = `SELECT id FROM episodic_memories ORDER BY embedding <=> $1::vector LIMIT ${TOP_K}`;
      const warmUpVectors = await embedder.embed(warmUps, "query");
      for (const [i, query] of warmUps.entries()) {
        await memory.recall({ query_text: query, top_k: TOP_K });
        await driver.query(floorSql, [toVectorLiteral(warmUpVectors[i]!)]);
      }
      const recallMs: number[] = [];
      const floorMs: number[] = [];
      for (let i = 0; i < queries.length; i++) {
        recallMs.push(
          (await timed(() => memory.recall({ query_text: queries[i]!, top_k: TOP_K })))[1],
        );
        // The count is written behind the response; on PGlite the floor would wait for it
        // on the one session and carry its cost (~0.2 ms at 10k, a quarter of the floor).
        await memory.accessCountsWritten();
        floorMs.push(
          (await timed(() => driver.query(floorSql, [toVectorLiteral(floorVectors[i]!)])))[1],
        );
      }
      const recall = percentiles(recallMs);
      const floor = percentiles(floorMs);
      // The query's own embedding, uncached: what every recall pays before the database.
      const embedMsEach: number[] = [];
      const withEmbedMs: number[] = [];
      if (part.embedder !== "hash") {
        for (let i = 0; i < floorQueries.length; i++) {
          const [[vector], ms] = await timed(() => embedder.embed([floorQueries[i]!], "query"));
          embedMsEach.push(ms);
          withEmbedMs.push(
            ms + (await timed(() => driver.query(floorSql, [toVectorLiteral(vector!)])))[1],
          );
        }
      }
      const withEmbed = percentiles(withEmbedMs);
      let served: Percentiles | undefined;
      if (part.serve) {
        if (backend.exclusive) await store.close();
        const server = await startServe({
          ...backend.serveEnv,
          HINDSIGHT_EMBEDDER: part.embedder === "hash" ? "hash" : "local",
        });
        try {
          served = await serveRecall(server.url, distinctQueries([queryCount, queryCount], 11));
        } finally {
          await server.kill();
        }
        if (backend.exclusive) await reopen();
      }
      const result: BenchResult = {
        backend: name,
        n,
        store_per_s: Math.round((items.length / storeMs) * 1000),
        insert_floor_per_s: insertFloor,
        embedder_per_s: Math.round((items.length / embedMs) * 1000),
        recall_ms: recall,
        floor_ms: floor,
        recall_over_floor_p50: Math.round((recall.p50 / floor.p50) * 100) / 100,
        embedder: embedder.id,
        ...(embedMsEach.length > 0
          ? {
              query_embed_ms: percentiles(embedMsEach),
              floor_with_embed_ms: withEmbed,
              recall_over_floor_with_embed_p50:
                Math.round((recall.p50 / withEmbed.p50) * 100) / 100,
            }
          : {}),
        ...(served ? { serve_recall_ms: served } : {}),
      };
      if (n === sizes.at(-1) && part.ingest) {
        result.ingest = await measureIngest(memory, embedder, part.embedder, next);
      }
      progress(`${name}: ${JSON.stringify(result)}`);
      results.push(result);
    }
  } finally {
    await store.close();
    await embedder.close?.();
    await backend.cleanup();
    await rm(scratch, { recursive: true, force: true });
  }
  return results;
}

const backends = values.backends.split(",").map((backend) => backend.trim());
const results: BenchResult[] = [];
for (const backend of backends) results.push(...(await benchBackend(backend, engine)));
const endToEndResults: BenchResult[] = [];
if (endToEnd) {
  for (const backend of backends) endToEndResults.push(...(await benchBackend(backend, endToEnd)));
}
const cliRounds = Number(values["cli-rounds"]);
const cliEmbedder = endToEnd ? "default" : engine.embedder;
const cli: CliBench | undefined =
  cliRounds > 0
    ? await benchCli({
        cli: CLI,
        embedder: cliEmbedder === "hash" ? "hash" : "",
        rounds: cliRounds,
        startServe,
        progress,
      })
    : undefined;
const met = targets(results, endToEndResults, cli);
if (values.json) {
  process.stdout.write(
    `${JSON.stringify({
      results,
      ...(endToEnd ? { end_to_end: endToEndResults } : {}),
      ...(cli ? { cli } : {}),
      targets: met,
    })}\n`,
  );
} else {
  for (const r of [...results, ...endToEndResults]) {
    process.stdout.write(
      `${r.backend.padEnd(9)} n=${String(r.n).padEnd(7)} store ${r.store_per_s}/s ` +
        `(insert floor ${r.insert_floor_per_s}/s, embedder ${r.embedder_per_s}/s)  ` +
        `recall p50 ${r.recall_ms.p50} p95 ${r.recall_ms.p95} p99 ${r.recall_ms.p99} ms  ` +
        `floor p50 ${r.floor_ms.p50} p95 ${r.floor_ms.p95} p99 ${r.floor_ms.p99} ms  (${r.recall_over_floor_p50}×)` +
        (r.query_embed_ms
          ? `  query embedding p50 ${r.query_embed_ms.p50} p99 ${r.query_embed_ms.p99} ms, floor with it p50 ${r.floor_with_embed_ms!.p50} p99 ${r.floor_with_embed_ms!.p99} ms (recall ${r.recall_over_floor_with_embed_p50}×)`
          : "") +
        (r.serve_recall_ms
          ? `  through serve p50 ${r.serve_recall_ms.p50} p99 ${r.serve_recall_ms.p99} ms`
          : "") +
        (r.ingest
          ? `  cold ingest ${r.ingest.store_per_s}/s, import ${r.ingest.import_per_s}/s vs embedder ${r.ingest.embedder_per_s}/s (${r.ingest.ratio}×, ${r.ingest.import_ratio}×)`
          : "") +
        `  [${r.embedder}]\n`,
    );
  }
  if (cli) {
    const line = (name: string, c: CliCase) =>
      `cli ${name.padEnd(18)} p50 ${c.ms.p50} p95 ${c.ms.p95} ms  (${c.over_node}× node -e)\n`;
    process.stdout.write(
      `cli node -e 0             p50 ${cli.node_ms.p50} ms  [${cli.embedder}]\n`,
    );
    process.stdout.write(line("refused input", cli.refused));
    process.stdout.write(line("stats (no model)", cli.stats_no_model));
    process.stdout.write(line("store, cold", cli.cold_store));
    process.stdout.write(line("recall, cold", cli.cold_recall));
    process.stdout.write(line("store, forwarded", cli.forwarded_store));
    process.stdout.write(line("recall, forwarded", cli.forwarded_recall));
    process.stdout.write(
      `cli store, starting warm  ${cli.warm_first_store_ms} ms  (HINDSIGHT_KEEP_WARM's first call)\n`,
    );
    process.stdout.write(line("store, kept warm", cli.warm_store));
    process.stdout.write(line("recall, kept warm", cli.warm_recall));
  }
  for (const target of met) {
    const value =
      typeof target.value === "number"
        ? String(target.value)
        : Object.entries(target.value)
            .map(([backend, value]) => `${backend} ${value}`)
            .join(", ");
    process.stdout.write(
      `target ${target.met ? "met    " : "not met"}  ${target.measure}: ${value} (${target.bound})\n`,
    );
  }
}
