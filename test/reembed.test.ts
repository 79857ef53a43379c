/**
 * `hindsight reembed`: a store written with one embedder, re-embedded with another, on every
 * backend — every memory kept, found by the new vectors, an interrupted run resumed, the schema
 * the same as a fresh store's — and the built CLI end to end against an OpenAI-compatible
 * embeddings server on loopback, killed mid-run included.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { hashEmbed } from "../src/adapters/embedders/hash.js";
import type { SqlExecutor } from "../src/adapters/storage/executor.js";
import { migrate } from "../src/adapters/storage/migrate.js";
import { openDriver } from "../src/adapters/storage/open-store.js";
import { STAGING_TABLE } from "../src/adapters/storage/reembed-sql.js";
import { embeddingText } from "../src/core/memories/embedding-text.js";
import type { MemoryLayer } from "../src/core/types.js";
import {
  createHashEmbedder,
  createHindsight,
  type Embedder,
  fixedClock,
  type Hindsight,
  type HindsightConfigInput,
  reembed,
  silentLogger,
} from "../src/index.js";
import { BACKENDS, POSTGRES_URL } from "./support/backends.js";
import { CLI, json, runCli } from "./support/cli.js";

const clock = fixedClock(new Date("2025-03-10T12:00:00Z"));
const A = createHashEmbedder(); // hash-v1, 384 dimensions: the store's first embedder
const B_DIMENSIONS = 64;
const C_DIMENSIONS = 32;

/** A hash embedder of another size that counts the texts it embeds and can fail on cue. */
function testEmbedder(dimensions: number, options: { failOnCall?: number } = {}) {
  const inner = createHashEmbedder(dimensions);
  const calls: number[] = [];
  const embedder: Embedder = {
    id: inner.id,
    dimensions,
    embed: async (texts) => {
      calls.push(texts.length);
      if (calls.length === options.failOnCall) throw new Error("embedding service went away");
      return inner.embed(texts);
    },
  };
  return { embedder, calls, texts: () => calls.reduce((sum, n) => sum + n, 0) };
}

async function expectCode(promise: Promise<unknown>, code: string): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught as Error & { code: string },
  );
  expect(error, "expected the call to fail").toBeDefined();
  expect(error!.code).toBe(code);
  return error!;
}

type Location = { databaseUrl?: string; dataDir: string };

async function withDb<T>(location: Location, fn: (db: SqlExecutor) => Promise<T>): Promise<T> {
  const driver = await openDriver(location, silentLogger);
  try {
    return await fn(driver);
  } finally {
    await driver.close();
  }
}

/** Every memory row but its vector: what re-embedding must leave exactly as it was. */
async function memoryRows(db: SqlExecutor): Promise<unknown[]> {
  const rows: unknown[] = [];
  for (const table of ["episodic_memories", "semantic_memories"]) {
    rows.push(
      ...(await db.query(`SELECT to_jsonb(m) - 'embedding' AS row FROM ${table} m ORDER BY id`)),
    );
  }
  return rows;
}

/** Columns, indexes, constraints and meta of the store's schema, comparable across schemas. */
async function schemaOf(db: SqlExecutor): Promise<unknown> {
  const columns = await db.query(
    `SELECT c.relname AS table, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod) AS type,
            a.attnotnull, pg_get_expr(d.adbin, d.adrelid) AS default_value
     FROM pg_attribute a
     JOIN pg_class c ON c.oid = a.attrelid
     LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
       AND a.attnum > 0 AND NOT a.attisdropped
     ORDER BY 1, 2`,
  );
  const indexes = await db.query(
    `SELECT indexname, replace(indexdef, current_schema() || '.', '') AS definition
     FROM pg_indexes WHERE schemaname = current_schema() ORDER BY 1`,
  );
  const constraints = await db.query(
    `SELECT conrelid::regclass::text AS table, conname, pg_get_constraintdef(oid) AS definition
     FROM pg_constraint WHERE connamespace = current_schema()::regnamespace ORDER BY 1, 2`,
  );
  const meta = await db.query("SELECT key, value FROM hindsight_meta ORDER BY key");
  return { columns, indexes, constraints, meta };
}

