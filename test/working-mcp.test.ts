/**
 * The working-memory MCP tools with the SDK's real client: over Streamable HTTP in-process and
 * over stdio from the built CLI (embedded fallback and Redis).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, describe, expect, it } from "vitest";
import { createHindsight } from "../src/index.js";
import { ok, startHttpServer, toolError } from "./interop/support.js";
import { CLI } from "./support/cli.js";
import { REDIS_URL, redisSkipReason, testPrefix } from "./support/redis.js";

interface Context {
  session: string;
  tokens: number;
  budget: number;
  summary: { goal: string; done: string; blocked: string; next: string } | null;
  items: { seq: number; kind: string; content: string }[];
  context: string;
}

/** What an agent does with working memory, start to end. */
async function expectWorkingFlow(client: Client, session: string): Promise<void> {
  const { tools } = await client.listTools();
  const append = tools.find((tool) => tool.name === "working_memory_append")!;
  expect(append.outputSchema).toBeDefined();
  expect(append.inputSchema.required).toEqual(
    expect.arrayContaining(["session_id", "role", "content"]),
  );

  const goal = await ok<{ seq: number }>(client, "working_memory_append", {
    session_id: session,
    kind: "goal",
    role: "user",
    content: "Find why checkout latency doubled since Monday",
    budget: 1000,
  });
  expect(goal.structured.seq).toBe(1);
  expect(goal.text).toContain("Appended item #1");
  for (let i = 0; i < 40; i++) {
    await ok(client, "working_memory_append", {
      session_id: session,
      kind: i % 2 === 0 ? "tool_call" : "result",
      role: i % 2 === 0 ? "assistant" : "tool",
      content:
        i % 2 === 0
          ? `query_metrics("checkout_latency_p95", shard=${i})`
          : `Shard ${i}: p95 latency 420 ms, up from 210 ms; the payments call takes most of it.`,
    });
  }
  const got = await ok<Context>(client, "working_memory_get", { session_id: session });
  expect(got.structured.tokens).toBeLessThanOrEqual(1000);
  expect(got.structured.summary).not.toBeNull();
  expect(got.structured.items[0]).toMatchObject({ seq: 1, kind: "goal" });
  expect(got.text).toBe(got.structured.context);

  const summarized = await ok<{ method: string; session: Context }>(client, "memory_summarize", {
    session_id: session,
  });
  expect(summarized.structured.method).toBe("working_memory");
  expect(summarized.text).toContain("Goal: ");

  const bad = await toolError(client, "working_memory_append", {
    session_id: session,
    role: "robot",
    content: "x",
  });
  expect(bad.error).toMatchObject({ code: "INVALID_INPUT", field: "role" });

  const ended = await ok<{ episodic_id: string }>(client, "working_memory_end", {
    session_id: session,
    task_type: "latency_investigation",
    outcome: "partial",
  });
  const recalled = await ok<{ results: { id: string }[] }>(client, "memory_recall", {
    query_text: "checkout latency doubled",
  });
  expect(recalled.structured.results.map((result) => result.id)).toContain(
    ended.structured.episodic_id,
  );
  const gone = await toolError(client, "working_memory_get", { session_id: session });
  expect(gone.error).toMatchObject({ code: "NOT_FOUND" });
}

describe("working-memory MCP tools", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it("work over Streamable HTTP", async () => {
    const memory = await createHindsight({ embedder: { kind: "hash" }, dataDir: "memory://" });
    const server = await startHttpServer(memory);
    const client = new Client({ name: "hindsight-test", version: "0.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    cleanups.push(
      () => memory.close(),
      () => server.close(),
      () => client.close(),
    );
    await expectWorkingFlow(client, "http-session");
  }, 60_000);

  it.each([
    { name: "the embedded fallback", redis: false, skip: undefined },
    { name: "Redis", redis: true, skip: redisSkipReason },
  ])(
    "work over stdio on $name",
    async ({ redis, skip }) => {
      if (skip) return;
      const dataDir = await mkdtemp(join(tmpdir(), "hindsight-working-mcp-"));
      const prefix = testPrefix();
      cleanups.push(async () => {
        await rm(dataDir, { recursive: true, force: true });
        if (redis) await prefix.cleanup();
      });
      const env: Record<string, string> = {};
      for (const [key, value] of Object.entries(process.env)) {
        if (value !== undefined && key !== "DATABASE_URL" && key !== "REDIS_URL") env[key] = value;
      }
      Object.assign(env, { HINDSIGHT_DATA_DIR: dataDir, HINDSIGHT_LOG_LEVEL: "info" });
      if (redis) Object.assign(env, { REDIS_URL, HINDSIGHT_WORKING_KEY_PREFIX: prefix.keyPrefix });
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [CLI, "mcp"],
        env,
        stderr: "pipe",
      });
      let stderr = "";
      transport.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const client = new Client({ name: "hindsight-test", version: "0.0.0" });
      await client.connect(transport);
      try {
        await expectWorkingFlow(client, "stdio-session");
        expect(stderr).toContain(
          redis ? "working memory in Redis" : "working memory kept in the database",
        );
      } finally {
        await client.close();
      }
    },
    90_000,
  );
});
