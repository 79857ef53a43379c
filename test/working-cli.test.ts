/**
 * `hindsight working …`, spawned as a user runs it: on the embedded fallback and on Redis.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, runCli } from "./support/cli.js";
import { REDIS_URL, redisSkipReason, testPrefix } from "./support/redis.js";

const STORES = [
  { name: "embedded", skip: undefined, redis: false },
  { name: "redis", skip: redisSkipReason, redis: true },
];

describe.each(STORES)("hindsight working on $name", (store) => {
  const env: Record<string, string | undefined> = {};
  let dataDir: string;
  const prefix = testPrefix();

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "hindsight-working-cli-"));
    env.HINDSIGHT_DATA_DIR = dataDir;
    if (store.redis) {
      env.REDIS_URL = REDIS_URL;
      env.HINDSIGHT_WORKING_KEY_PREFIX = prefix.keyPrefix;
    }
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
    if (store.redis) await prefix.cleanup();
  });

  it.skipIf(store.skip !== undefined)(
    "appends, gets within budget and ends as an episodic memory",
    async () => {
      const goal = await runCli(
        [
          "working",
          "append",
          "--session",
          "cli-1",
          "--role",
          "user",
          "--kind",
          "goal",
          "--content",
          "把订单表迁移到新结构",
          "--json",
        ],
        env,
      );
      expect(json(goal)).toMatchObject({
        session: "cli-1",
        seq: 1,
        budget: 4000,
        compressed: false,
      });
      // A one-shot command does not announce its set-up on every call; stats tells it.
      expect(goal.stderr).not.toContain("hindsight info");
      const { working } = json<{ working: string }>(await runCli(["stats", "--json"], env));
      expect(working).toMatch(store.redis ? /^redis:\/\/127\.0\.0\.1/ : /^pglite:/);

      const human = await runCli(
        [
          "working",
          "append",
          "--session",
          "cli-1",
          "--role",
          "tool",
          "--kind",
          "result",
          "--content",
          "第一批已复制，校验通过",
        ],
        env,
      );
      expect(human.code).toBe(0);
      expect(human.stdout).toMatch(/^appended #2 to cli-1 \(\d+\/4000 tokens\)\n$/u);

      const got = json<{
        session: string;
        tokens: number;
        budget: number;
        summary: unknown;
        items: { content: string }[];
        context: string;
      }>(await runCli(["working", "get", "--session", "cli-1", "--budget", "1500", "--json"], env));
      expect(got).toMatchObject({ session: "cli-1", budget: 1500, summary: null });
      expect(Object.keys(got).sort()).toEqual([
        "budget",
        "context",
        "items",
        "session",
        "summary",
        "tokens",
      ]);
      expect(got.items.map((item) => item.content)).toEqual([
        "把订单表迁移到新结构",
        "第一批已复制，校验通过",
      ]);
      expect(got.tokens).toBeLessThanOrEqual(1500);

      const text = await runCli(["working", "get", "--session", "cli-1"], env);
      expect(text.stdout).toContain("#1 goal (user): 把订单表迁移到新结构");

      const ended = json<{ episodic_id: string }>(
        await runCli(
          [
            "working",
            "end",
            "--session",
            "cli-1",
            "--task-type",
            "migration",
            "--outcome",
            "success",
            "--json",
          ],
          env,
        ),
      );
      expect(ended.episodic_id).toMatch(/^[0-9a-f-]{36}$/);
      const recalled = json<{ results: { id: string }[] }>(
        await runCli(["recall", "订单表迁移", "--json"], env),
      );
      expect(recalled.results.map((result) => result.id)).toContain(ended.episodic_id);
      const gone = await runCli(["working", "get", "--session", "cli-1"], env);
      expect(gone.code).toBe(3);
    },
    60_000,
  );

  it.skipIf(store.skip !== undefined)(
    "names bad flags and exits 2",
    async () => {
      const bad = await runCli(
        ["working", "append", "--session", "cli-2", "--role", "robot", "--content", "x"],
        env,
      );
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain("--role (role)");
      const outcome = await runCli(
        [
          "working",
          "end",
          "--session",
          "cli-2",
          "--task-type",
          "t",
          "--outcome",
          "maybe",
          "--json",
        ],
        env,
      );
      expect(outcome.code).toBe(2);
      expect(JSON.parse(outcome.stderr.trim().split("\n").at(-1)!).error).toMatchObject({
        code: "INVALID_INPUT",
        field: "outcome",
      });
    },
    30_000,
  );
});

describe("hindsight working with Redis down", () => {
  it("exits 9 with WORKING_MEMORY_UNAVAILABLE", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "hindsight-working-cli-"));
    try {
      const result = await runCli(
        ["working", "append", "--session", "s", "--role", "user", "--content", "hi"],
        { HINDSIGHT_DATA_DIR: dataDir, REDIS_URL: "redis://127.0.0.1:1/11" },
      );
      expect(result.code).toBe(9);
      expect(result.stderr).toContain("[WORKING_MEMORY_UNAVAILABLE]");
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});
