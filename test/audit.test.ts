/**
 * The audit log of destructive operations on every backend: forget, hard delete, merge,
 * supersede and restore are each recorded with their reason; entries survive a hard delete
 * and hold no memory content; filters work on the library, REST and the CLI.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "../src/adapters/clock.js";
import type { MemoryService } from "../src/core/service.js";
import { createHttpApp } from "../src/http/app.js";
import { BACKENDS } from "./support/backends.js";
import { json, runCli } from "./support/cli.js";
import { openLifecycleService } from "./support/lifecycle.js";

const SECRET = "the vault code is 4711";

describe.each(BACKENDS)("audit log on $name", (backend) => {
  let memory: MemoryService;
  let cleanup: () => Promise<void>;
  const clock = fixedClock(new Date("2025-03-01T09:00:00Z"));
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const fresh = await backend.scratch();
    cleanup = fresh.cleanup;
    memory = await openLifecycleService(fresh.location, { clock });
    const store = (summary: string) =>
      memory.storeEpisodic({ task_type: "ops", summary, outcome: "success" });
    ids.soft = (await store("rotated the staging certificates")).id;
    ids.hard = (await store(SECRET)).id;
    await memory.forget({ memory_id: ids.soft, reason: "stale after the migration" });
    await memory.forget({ memory_id: ids.hard, mode: "hard" });
    // The same fact twice merges; the same key with another value supersedes.
    const fact = { key_text: "deploy window", value_text: "Tuesdays 10:00 UTC" };
    ids.fact = (await memory.storeSemantic(fact)).id;
    await memory.storeSemantic(fact);
    ids.newer = (await memory.storeSemantic({ ...fact, value_text: "Thursdays 14:00 UTC" })).id;
    await memory.restore({ memory_id: ids.soft });
  }, 60_000);

  afterAll(async () => {
    await memory?.close();
    await cleanup?.();
  });

  it("records every destructive operation, newest first, with its reason", async () => {
    const { entries } = await memory.audit({});
    expect(entries.map((entry) => entry.operation)).toEqual([
      "restore",
      "supersede",
      "merge",
      "delete",
      "forget",
    ]);
    const byOperation = Object.fromEntries(entries.map((entry) => [entry.operation, entry]));
    expect(byOperation.forget).toMatchObject({
      memory_id: ids.soft,
      layer: "episodic",
      reason: "stale after the migration",
    });
    expect(byOperation.delete).toMatchObject({ memory_id: ids.hard, details: { mode: "hard" } });
    expect(byOperation.merge).toMatchObject({ memory_id: ids.fact, layer: "semantic" });
    expect(byOperation.supersede).toMatchObject({
      memory_id: ids.fact,
      details: { superseded_by: ids.newer },
    });
    expect(byOperation.restore?.memory_id).toBe(ids.soft);
    const seqs = entries.map((entry) => entry.seq);
    expect([...seqs].sort((a, b) => b - a)).toEqual(seqs);
  });

  it("keeps the record of a hard delete, and no memory content anywhere", async () => {
    const { entries } = await memory.audit({ memory_id: ids.hard });
    expect(entries).toHaveLength(1);
    const all = JSON.stringify((await memory.audit({})).entries);
    expect(all).not.toContain("4711");
    expect(all).not.toContain("Tuesdays");
    expect(all).not.toContain("certificates");
  });

  it("filters by operation, memory and time, and names a bad filter", async () => {
    expect((await memory.audit({ operation: "merge" })).entries.map((e) => e.memory_id)).toEqual([
      ids.fact,
    ]);
    expect((await memory.audit({ since: "2030-01-01" })).entries).toEqual([]);
    expect((await memory.audit({ limit: 2 })).entries).toHaveLength(2);
    await expect(memory.audit({ operation: "erase" })).rejects.toMatchObject({
      code: "INVALID_INPUT",
      field: "operation",
    });
  });

  it("answers GET /v1/audit with the same entries, and 400 naming a bad query", async () => {
    const app = createHttpApp(memory);
    const ok = await app.request("/v1/audit?operation=delete&limit=5", {
      headers: { host: "localhost" },
    });
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { entries: { memory_id: string; at: string }[] };
    expect(body.entries.map((entry) => entry.memory_id)).toEqual([ids.hard]);
    expect(Number.isNaN(Date.parse(body.entries[0]!.at))).toBe(false);
    const bad = await app.request("/v1/audit?limit=lots", { headers: { host: "localhost" } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { field: string }).field).toBe("limit");
  });
});

describe("hindsight audit", () => {
  it("lists what forget and forget --hard did", async () => {
    const { location, cleanup } = await BACKENDS[0]!.fresh();
    const env = { HINDSIGHT_DATA_DIR: location.dataDir, DATABASE_URL: undefined };
    try {
      const { id } = json<{ id: string }>(
        await runCli(
          [
            "store",
            "--task-type",
            "t",
            "--summary",
            "temporary note",
            "--outcome",
            "success",
            "--json",
          ],
          env,
        ),
      );
      expect((await runCli(["forget", id, "--hard"], env)).code).toBe(0);
      const audit = json<{ entries: { operation: string; memory_id: string }[] }>(
        await runCli(["audit", "--json"], env),
      );
      expect(audit.entries).toEqual([
        expect.objectContaining({ operation: "delete", memory_id: id }),
      ]);
      const text = await runCli(["audit", "--operation", "delete"], env);
      expect(text.stdout).toContain(id);
      const bad = await runCli(["audit", "--limit", "many"], env);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain("--limit");
    } finally {
      await cleanup();
    }
  }, 60_000);
});
