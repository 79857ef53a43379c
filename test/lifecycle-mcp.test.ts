/**
 * The lifecycle's MCP tools with the SDK's real client: memory_feedback moves a recalled
 * memory's confidence, memory_history says where knowledge came from.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../src/adapters/logger.js";
import { createHindsight, type Hindsight } from "../src/index.js";
import { createMcpServer } from "../src/mcp/server.js";

const text = (result: CallToolResult) =>
  result.content.map((block) => (block.type === "text" ? block.text : "")).join("");

describe("lifecycle MCP tools", () => {
  let memory: Hindsight;
  let client: Client;
  let fact: string;
  let episode: string;

  beforeAll(async () => {
    memory = await createHindsight({ embedder: { kind: "hash" }, dataDir: "memory://" });
    ({ id: episode } = await memory.storeEpisodic({
      task_type: "deploy",
      summary: "Deploy failed: port 8080 in use",
      outcome: "failure",
    }));
    ({ id: fact } = await memory.storeSemantic({
      key_text: "Free port 8080 before deploying",
      value_text: "lsof -i :8080",
      confidence: 0.7,
      source_episode_ids: [episode],
    }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(memory, { logger: silentLogger }).connect(serverSide);
    client = new Client({ name: "test", version: "0" });
    await client.connect(clientSide);
  });
  afterAll(async () => {
    await client?.close();
    await memory?.close();
  });

  it("lists memory_feedback and memory_history with their schemas and hints", async () => {
    const { tools } = await client.listTools();
    const feedback = tools.find((tool) => tool.name === "memory_feedback")!;
    expect(Object.keys(feedback.inputSchema.properties ?? {}).sort()).toEqual([
      "memory_id",
      "reason",
      "useful",
    ]);
    expect(feedback.inputSchema.required?.sort()).toEqual(["memory_id", "useful"]);
    expect(feedback.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    const history = tools.find((tool) => tool.name === "memory_history")!;
    expect(history.annotations?.readOnlyHint).toBe(true);
  });

  it("raises and lowers confidence through memory_feedback", async () => {
    const up = (await client.callTool({
      name: "memory_feedback",
      arguments: { memory_id: fact, useful: true, reason: "worked" },
    })) as CallToolResult;
    expect(up.isError).toBeFalsy();
    expect(up.structuredContent).toMatchObject({ id: fact, layer: "semantic", useful: true });
    expect((up.structuredContent as { confidence: number }).confidence).toBeCloseTo(0.8, 5);
    expect(text(up)).toMatch(/confidence 0\.70 → 0\.80/);
    const down = (await client.callTool({
      name: "memory_feedback",
      arguments: { memory_id: fact, useful: false },
    })) as CallToolResult;
    expect((down.structuredContent as { confidence: number }).confidence).toBeCloseTo(0.6, 5);
  });

  it("reports bad arguments and unknown memories as tool errors naming the field", async () => {
    const bad = (await client.callTool({
      name: "memory_feedback",
      arguments: { memory_id: fact, useful: "sure" },
    })) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/useful/);
    const missing = (await client.callTool({
      name: "memory_history",
      arguments: { memory_id: "00000000-0000-4000-8000-000000000000" },
    })) as CallToolResult;
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/NOT_FOUND/);
  });

  it("shows a memory's history and the episodes it was drawn from", async () => {
    const result = (await client.callTool({
      name: "memory_history",
      arguments: { memory_id: fact },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const history = result.structuredContent as {
      events: { event: string; at: string }[];
      sources: string[];
    };
    expect(history.sources).toEqual([episode]);
    expect(history.events.map((e) => e.event)).toEqual(["created", "feedback", "feedback"]);
    expect(history.events[0]!.at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(text(result)).toContain(`Drawn from episodes ${episode}.`);
  });
});
