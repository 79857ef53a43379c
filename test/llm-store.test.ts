/**
 * Storing raw interactions: the cheap model writes the ≤ 80-character summary through the real
 * adapter and a local OpenAI-compatible server; bad model output or a dead server never loses
 * the memory; provider `none` writes an extractive summary. Library, REST and MCP.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAIChatModel } from "../src/adapters/llm/openai-chat.js";
import { silentLogger } from "../src/adapters/logger.js";
import type { MemoryApi } from "../src/core/memory-api.js";
import { createHttpApp } from "../src/http/app.js";
import { listen, type RunningServer } from "../src/http/server.js";
import { createHindsight, type Hindsight } from "../src/index.js";
import { createMcpServer } from "../src/mcp/server.js";
import { type FakeOpenAI, lastUserMessage, reply, startFakeOpenAI } from "./support/fake-openai.js";

const fakes: FakeOpenAI[] = [];
const memories: Hindsight[] = [];
const servers: RunningServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close(1000);
  for (const memory of memories.splice(0)) await memory.close();
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

async function fake(options: Parameters<typeof startFakeOpenAI>[0] = {}) {
  const server = await startFakeOpenAI(options);
  fakes.push(server);
  return server;
}

/** An in-memory hindsight whose language model is the fake server, configured as a user would. */
async function open(server?: FakeOpenAI, extra: { maxRetries?: number } = {}) {
  const memory = await createHindsight({
    embedder: { kind: "hash" },
    dataDir: "memory://",
    llm: server
      ? {
          provider: "openai",
          baseUrl: server.baseUrl,
          model: "big-model",
          summaryModel: "small-model",
          maxRetries: extra.maxRetries ?? 0,
          timeoutMs: 2000,
        }
      : { provider: "none" },
  });
  memories.push(memory);
  return memory;
}

const interaction = [
  "User: please deploy the billing service to staging",
  "Assistant: running kubectl apply -f billing.yaml",
  "Tool: error: port 8080 already in use by the old pod",
  "Assistant: deleted the old pod and re-applied; billing is running on staging now.",
].join("\n");

async function episodeOf(memory: MemoryApi, id: string) {
  const { results } = await memory.recall({
    query_text: "billing deploy",
    min_score: 0,
    top_k: 20,
  });
  const found = results.find((result) => result.id === id);
  if (found?.layer !== "episodic") throw new Error(`memory ${id} not recalled`);
  return found;
}

