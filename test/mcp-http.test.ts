/**
 * MCP over Streamable HTTP: a real server on loopback around `createMcpHttpHandler`, and the
 * SDK's own client.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHindsight, type Hindsight } from "../src/index.js";
import {
  expectBadArguments,
  expectCoreFlow,
  expectGuidelinesPrompt,
  expectInjectionNeutralised,
  expectToolList,
  expectUnknownToolIsProtocolError,
  ok,
  type RunningServer,
  startHttpServer,
} from "./interop/support.js";

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: "hindsight-test", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe("MCP over Streamable HTTP", () => {
  let memory: Hindsight;
  let server: RunningServer;
  let client: Client;

  beforeAll(async () => {
    memory = await createHindsight({ embedder: { kind: "hash" }, dataDir: "memory://" });
    server = await startHttpServer(memory);
    client = await connect(server.url);
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
    await memory?.close();
  });

  it("initialises as hindsight, stateless", async () => {
    expect(client.getServerVersion()).toMatchObject({ name: "hindsight" });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, prompts: {} });
    expect(client.getInstructions()).toContain("memory_recall");
    // Stateless: no session id, so any instance behind a load balancer can answer.
    expect(
      (client.transport as StreamableHTTPClientTransport | undefined)?.sessionId,
    ).toBeUndefined();
  });

  it("lists exactly the memory tools", () => expectToolList(client));
  it("stores, recalls, summarises, forgets and counts", () => expectCoreFlow(client));
  it("answers bad arguments with isError results naming the field", () =>
    expectBadArguments(client));
  it("answers an unknown tool with a protocol error", () =>
    expectUnknownToolIsProtocolError(client));
  it("lists and renders the memory_guidelines prompt", () => expectGuidelinesPrompt(client));
  it("neutralises [MEMORY] delimiters inside stored text", () =>
    expectInjectionNeutralised(client));

  it("serves several clients at once", async () => {
    const others = await Promise.all([connect(server.url), connect(server.url)]);
    try {
      const ids = await Promise.all(
        others.map(async (other, index) => {
          const { structured } = await ok<{ id: string }>(other, "memory_store", {
            task_type: "parallel",
            summary: `parallel client ${index} stored this`,
            outcome: "success",
          });
          return structured.id;
        }),
      );
      const { structured } = await ok<{ results: { id: string }[] }>(others[0]!, "memory_recall", {
        query_text: "parallel client stored this",
        task_type_filter: "parallel",
      });
      expect(structured.results.map((result) => result.id).sort()).toEqual([...ids].sort());
    } finally {
      await Promise.all(others.map((other) => other.close()));
    }
  });

  it("answers GET and DELETE with 405, as a stateless server may", async () => {
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(server.url, {
        method,
        headers: { accept: "text/event-stream" },
      });
      expect(response.status, method).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
      await response.body?.cancel();
    }
  });

  it("rejects a body that is not JSON-RPC with 400", async () => {
    const response = await fetch(server.url, {
      method: "POST",
      headers: {
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
      },
      body: "{not json",
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: -32700 } });
  });
});
