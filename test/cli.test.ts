/**
 * The built CLI, spawned as a user runs it, on every backend.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_MODEL, defaultModelDir } from "../src/adapters/embedders/default-model.js";
import { MIGRATIONS } from "../src/adapters/storage/migrations.js";
import { BACKENDS } from "./support/backends.js";
import { json, runCli } from "./support/cli.js";

describe.each(BACKENDS)("hindsight CLI on $name", (backend) => {
  const env: Record<string, string | undefined> = {};
  let cleanup: () => Promise<void> = async () => {};

  beforeAll(async () => {
    if (backend.skip) return;
    const fresh = await backend.fresh();
    cleanup = fresh.cleanup;
    env.HINDSIGHT_DATA_DIR = fresh.location.dataDir;
    env.DATABASE_URL = fresh.location.databaseUrl;
  });
  afterAll(() => cleanup());

  it.skipIf(backend.skip !== undefined)("stores, recalls, forgets and counts", async () => {
    const migrate = json<{ applied: number[]; current: number }>(
      await runCli(["migrate", "--json"], env),
    );
    expect(migrate.current).toBe(MIGRATIONS.at(-1)!.version);

    const stored = await runCli(
      [
        "store",
        "--task-type",
        "deploy",
        "--summary",
        "部署到生产环境失败：数据库迁移超时",
        "--outcome",
        "failure",
        "--tags",
        "db,prod",
        "--metadata",
        '{"ticket":"OPS-1"}',
        "--time",
        "2024-05-02T10:00:00Z",
        "--user",
        "u1",
        "--json",
      ],
      env,
    );
    const { id } = json<{ id: string }>(stored);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    // Which store it opened is not announced on every call (stats says it, below).
    expect(stored.stderr).not.toContain("hindsight info");

    const fact = json<{ id: string }>(
      await runCli(
        [
          "store-fact",
          "--key",
          "数据库迁移要先在预发环境演练",
          "--value",
          "先跑 dry-run",
          "--sources",
          id,
          "--json",
        ],
        env,
      ),
    );

    const recalled = json<{ results: Array<Record<string, unknown>> }>(
      await runCli(
        [
          "recall",
          "数据库迁移超时",
          "--layer",
          "all",
          "--time-range",
          "2024-05-01~2024-05-31",
          "--tag",
          "db",
          "--tag",
          "prod",
          "--all-tags",
          "--json",
        ],
        env,
      ),
    );
    expect(recalled.results.map((r) => r.id)).toEqual([id]);
    expect(recalled.results[0]).toMatchObject({
      layer: "episodic",
      tags: ["db", "prod"],
      metadata: { ticket: "OPS-1" },
    });
    const semantic = json<{ results: Array<{ id: string }> }>(
      await runCli(["recall", "数据库迁移", "--layer", "semantic", "--json"], env),
    );
    expect(semantic.results.map((r) => r.id)).toEqual([fact.id]);

    const listed = json<{ memories: Array<{ id: string }>; total: number }>(
      await runCli(["list", "--tag", "nope", "--tag", "prod", "--json"], env),
    );
    expect(listed).toMatchObject({ total: 1, memories: [{ id }] });
    const got = json(await runCli(["get", fact.id, "--json"], env));
    expect(got).toMatchObject({ id: fact.id, layer: "semantic", provenance: { sources: [id] } });

    const forgotten = json(await runCli(["forget", id, "--json"], env));
    expect(forgotten).toMatchObject({ id, mode: "soft", status: "archived" });
    const after = json<{ results: unknown[] }>(
      await runCli(["recall", "数据库迁移超时", "--json"], env),
    );
    expect(after.results).toEqual([]);
    const archived = json<{ results: Array<{ id: string }> }>(
      await runCli(["recall", "数据库迁移超时", "--include-archived", "--json"], env),
    );
    expect(archived.results.map((r) => r.id)).toEqual([id]);

    const stats = json(await runCli(["stats", "--json"], env));
    expect(stats).toMatchObject({
      episodic: { total: 1, active: 0, archived: 1 },
      semantic: { total: 1, active: 1, archived: 0 },
      embedder: "hash-v1",
    });
    expect(String(stats.store)).toMatch(backend.name === "postgres" ? /^postgres:/ : /^pglite:/);
    if (!process.env.REDIS_URL) expect(stats.working).toBe(stats.store);

    expect(json(await runCli(["forget", id, "--hard", "--json"], env))).toMatchObject({
      status: "deleted",
    });
    expect(json(await runCli(["stats", "--json"], env))).toMatchObject({ episodic: { total: 0 } });
  });

  it.skipIf(backend.skip !== undefined)("prints human-readable output without --json", async () => {
    const stored = await runCli(
      [
        "store",
        "--task-type",
        "note",
        "--summary",
        "walrus tusk measurement",
        "--outcome",
        "partial",
      ],
      env,
    );
    expect(stored.code).toBe(0);
    const recalled = await runCli(["recall", "walrus tusk"], env);
    expect(recalled.stdout).toContain("walrus tusk measurement");
    expect(recalled.stdout).toContain(stored.stdout.trim());
  });
});

describe("hindsight CLI errors", () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "hindsight-cli-"));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  const BASE = ["store", "--task-type", "t", "--summary", "s", "--outcome", "success"];
  it.each([
    {
      label: "an empty summary",
      args: ["store", "--task-type", "t", "--summary", "", "--outcome", "success"],
      flag: "--summary (summary)",
      exitCode: 2,
    },
    {
      label: "an unknown outcome",
      args: ["store", "--task-type", "t", "--summary", "s", "--outcome", "great"],
      flag: "--outcome (outcome)",
      exitCode: 2,
    },
    {
      label: "metadata that is not an object",
      args: [...BASE, "--metadata", "[1]"],
      flag: "--metadata (metadata)",
      exitCode: 2,
    },
    {
      label: "metadata that is not JSON",
      args: [...BASE, "--metadata", "{oops"],
      flag: "--metadata (metadata)",
      exitCode: 2,
    },
    {
      label: "an over-long summary",
      args: ["store", "--task-type", "t", "--summary", "x".repeat(8_001), "--outcome", "success"],
      flag: "--summary (summary)",
      exitCode: 2,
    },
    {
      label: "top-k out of range",
      args: ["recall", "q", "--top-k", "21"],
      flag: "--top-k (top_k)",
      exitCode: 2,
    },
    {
      label: "a malformed time range",
      args: ["recall", "q", "--time-range", "2024-01-01"],
      flag: "--time-range (time_range)",
      exitCode: 2,
    },
    {
      label: "an id that is not a UUID",
      args: ["forget", "not-a-uuid"],
      flag: "<id> (memory_id)",
      exitCode: 2,
    },
    {
      label: "an unknown id",
      args: ["forget", "00000000-0000-4000-8000-000000000000"],
      flag: "<id> (memory_id)",
      exitCode: 3,
    },
  ])("rejects $label naming the field, and writes nothing", async ({ args, flag, exitCode }) => {
    const env = { HINDSIGHT_DATA_DIR: dataDir };
    const result = await runCli([...args, "--json"], env);
    expect(result.code).toBe(exitCode);
    expect(result.stdout).toBe("");
    const line = result.stderr.trim().split("\n").at(-1)!;
    expect(JSON.parse(line).error.flag).toBe(flag);
    expect(json(await runCli(["stats", "--json"], env))).toMatchObject({ episodic: { total: 0 } });
  });

  it("refuses bad input before opening the store or loading the model", async () => {
    // A data dir that does not exist yet and a model directory that does not exist at all:
    // opening either would create the one or fail on the other (EMBEDDER_UNAVAILABLE).
    const untouched = join(dataDir, "never-created");
    const result = await runCli(["recall", "deploy", "--top-k", "500", "--layer", "episodic"], {
      HINDSIGHT_DATA_DIR: untouched,
      HINDSIGHT_EMBEDDER: "local",
      HINDSIGHT_MODELS_DIR: join(dataDir, "no-models"),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("INVALID_INPUT");
    expect(result.stderr).toContain("top_k");
    expect(existsSync(untouched)).toBe(false);
  });

  it("reads without loading the model: stats and list work with a broken one, store does not", async () => {
    // The default model's files, but an ONNX graph that cannot load.
    const models = join(dataDir, "broken-models");
    const broken = join(models, DEFAULT_MODEL);
    await mkdir(join(broken, "onnx"), { recursive: true });
    const real = defaultModelDir();
    for (const name of await readdir(real)) {
      if (name !== "onnx") await symlink(join(real, name), join(broken, name));
    }
    for (const name of await readdir(join(real, "onnx"))) {
      await writeFile(join(broken, "onnx", name), "not a model");
    }
    const env = {
      HINDSIGHT_DATA_DIR: join(dataDir, "broken-model-store"),
      HINDSIGHT_EMBEDDER: "local",
      HINDSIGHT_MODELS_DIR: models,
    };
    expect(json(await runCli(["stats", "--json"], env))).toMatchObject({
      embedder: `local:${DEFAULT_MODEL}`,
    });
    expect(json(await runCli(["list", "--json"], env))).toMatchObject({ total: 0 });
    const stored = await runCli(
      ["store", "--task-type", "x", "--summary", "needs the model", "--outcome", "success"],
      env,
    );
    expect(stored.code).not.toBe(0);
    expect(stored.stderr).toContain("cannot load");
  });

  it("rejects an unknown command and an unknown embedder", async () => {
    expect((await runCli(["bogus"])).code).toBe(2);
    const result = await runCli(["stats"], {
      HINDSIGHT_DATA_DIR: dataDir,
      HINDSIGHT_EMBEDDER: "magic",
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("HINDSIGHT_EMBEDDER");
  });
});

describe("one embedded data directory, several processes", () => {
  it("loses no write when processes store at the same time", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "hindsight-multi-"));
    const env = { HINDSIGHT_DATA_DIR: dataDir, HINDSIGHT_LOCK_TIMEOUT_MS: "60000" };
    try {
      const writers = 6;
      const results = await Promise.all(
        Array.from({ length: writers }, (_, i) =>
          runCli(
            [
              "store",
              "--task-type",
              "parallel",
              "--summary",
              `writer ${i} was here`,
              "--outcome",
              "success",
              "--json",
            ],
            env,
          ),
        ),
      );
      const ids = results.map((result) => json<{ id: string }>(result).id);
      expect(new Set(ids).size).toBe(writers);
      expect(json(await runCli(["stats", "--json"], env))).toMatchObject({
        episodic: { total: writers },
      });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("tells a second process which process holds the directory", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "hindsight-held-"));
    const { acquireDirLock } = await import("../src/adapters/storage/dir-lock.js");
    const lock = await acquireDirLock(dataDir, { timeoutMs: 0 });
    try {
      const result = await runCli(["stats"], {
        HINDSIGHT_DATA_DIR: dataDir,
        HINDSIGHT_LOCK_TIMEOUT_MS: "300",
      });
      expect(result.code).toBe(4);
      expect(result.stderr).toContain(`in use by process ${process.pid}`);
    } finally {
      await lock.release();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