describe("store with an interaction", () => {
  it("stores the cheap model's summary and keeps the interaction with the memory", async () => {
    const server = await fake();
    server.enqueue(
      reply.json({ summary: "Deployed billing to staging; freed port 8080, now running" }),
    );
    const memory = await open(server);
    const stored = await memory.storeEpisodic({
      task_type: "deploy",
      interaction,
      outcome: "success",
    });
    expect(stored).toMatchObject({
      summary: "Deployed billing to staging; freed port 8080, now running",
      summary_source: "llm:small-model",
    });
    const request = server.requests[0]!;
    expect(request.body.model).toBe("small-model");
    expect(request.body.response_format).toEqual({ type: "json_object" });
    expect(request.body.messages[0]!.content).toContain("language of the interaction");
    expect(lastUserMessage(request)).toContain("port 8080 already in use");
    expect(lastUserMessage(request)).toContain("Outcome: success");

    const episode = await episodeOf(memory, stored.id);
    expect(episode.summary).toBe(stored.summary);
    expect(episode.metadata).toEqual({
      hindsight: { interaction, summary_source: "llm:small-model" },
    });
    const stats = await memory.stats();
    expect(stats.llm).toMatchObject({
      provider: "openai",
      model: "big-model",
      summary_model: "small-model",
      requests: 1,
      failures: 0,
      prompt_tokens: server.usage.prompt_tokens,
      completion_tokens: server.usage.completion_tokens,
      tiers: { cheap: { requests: 1 }, main: { requests: 0 } },
      fallbacks: {},
    });
  });

  it("keeps the user's language: a Chinese interaction is summarised in Chinese", async () => {
    const server = await fake();
    server.enqueue(reply.json({ summary: "部署支付服务到预发环境失败：数据库迁移超时" }));
    const memory = await open(server);
    const stored = await memory.storeEpisodic({
      task_type: "deploy",
      interaction:
        "用户：把支付服务部署到预发环境\n助手：执行了数据库迁移\n工具：迁移超时，部署失败",
      outcome: "failure",
      metadata: { ticket: "OPS-7" },
    });
    expect(stored.summary).toBe("部署支付服务到预发环境失败：数据库迁移超时");
    expect(server.requests[0]!.body.messages[0]!.content).toContain("用交互本身的语言回答");
    const episode = await episodeOf(memory, stored.id);
    expect(episode.metadata).toMatchObject({
      ticket: "OPS-7",
      hindsight: { summary_source: "llm:small-model" },
    });
  });

  it("asks again when the summary is longer than 80 characters, saying so", async () => {
    const server = await fake();
    server.enqueue(
      reply.json({ summary: `Deployed billing to staging ${"after a long story ".repeat(5)}` }),
      reply.brokenJson({ summary: "Deployed billing to staging after freeing port 8080" }),
    );
    const memory = await open(server);
    const stored = await memory.storeEpisodic({
      task_type: "deploy",
      interaction,
      outcome: "success",
    });
    expect(stored.summary).toBe("Deployed billing to staging after freeing port 8080");
    expect(lastUserMessage(server.requests[1]!)).toMatch(/at most 80/);
  });

  it.each([
    [
      "unusable answers",
      (server: FakeOpenAI) => server.enqueue(reply.text("Sure thing!"), reply.json({ title: "x" })),
    ],
    ["a failing server", (server: FakeOpenAI) => server.enqueue(reply.serverError(500))],
    [
      "a slow server",
      (server: FakeOpenAI) => server.enqueue(reply.slow(3000, reply.json({ summary: "late" }))),
    ],
  ])(
    "never loses the memory on %s: the summary is extractive and the failure recorded",
    async (_name, script) => {
      const server = await fake();
      script(server);
      const memory = await open(server);
      const stored = await memory.storeEpisodic({
        task_type: "deploy",
        interaction,
        outcome: "success",
      });
      expect(stored.summary_source).toBe("extractive");
      expect(Array.from(stored.summary!).length).toBeLessThanOrEqual(80);
      expect(stored.summary).toBe(
        "please deploy the billing service to … billing is running on staging now.",
      );
      const episode = await episodeOf(memory, stored.id);
      expect(episode.summary).toBe(stored.summary);
      const record = episode.metadata.hindsight as Record<string, string>;
      expect(record.interaction).toBe(interaction);
      expect(record.summary_source).toBe("extractive");
      expect(record.summary_error).toMatch(/LLM|chat completion|usable/);
      expect((await memory.stats()).llm.fallbacks).toEqual({ summary: 1 });
    },
  );

  it("summarises a batch concurrently, a few at a time, and stores every item", async () => {
    const server = await fake({
      respond: async (request) => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        const n = /item (\d+)/.exec(lastUserMessage(request))?.[1];
        return reply.json({ summary: `summary of item ${n}` });
      },
    });
    const memory = await open(server);
    const inputs = Array.from({ length: 10 }, (_, i) => ({
      task_type: "batch",
      interaction: `User: handle item ${i}\nAssistant: done`,
      outcome: "success" as const,
    }));
    const { ids } = await memory.storeEpisodicBatch(inputs);
    expect(ids).toHaveLength(10);
    expect(server.requests).toHaveLength(10);
    expect(server.maxConcurrent).toBeGreaterThan(1);
    expect(server.maxConcurrent).toBeLessThanOrEqual(4);
    const { results } = await memory.recall({
      query_text: "summary of item 7",
      top_k: 20,
      min_score: 0,
    });
    expect(results.map((r) => (r.layer === "episodic" ? r.summary : ""))).toContain(
      "summary of item 7",
    );
  });

  it("without a language model writes an extractive summary and says so", async () => {
    const memory = await open();
    const stored = await memory.storeEpisodic({
      task_type: "deploy",
      interaction,
      outcome: "success",
    });
    expect(stored.summary_source).toBe("extractive");
    expect(stored.summary).toBe(
      "please deploy the billing service to … billing is running on staging now.",
    );
    expect(Array.from(stored.summary!).length).toBeLessThanOrEqual(80);
    expect((await memory.stats()).llm).toMatchObject({
      provider: "none",
      model: null,
      requests: 0,
      fallbacks: {},
    });
  });

  it.each([
    ["both summary and interaction", { summary: "s", interaction: "i" }, "interaction"],
    ["neither", {}, "summary"],
    ["metadata.hindsight", { interaction: "i", metadata: { hindsight: 1 } }, "metadata.hindsight"],
    ["an interaction over 32 000 characters", { interaction: "x".repeat(32_001) }, "interaction"],
  ])("rejects %s naming the field, and writes nothing", async (_name, fields, field) => {
    const server = await fake();
    const memory = await open(server);
    await expect(
      memory.storeEpisodic({ task_type: "deploy", outcome: "success", ...fields }),
    ).rejects.toMatchObject({ code: "INVALID_INPUT", field });
    expect(server.requests).toHaveLength(0);
    expect((await memory.stats()).episodic.total).toBe(0);
  });
});