/** Checks that every memory's vector is `dimensions`-sized and computed from its current text. */
async function expectVectorsFrom(db: SqlExecutor, dimensions: number): Promise<void> {
  const layers: Record<MemoryLayer, string> = {
    episodic: "SELECT id, task_type, summary FROM episodic_memories",
    semantic: "SELECT id, key_text, value_text FROM semantic_memories",
  };
  for (const [layer, sql] of Object.entries(layers) as [MemoryLayer, string][]) {
    for (const row of await db.query<{ id: string; [field: string]: string }>(sql)) {
      const text = embeddingText(layer, row as never);
      const expected = `[${hashEmbed(text, dimensions).join(",")}]`;
      const [check] = await db.query<{ dims: number; distance: number }>(
        `SELECT vector_dims(embedding) AS dims, embedding <=> $2::vector AS distance
         FROM ${layer}_memories WHERE id = $1`,
        [row.id, expected],
      );
      expect(check!.dims).toBe(dimensions);
      expect(check!.distance, `${layer} ${row.id}: '${text}'`).toBeLessThan(1e-5);
    }
  }
}

/** A cleanup that also drops a PostgreSQL schema. */
function dropping(schema: string, then?: () => Promise<void>): () => Promise<void> {
  return async () => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
    await then?.();
  };
}

async function stagingPresent(db: SqlExecutor): Promise<boolean> {
  const [row] = await db.query<{ present: boolean }>(
    "SELECT to_regclass($1) IS NOT NULL AS present",
    [STAGING_TABLE],
  );
  return row!.present;
}

