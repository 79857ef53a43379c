/**
 * Tenant isolation, end to end over real HTTP: every request reaches only the memories of its
 * API key's tenant, on PGlite and on PostgreSQL (a schema per tenant). The central check is a
 * property: for random memories and queries, no result ever belongs to another tenant.
 */
import { randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpApp } from "../src/http/app.js";
import { listen, type RunningServer } from "../src/http/server.js";
import { createHindsight, type Hindsight, silentLogger } from "../src/index.js";
import { parseApiKeys } from "../src/tenants/api-keys.js";
import { TenantMemories } from "../src/tenants/memories.js";
import { BACKENDS, POSTGRES_URL } from "./support/backends.js";
import { json, runCli } from "./support/cli.js";

const SEED = Number(process.env.FUZZ_SEED ?? 20261201);
const VOCABULARY = [
  "deploy",
  "api",
  "rollback",
  "database",
  "部署",
  "回滚",
  "cache",
  "login",
  "error",
];

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(`tenants on ${backend.name}`, () => {
    // Random names: PostgreSQL tenant schemas outlive a run, and runs may overlap.
    const suffix = randomBytes(4).toString("hex");
    const tenants = [`acme_${suffix}`, `globex_${suffix}`];
    const keys = { default: "key-default", [tenants[0]!]: "key-acme", [tenants[1]!]: "key-globex" };
    let base: string;
    let server: RunningServer;
    let memory: Hindsight;
    let registry: TenantMemories;
    let cleanup: () => Promise<void>;
    const stored = new Map<string, Set<string>>(
      Object.keys(keys).map((tenant) => [tenant, new Set()]),
    );

    beforeAll(async () => {
      const fresh = await backend.fresh();
      cleanup = fresh.cleanup;
      memory = await createHindsight(fresh.location);
      registry = new TenantMemories(memory.config, memory, { logger: silentLogger });
      const apiKeys = parseApiKeys(
        Object.entries(keys)
          .map(([tenant, key]) => `${key}:${tenant}`)
          .join(","),
        "test",
      );
      const app = createHttpApp(memory, {
        apiKeys,
        tenantMemory: (tenant) => registry.get(tenant),
        logger: silentLogger,
      });
      server = await listen(app, { host: "127.0.0.1", port: 0 });
      base = server.url;
    }, 120_000);

    afterAll(async () => {
      await server?.close(1000);
      await registry?.close();
      await memory?.close();
      if (backend.name === "postgres") {
        const client = new pg.Client({ connectionString: POSTGRES_URL });
        await client.connect();
        for (const tenant of tenants)
          await client.query(`DROP SCHEMA IF EXISTS hindsight_${tenant} CASCADE`);
        await client.end();
      }
      await cleanup?.();
    });

    const call = async (tenant: string, method: string, path: string, body?: unknown) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${keys[tenant]}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    it("never returns another tenant's memory, for random memories and queries", async () => {
      const tenantNames = Object.keys(keys);
      const words = fc.array(fc.constantFrom(...VOCABULARY), { minLength: 1, maxLength: 4 });
      const store = fc.record({ tenant: fc.constantFrom(...tenantNames), words });
      const query = fc.record({ tenant: fc.constantFrom(...tenantNames), words });
      let recalls = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(store, { minLength: 1, maxLength: 6 }),
          fc.array(query, { minLength: 1, maxLength: 4 }),
          async (stores, queries) => {
            for (const item of stores) {
              const reply = await call(item.tenant, "POST", "/v1/memories", {
                task_type: item.words[0],
                summary: item.words.join(" "),
                outcome: "success",
              });
              expect(reply.status).toBe(201);
              stored.get(item.tenant)!.add(String(reply.body.id));
            }
            for (const item of queries) {
              const reply = await call(item.tenant, "POST", "/v1/recall", {
                query_text: item.words.join(" "),
                top_k: 20,
                min_score: 0,
              });
              expect(reply.status).toBe(200);
              recalls++;
              for (const result of reply.body.results as { id: string }[]) {
                expect(
                  stored.get(item.tenant)!.has(result.id),
                  `${item.tenant} got ${result.id}`,
                ).toBe(true);
              }
            }
            // Listing shows every memory of the tenant and none of another's.
            for (const tenant of tenantNames) {
              const listed = await call(tenant, "GET", "/v1/memories?limit=100");
              expect(listed.status).toBe(200);
              const ids = (listed.body.memories as { id: string }[]).map((m) => m.id);
              expect(new Set(ids)).toEqual(stored.get(tenant)!);
            }
          },
        ),
        { seed: SEED, numRuns: 15, endOnFailure: true },
      );
      console.error(
        `tenant isolation (${backend.name}): ${recalls} random recalls, no foreign result`,
      );
    }, 180_000);

    it("counts, forgets and summarises only the tenant's own memories", async () => {
      const [acme, globex] = tenants as [string, string];
      const own = [...stored.get(acme)!][0]!;
      for (const tenant of Object.keys(keys)) {
        const stats = await call(tenant, "GET", "/v1/stats");
        expect((stats.body.episodic as { total: number }).total).toBe(stored.get(tenant)!.size);
      }
      // Another tenant's id is as unknown as a made-up one: 404, and nothing changes.
      expect((await call(globex, "GET", `/v1/memories/${own}`)).status).toBe(404);
      expect((await call(acme, "GET", `/v1/memories/${own}`)).body.id).toBe(own);
      expect((await call(globex, "DELETE", `/v1/memories/${own}?mode=hard`)).status).toBe(404);
      const summary = await call(globex, "POST", "/v1/summarize", { memory_ids: [own] });
      expect(summary.status).toBe(404);
      expect((await call(acme, "POST", "/v1/summarize", { memory_ids: [own] })).status).toBe(200);
    });

    it("keeps working-memory sessions apart, even under the same session id", async () => {
      const [acme, globex] = tenants as [string, string];
      const appended = await call(acme, "POST", "/v1/working/shared-id/items", {
        role: "user",
        kind: "goal",
        content: "acme's confidential goal",
      });
      expect(appended.status).toBe(201);
      expect((await call(globex, "GET", "/v1/working/shared-id")).status).toBe(404);
      const own = await call(acme, "GET", "/v1/working/shared-id");
      expect(own.body.context).toContain("acme's confidential goal");
    });

    it("binds MCP over HTTP to the key's tenant", async () => {
      const [acme, globex] = tenants as [string, string];
      const marker = `quarantine-${suffix}`;
      await call(acme, "POST", "/v1/memories", {
        task_type: "t",
        summary: marker,
        outcome: "success",
      });
      const recallAs = async (tenant: string) => {
        const client = new Client({ name: "tenant-test", version: "0" });
        await client.connect(
          new StreamableHTTPClientTransport(new URL("/mcp", base), {
            requestInit: { headers: { authorization: `Bearer ${keys[tenant]}` } },
          }),
        );
        try {
          const result = await client.callTool({
            name: "memory_recall",
            arguments: { query_text: marker, min_score: 0 },
          });
          return (result.structuredContent as { results: { summary?: string }[] }).results;
        } finally {
          await client.close();
        }
      };
      expect((await recallAs(acme)).some((result) => result.summary === marker)).toBe(true);
      expect((await recallAs(globex)).some((result) => result.summary === marker)).toBe(false);
    });

    it.runIf(backend.name === "postgres")("keeps each tenant in a schema of its own", async () => {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      try {
        const { rows } = await client.query<{ schemaname: string }>(
          "SELECT schemaname FROM pg_tables WHERE tablename = 'episodic_memories' AND schemaname = ANY($1)",
          [tenants.map((tenant) => `hindsight_${tenant}`)],
        );
        expect(rows.map((row) => row.schemaname).sort()).toEqual(
          tenants.map((tenant) => `hindsight_${tenant}`).sort(),
        );
      } finally {
        await client.end();
      }
    });
  });
}