describe("store with an interaction over REST and MCP", () => {
  it("REST: 201 with the summary; stats and metrics show the model's usage", async () => {
    const server = await fake();
    server.enqueue(reply.json({ summary: "Deployed billing to staging after freeing port 8080" }));
    const memory = await open(server);
    const http = await listen(createHttpApp(memory, { logger: silentLogger }), {
      host: "127.0.0.1",
      port: 0,
    });
    servers.push(http);
    const stored = await fetch(`${http.url}/v1/memories`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ task_type: "deploy", interaction, outcome: "success" }),
    });
    expect(stored.status).toBe(201);
    expect(await stored.json()).toMatchObject({
      id: expect.any(String),
      summary: "Deployed billing to staging after freeing port 8080",
      summary_source: "llm:small-model",
    });
    const both = await fetch(`${http.url}/v1/memories`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ task_type: "deploy", interaction, summary: "s", outcome: "success" }),
    });
    expect(both.status).toBe(400);
    expect(await both.json()).toMatchObject({ code: "INVALID_INPUT", field: "interaction" });

    const stats = (await (await fetch(`${http.url}/v1/stats`)).json()) as { llm: unknown };
    expect(stats.llm).toMatchObject({
      provider: "openai",
      requests: 1,
      summary_model: "small-model",
    });
    const metrics = await (await fetch(`${http.url}/metrics`)).text();
    expect(metrics).toContain('hindsight_llm_requests_total{tier="cheap",model="small-model"} 1');
    expect(metrics).toContain('hindsight_llm_failures_total{tier="cheap",model="small-model"} 0');
    expect(metrics).toContain(
      `hindsight_llm_tokens_total{tier="cheap",model="small-model",kind="prompt"} ${server.usage.prompt_tokens}`,
    );
    const openapi = await (await fetch(`${http.url}/openapi.json`)).json();
    expect(JSON.stringify(openapi)).toContain("interaction");
  });

  it("MCP: memory_store takes an interaction and reports the summary", async () => {
    const server = await fake();
    server.enqueue(reply.serverError(500));
    const memory = await open(server);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(memory, { logger: silentLogger }).connect(serverSide);
    const client = new Client({ name: "test", version: "0" });
    await client.connect(clientSide);
    const { tools } = await client.listTools();
    const store = tools.find((tool) => tool.name === "memory_store")!;
    expect(Object.keys(store.inputSchema.properties ?? {})).toContain("interaction");
    const result = (await client.callTool({
      name: "memory_store",
      arguments: { task_type: "deploy", interaction, outcome: "success" },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ summary_source: "extractive" });
    const text = result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
    expect(text).toContain("Summary (extractive): please deploy the billing service");
    const stats = (await client.callTool({
      name: "memory_stats",
      arguments: {},
    })) as CallToolResult;
    expect(stats.structuredContent).toMatchObject({
      llm: { provider: "openai", failures: 1, fallbacks: { summary: 1 } },
    });
    await client.close();
  });
});

describe("language model given to the library", () => {
  it("a ready LanguageModel in deps overrides the configuration", async () => {
    const server = await fake();
    server.enqueue(reply.json({ summary: "via injected model" }));
    const llm = createOpenAIChatModel({ baseUrl: server.baseUrl, model: "injected" });
    const memory = await createHindsight(
      { embedder: { kind: "hash" }, dataDir: "memory://" },
      { llm },
    );
    memories.push(memory);
    const stored = await memory.storeEpisodic({
      task_type: "t",
      interaction: "x",
      outcome: "success",
    });
    expect(stored).toMatchObject({ summary: "via injected model", summary_source: "llm:injected" });
  });
});