describe.each(BACKENDS)("reembed on $name", (backend) => {
  let location: Location;
  let cleanup: (() => Promise<void>) | undefined;
  let deployFailure: string;
  let refundFact: string;

  const open = (embedder: Embedder, config: Partial<HindsightConfigInput> = {}) =>
    createHindsight({ ...location, ...config }, { clock, embedder });

  async function withMemory<T>(embedder: Embedder, fn: (memory: Hindsight) => Promise<T>) {
    const memory = await open(embedder);
    try {
      return await fn(memory);
    } finally {
      await memory.close();
    }
  }

  /** 7 episodic memories (one archived) and 3 semantic ones (one quarantined), with A. */
  async function seed(memory: Hindsight): Promise<void> {
    deployFailure = (
      await memory.storeEpisodic({
        task_type: "deploy",
        summary: "Deploying the billing service failed: port 8080 already in use",
        outcome: "failure",
        tags: ["billing"],
        metadata: { ticket: "OPS-12" },
        user_id: "alice",
      })
    ).id;
    await memory.storeEpisodicBatch(
      ["code review found a race in refunds", "用户偏好用中文回复", "nightly backup completed"].map(
        (summary) => ({ task_type: "ops", summary, outcome: "success" }),
      ),
    );
    await memory.storeEpisodic({ task_type: "ops", summary: "disk full", outcome: "partial" });
    await memory.storeEpisodic({ task_type: "ops", summary: "cert expired", outcome: "failure" });
    const archived = await memory.storeEpisodic({
      task_type: "ops",
      summary: "old flaky test quarantined",
      outcome: "failure",
    });
    await memory.forget({ memory_id: archived.id, mode: "soft" });
    refundFact = (
      await memory.storeSemantic({ key_text: "Refund window", value_text: "30 days in the EU" })
    ).id;
    await memory.storeSemantic({ key_text: "Free the port first", value_text: "lsof -i :8080" });
    await memory.grant({ group: "staff", agent_ids: ["concierge"] });
    const quarantined = await memory.storeSemantic({
      key_text: "Parking",
      value_text: "staff park on the roof",
      source: "web-scrape",
      shared_group: "staff",
    });
    expect(quarantined.review_status).toBe("quarantined");
  }

  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  /**
   * On PGlite the seeded directory is made once and copied for each test: a new embedded
   * store costs seconds, a copy milliseconds. Memory ids are the same in every copy.
   */
  let template: string | undefined;
  let templateCleanup: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    if (backend.skip || backend.name !== "pglite") return;
    ({ location, cleanup: templateCleanup } = await backend.fresh());
    await withMemory(A, seed);
    template = location.dataDir;
  });
  afterAll(async () => {
    await templateCleanup?.();
  });

  async function freshSeeded(): Promise<void> {
    ({ location, cleanup } = await backend.fresh());
    if (template) await cp(template, location.dataDir, { recursive: true });
    else await withMemory(A, seed);
  }

  /** The schema of a store migrated afresh for `embedder`. */
  async function freshSchema(embedder: Embedder): Promise<unknown> {
    const fresh = await backend.scratch();
    const driver = await openDriver(fresh.location, silentLogger);
    try {
      await migrate(driver, embedder);
      return await schemaOf(driver);
    } finally {
      await driver.close();
      await fresh.cleanup();
    }
  }

  describe.skipIf(backend.skip !== undefined)("with the backend available", () => {
    it("re-embeds every memory of both layers and switches the store over", async () => {
      await freshSeeded();
      const before = await withDb(location, memoryRows);
      const b = testEmbedder(B_DIMENSIONS);
      const result = await reembed(location, { batch_size: 3 }, { embedder: b.embedder });
      expect(result).toMatchObject({
        status: "reembedded",
        from: { id: "hash-v1", dimensions: 384 },
        to: { id: `hash-v1-${B_DIMENSIONS}`, dimensions: B_DIMENSIONS },
        episodic: 7,
        semantic: 3,
        resumed: false,
      });
      expect(result.seconds).toBeGreaterThanOrEqual(0);
      expect(Math.max(...b.calls)).toBeLessThanOrEqual(3);

      const reference = await freshSchema(b.embedder);
      await withDb(location, async (db) => {
        expect(await memoryRows(db)).toEqual(before);
        await expectVectorsFrom(db, B_DIMENSIONS);
        expect(await stagingPresent(db)).toBe(false);
        // The same schema as a store migrated afresh for B: columns, indexes, constraints, meta.
        expect(await schemaOf(db)).toEqual(reference);
      });

      await withMemory(b.embedder, async (memory) => {
        const { results } = await memory.recall({
          query_text: "deploy: Deploying the billing service failed: port 8080 already in use",
          explain: true,
        });
        expect(results[0]!.id).toBe(deployFailure);
        expect(results[0]!.explanation!.vector_similarity).toBeGreaterThan(0.99);
        const facts = await memory.recall({
          query_text: "refund window",
          memory_layer: "semantic",
        });
        expect(facts.results[0]!.id).toBe(refundFact);
        expect((await memory.stats()).episodic).toMatchObject({ total: 7, archived: 1 });
      });

      const error = await expectCode(open(A), "EMBEDDER_MISMATCH");
      expect(error.message).toContain(
        `built with embedder 'hash-v1-${B_DIMENSIONS}' (${B_DIMENSIONS} dimensions) but 'hash-v1' (384 dimensions) is configured; re-embed it with \`hindsight reembed\``,
      );
    });

    it("resumes an interrupted run, embedding only the rest and what changed meanwhile", async () => {
      await freshSeeded();
      // Batches of 2: the first two episodic batches are committed, the third call fails.
      const failing = testEmbedder(B_DIMENSIONS, { failOnCall: 3 });
      await expectCode(
        reembed(location, { batch_size: 2 }, { embedder: failing.embedder }),
        "EMBEDDER_FAILED",
      );
      const staged = await withDb(location, async (db) => {
        const rows = await db.query<{ id: string }>(`SELECT id FROM ${STAGING_TABLE}`);
        // Nothing switched: the store still holds A's vectors.
        await expectVectorsFrom(db, 384);
        return rows.map((row) => row.id);
      });
      expect(staged).toHaveLength(4);

      // The old vectors stay in use meanwhile, and what is written with them is caught up.
      await withMemory(A, async (memory) => {
        const { results } = await memory.recall({ query_text: "billing port in use" });
        expect(results[0]!.id).toBe(deployFailure);
        await memory.storeEpisodic({ task_type: "ops", summary: "dns outage", outcome: "failure" });
      });
      await withDb(location, (db) =>
        db.query("UPDATE episodic_memories SET summary = 'changed after staging' WHERE id = $1", [
          staged[0],
        ]),
      );
      const b = testEmbedder(B_DIMENSIONS);
      const mismatch = await expectCode(open(b.embedder), "EMBEDDER_MISMATCH");
      expect(mismatch.message).toContain("was started and not finished");

      const planned = await reembed(location, { dry_run: true }, { embedder: b.embedder });
      // 7 + 1 new − 4 staged + 1 changed since.
      expect(planned).toMatchObject({ status: "dry_run", episodic: 5, semantic: 3, resumed: true });
      const result = await reembed(location, { batch_size: 2 }, { embedder: b.embedder });
      expect(result).toMatchObject({
        status: "reembedded",
        episodic: 5,
        semantic: 3,
        resumed: true,
      });
      expect(b.texts()).toBe(8);
      await withDb(location, (db) => expectVectorsFrom(db, B_DIMENSIONS));
      await withMemory(b.embedder, async (memory) => {
        expect((await memory.stats()).episodic.total).toBe(8);
      });
    });

    it("starts over when the target changed since the interrupted run", async () => {
      await freshSeeded();
      const failing = testEmbedder(B_DIMENSIONS, { failOnCall: 2 });
      await expectCode(
        reembed(location, { batch_size: 3 }, { embedder: failing.embedder }),
        "EMBEDDER_FAILED",
      );
      const c = testEmbedder(C_DIMENSIONS);
      const result = await reembed(location, { batch_size: 3 }, { embedder: c.embedder });
      expect(result).toMatchObject({
        from: { id: "hash-v1" },
        to: { id: `hash-v1-${C_DIMENSIONS}`, dimensions: C_DIMENSIONS },
        episodic: 7,
        semantic: 3,
        resumed: false,
      });
      expect(c.texts()).toBe(10);
      await withDb(location, (db) => expectVectorsFrom(db, C_DIMENSIONS));
      await withMemory(c.embedder, async (memory) => {
        expect((await memory.stats()).semantic.total).toBe(3);
      });
    });

    it("writes nothing on a dry run, and has nothing to do for the embedder it was built with", async () => {
      await freshSeeded();
      const snapshot = (db: SqlExecutor) =>
        Promise.all([schemaOf(db), memoryRows(db), stagingPresent(db)]);
      const before = await withDb(location, snapshot);
      const b = testEmbedder(B_DIMENSIONS);
      expect(await reembed(location, { dry_run: true }, { embedder: b.embedder })).toMatchObject({
        status: "dry_run",
        from: { id: "hash-v1", dimensions: 384 },
        to: { id: `hash-v1-${B_DIMENSIONS}`, dimensions: B_DIMENSIONS },
        episodic: 7,
        semantic: 3,
        resumed: false,
      });
      expect(b.texts()).toBe(0);
      expect(await withDb(location, snapshot)).toEqual(before);

      const a = testEmbedder(384);
      expect(await reembed(location, {}, { embedder: a.embedder })).toMatchObject({
        status: "nothing_to_do",
        from: { id: "hash-v1" },
        to: { id: "hash-v1" },
        episodic: 0,
        semantic: 0,
      });
      expect(a.texts()).toBe(0);
    });

    it("re-embeds the store of the tenant it is given, and only that one", async () => {
      await freshSeeded();
      // A random name: PostgreSQL tenant schemas live beside the test's own, and outlive it.
      const tenant = `acme_${randomBytes(4).toString("hex")}`;
      if (backend.name === "postgres") cleanup = dropping(`hindsight_${tenant}`, cleanup);
      const acme = { ...location, tenant };
      const memory = await createHindsight(acme, { clock, embedder: A });
      const { id } = await memory.storeEpisodic({
        task_type: "deploy",
        summary: "acme deploy",
        outcome: "success",
      });
      await memory.close();
      const b = testEmbedder(B_DIMENSIONS);
      expect(await reembed(acme, {}, { embedder: b.embedder })).toMatchObject({
        status: "reembedded",
        episodic: 1,
        semantic: 0,
      });
      const reopened = await createHindsight(acme, { clock, embedder: b.embedder });
      expect((await reopened.recall({ query_text: "acme deploy" })).results[0]!.id).toBe(id);
      await reopened.close();
      // The default tenant's store keeps its memories and its embedder.
      await withMemory(A, async (fallback) => {
        expect((await fallback.stats()).episodic.total).toBe(7);
      });
    });
  });

  it.runIf(backend.name === "pglite")(
    "refuses an embedded directory another process owns, naming what to stop",
    async () => {
      await freshSeeded();
      const owner = await open(A);
      try {
        const error = await expectCode(
          reembed({ ...location, lockTimeoutMs: 100 }, {}, { embedder: A }),
          "DATA_DIR_IN_USE",
        );
        expect(error.message).toContain(`process ${process.pid}`);
        expect(error.message).toContain("stop the other hindsight processes");
      } finally {
        await owner.close();
      }
    },
  );
});