describe("tenants from the command line", () => {
  it("stores and recalls per --tenant / HINDSIGHT_TENANT, apart from the default tenant", async () => {
    const { location, cleanup } = await BACKENDS[0]!.fresh();
    const env = { HINDSIGHT_DATA_DIR: location.dataDir, DATABASE_URL: undefined };
    try {
      const stored = json<{ id: string }>(
        await runCli(
          [
            "--tenant",
            "acme",
            "store",
            "--task-type",
            "t",
            "--summary",
            "acme only secret plan",
            "--outcome",
            "success",
            "--json",
          ],
          env,
        ),
      );
      const asAcme = json<{ results: { id: string }[] }>(
        await runCli(["recall", "acme only secret plan", "--json"], {
          ...env,
          HINDSIGHT_TENANT: "acme",
        }),
      );
      expect(asAcme.results.map((result) => result.id)).toContain(stored.id);
      const asDefault = json<{ results: { id: string }[] }>(
        await runCli(["recall", "acme only secret plan", "--json"], env),
      );
      expect(asDefault.results.map((result) => result.id)).not.toContain(stored.id);
      const bad = await runCli(["--tenant", "Bad Name", "stats"], env);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain("tenant");
    } finally {
      await cleanup();
    }
  }, 60_000);
});

describe("idle tenants", () => {
  it("are closed after their idle time and opened again by their next call, keeping their memories", async () => {
    const { mkdtemp, rm } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const dataDir = await mkdtemp(join(tmpdir(), "hindsight-idle-"));
    const memory = await createHindsight({ dataDir, embedder: { kind: "hash" } });
    const registry = new TenantMemories(
      memory.config,
      memory,
      { logger: silentLogger },
      { idleMs: 300 },
    );
    try {
      const acme = await registry.get("acme");
      await acme.storeEpisodic({
        task_type: "t",
        summary: "kept across a close",
        outcome: "success",
      });
      expect(registry.openCount).toBe(1);
      await expect.poll(() => registry.openCount, { timeout: 10_000 }).toBe(0);
      // The same handle opens it again, with what it held.
      expect((await acme.stats()).episodic.total).toBe(1);
      expect(registry.openCount).toBe(1);
    } finally {
      await registry.close();
      await memory.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
