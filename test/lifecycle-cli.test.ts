/**
 * The lifecycle commands of the built CLI, spawned as a user runs them, on every backend:
 * consolidate, feedback, maintain (with --now to simulate months), recall --include-archived,
 * restore and history.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHindsight } from "../src/index.js";
import { BACKENDS } from "./support/backends.js";
import { json, runCli } from "./support/cli.js";

const DAY = 86_400_000;

describe.each(BACKENDS)("hindsight lifecycle commands on $name", (backend) => {
  const env: Record<string, string | undefined> = {};
  let cleanup: () => Promise<void> = async () => {};
  let ids: string[] = [];

  beforeAll(async () => {
    if (backend.skip) return;
    const fresh = await backend.fresh();
    cleanup = fresh.cleanup;
    env.HINDSIGHT_DATA_DIR = fresh.location.dataDir;
    env.DATABASE_URL = fresh.location.databaseUrl;
    const memory = await createHindsight(fresh.location);
    ({ ids } = await memory.storeEpisodicBatch(
      Array.from({ length: 12 }, (_, i) => ({
        task_type: "deploy",
        summary: i % 2 ? `Deploy ${i} failed: port 8080 in use` : `Deploy ${i} succeeded`,
        outcome: i % 2 ? "failure" : "success",
      })),
    ));
    await memory.close();
  });
  afterAll(() => cleanup());

  it.skipIf(backend.skip !== undefined)(
    "consolidates, rates, archives over 120 simulated days, restores and shows history",
    async () => {
      const consolidated = json<{
        created: { id: string; key: string; sources: string[] }[];
        groups: { method: string }[];
      }>(await runCli(["consolidate", "--task-type", "deploy", "--json"], env));
      expect(consolidated.groups).toEqual([
        expect.objectContaining({ method: "statistical", episodes: 12 }),
      ]);
      const outcomes = consolidated.created.find((c) => c.key === "Outcomes of deploy tasks")!;
      expect(outcomes.sources.sort()).toEqual([...ids].sort());
      const human = await runCli(["consolidate"], env);
      expect(human.stdout).toBe("nothing to consolidate\n");

      const rated = json<{ confidence: number; previous_confidence: number }>(
        await runCli(
          ["feedback", outcomes.id, "--useful", "--reason", "saved a deploy", "--json"],
          env,
        ),
      );
      expect(rated.confidence).toBeGreaterThan(rated.previous_confidence);
      const neither = await runCli(["feedback", outcomes.id], env);
      expect(neither.code).toBe(2);
      expect(neither.stderr).toMatch(
        /--useful\/--not-useful \(useful\): give exactly one of --useful or --not-useful/,
      );

      const now = new Date(Date.now() + 120 * DAY).toISOString();
      const maintained = json<{ archived: number; episodic: { archived: number } }>(
        await runCli(["maintain", "--now", now, "--json"], env),
      );
      expect(maintained.episodic.archived).toBe(12);
      const summary = await runCli(["maintain", "--now", now], env);
      expect(summary.stdout).toMatch(/^scored 1[45] {2}archived 0 {2}reactivated 0/);
      const bad = await runCli(["maintain", "--now", "someday", "--json"], env);
      expect(bad.code).toBe(2);
      expect(JSON.parse(bad.stderr.trim().split("\n").at(-1)!).error).toMatchObject({
        code: "INVALID_INPUT",
        field: "now",
        flag: "--now (now)",
      });

      const hidden = json<{ results: unknown[] }>(
        await runCli(["recall", "deploy port 8080", "--min-score", "0", "--json"], env),
      );
      expect(hidden.results).toEqual([]);
      const cold = json<{ results: { id: string; status: string }[] }>(
        await runCli(
          ["recall", "deploy port 8080", "--include-archived", "--min-score", "0", "--json"],
          env,
        ),
      );
      expect(cold.results.length).toBeGreaterThan(0);
      expect(cold.results.every((r) => r.status === "archived")).toBe(true);

      const restored = json<{ status: string; previous_status: string }>(
        await runCli(["restore", ids[1]!, "--json"], env),
      );
      expect(restored).toMatchObject({ previous_status: "archived", status: "active" });
      const history = await runCli(["history", ids[1]!], env);
      expect(history.code).toBe(0);
      expect(history.stdout).toMatch(
        /created .*\n.*consolidated .*\n.*archived +decay score fell below the archive threshold\n.*restored/,
      );
      expect(history.stdout).toMatch(new RegExp(`consolidated into .*${outcomes.id}`));
      const missing = await runCli(["history", "00000000-0000-4000-8000-000000000000"], env);
      expect(missing.code).toBe(3);
    },
    120_000,
  );

  it.skipIf(backend.skip !== undefined)(
    "says when a stored fact supersedes or merges",
    async () => {
      const first = await runCli(
        ["store-fact", "--key", "Deploy window", "--value", "Fridays"],
        env,
      );
      const firstId = first.stdout.trim();
      const second = await runCli(
        ["store-fact", "--key", "Deploy window", "--value", "Never on Fridays", "--json"],
        env,
      );
      expect(json(second)).toEqual({ id: expect.any(String), superseded: [firstId] });
      const again = await runCli(
        ["store-fact", "--key", "Deploy window", "--value", "Never on Fridays"],
        env,
      );
      expect(again.stdout).toMatch(/merged into this existing memory/);
    },
    60_000,
  );
});