it("rejects a bad batch size by name before opening anything", async () => {
  const dataDir = join(tmpdir(), `hindsight-never-${process.pid}`);
  const error = await expectCode(reembed({ dataDir }, { batch_size: 0 }), "INVALID_INPUT");
  expect((error as { field?: string }).field).toBe("batch_size");
  expect(existsSync(dataDir)).toBe(false);
});

/**
 * An OpenAI-compatible embeddings endpoint answering with hash vectors of its own size, so a
 * spawned CLI can use HINDSIGHT_EMBEDDER=openai. `hold` leaves requests from the nth on
 * unanswered, for killing a run mid-batch.
 */
async function startEmbeddings(dimensions: number) {
  const requests: string[][] = [];
  const held: ServerResponse[] = [];
  let holdFrom = Number.POSITIVE_INFINITY;
  let onHeld: (() => void) | undefined;
  const server = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const { input } = JSON.parse(raw) as { input: string[] };
    requests.push(input);
    if (requests.length >= holdFrom) {
      held.push(res);
      onHeld?.();
      return;
    }
    const data = input.map((text, index) => ({
      object: "embedding",
      index,
      embedding: [...hashEmbed(text, dimensions)],
    }));
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ object: "list", data, model: "fake-embed", usage: {} }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    texts: () => requests.reduce((sum, input) => sum + input.length, 0),
    /** Resolves once the nth request arrives, which is left unanswered. */
    holdFrom(n: number): Promise<void> {
      holdFrom = n;
      return new Promise((resolve) => {
        onHeld = resolve;
      });
    },
    release() {
      holdFrom = Number.POSITIVE_INFINITY;
      for (const res of held.splice(0)) res.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("hindsight reembed, the built CLI", () => {
  const DIMENSIONS = 48;
  let dir: string;
  let fake: Awaited<ReturnType<typeof startEmbeddings>>;
  let env: Record<string, string>;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    fake = await startEmbeddings(DIMENSIONS);
  });
  afterAll(async () => {
    await fake.close();
  });
  afterEach(async () => {
    child?.kill("SIGKILL");
    child = undefined;
    fake.release();
    await rm(dir, { recursive: true, force: true });
  });

  async function seeded(count: number): Promise<string[]> {
    dir = await mkdtemp(join(tmpdir(), "hindsight-reembed-"));
    env = {
      HINDSIGHT_DATA_DIR: dir,
      HINDSIGHT_EMBEDDER: "openai",
      OPENAI_BASE_URL: fake.baseUrl,
      EMBEDDING_MODEL: "fake-embed",
      EMBEDDING_DIMENSIONS: String(DIMENSIONS),
      HINDSIGHT_LLM_MAX_RETRIES: "0",
    };
    const memory = await createHindsight({ dataDir: dir, embedder: { kind: "hash" } }, { clock });
    const summaries = [
      "Deploying the billing service failed: port 8080 already in use",
      ...Array.from({ length: count - 1 }, (_, i) => `routine task number ${i}`),
    ];
    const { ids } = await memory.storeEpisodicBatch(
      summaries.map((summary) => ({ task_type: "deploy", summary, outcome: "failure" })),
    );
    await memory.storeSemantic({ key_text: "Free the port first", value_text: "lsof -i :8080" });
    await memory.close();
    return ids;
  }

  it("tells how to re-embed, re-embeds, and then needs the new embedder", async () => {
    const [deploy] = await seeded(3);
    const refused = await runCli(["recall", "billing port"], env);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain(
      "this database was built with embedder 'hash-v1' (384 dimensions) but 'openai:fake-embed' (48 dimensions) is configured; re-embed it with `hindsight reembed` (keeps every memory), or set HINDSIGHT_EMBEDDER=hash to keep using it [EMBEDDER_MISMATCH]",
    );

    const missing = join(dir, "never-created");
    const bad = await runCli(
      ["reembed", "--batch-size", "0", "--json", "--data-dir", missing],
      env,
    );
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr.trim().split("\n").at(-1)!)).toMatchObject({
      error: { code: "INVALID_INPUT", field: "batch_size", flag: "--batch-size (batch_size)" },
    });
    expect(existsSync(missing)).toBe(false);

    const sent = fake.texts();
    const run = await runCli(["reembed", "--batch-size", "2", "--json"], env);
    expect(json(run)).toMatchObject({
      status: "reembedded",
      from: { id: "hash-v1", dimensions: 384 },
      to: { id: "openai:fake-embed", dimensions: DIMENSIONS },
      episodic: 3,
      semantic: 1,
      resumed: false,
    });
    expect(run.stderr).toContain("re-embedding 4 memories");
    expect(fake.texts() - sent).toBe(4);

    const again = await runCli(["reembed"], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(
      "nothing to do: the store already uses embedder 'openai:fake-embed' (48 dimensions)",
    );

    const found = json<{ results: { id: string }[] }>(
      await runCli(["recall", "billing port in use", "--json"], env),
    );
    expect(found.results[0]!.id).toBe(deploy);
  });

  it("loses nothing when killed mid-run, and the next run resumes", async () => {
    const ids = await seeded(6);
    const thirdRequest = fake.holdFrom(fake.requests.length + 3);
    child = spawn(process.execPath, [CLI, "reembed", "--batch-size", "2"], {
      env: { ...process.env, ...env, HINDSIGHT_LOG_LEVEL: "silent" },
      stdio: "ignore",
    });
    const exited = new Promise((resolve) => child!.once("exit", resolve));
    // Two batches are committed before the third one is asked for.
    await thirdRequest;
    child.kill("SIGKILL");
    await exited;
    child = undefined;
    fake.release();

    // The old vectors are still the store's.
    const memory = await createHindsight({ dataDir: dir, embedder: { kind: "hash" } }, { clock });
    expect((await memory.stats()).episodic.total).toBe(6);
    await memory.close();

    const before = fake.texts();
    const result = await reembed(
      {
        dataDir: dir,
        embedder: {
          kind: "openai",
          baseUrl: fake.baseUrl,
          model: "fake-embed",
          dimensions: DIMENSIONS,
          maxRetries: 0,
        },
      },
      { batch_size: 2 },
    );
    expect(result).toMatchObject({ status: "reembedded", episodic: 2, semantic: 1, resumed: true });
    expect(fake.texts() - before).toBe(3);
    const after = await createHindsight(
      { dataDir: dir, embedder: { kind: "openai", baseUrl: fake.baseUrl, model: "fake-embed" } },
      { clock },
    );
    const { results } = await after.recall({ query_text: "billing port in use" });
    expect(results[0]!.id).toBe(ids[0]);
    expect((await after.stats()).episodic.total).toBe(6);
    await after.close();
  });
});
