/**
 * The MCP server in-process, with the SDK's real client over its in-memory transport, on a
 * memory that fails: what the model sees when hindsight itself breaks.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { HindsightError } from "../src/core/errors.js";
import type { MemoryApi } from "../src/core/memory-api.js";
import type { Logger } from "../src/core/ports.js";
import { createHashEmbedder, createHindsight } from "../src/index.js";
import { createMcpServer } from "../src/mcp/server.js";

const logged: string[] = [];
const logger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: (message, fields) => logged.push(`${message} ${JSON.stringify(fields)}`),
};

const broken = {
  storeEpisodic: async () => {
    throw new TypeError("cannot read properties of undefined (reading 'rows')");
  },
  recall: async () => {
    throw new HindsightError("EMBEDDER_FAILED", "POST https://internal.example/embeddings: 503", {
      cause: new Error("503"),
    });
  },
  // Output outside the declared schema must never reach a client.
  stats: async () => {
    const counts = { total: "many", active: 0, archived: 0 };
    return { episodic: counts, semantic: counts, store: "s", embedder: "e" };
  },
} as unknown as MemoryApi;

async function connect(): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(broken, { logger }).connect(serverSide);
  const client = new Client({ name: "test", version: "0" });
  await client.connect(clientSide);
  return client;
}

const text = (result: CallToolResult) =>
  result.content.map((block) => (block.type === "text" ? block.text : "")).join("");

describe("MCP server on a failing memory", () => {
  afterEach(() => {
    logged.length = 0;
  });

  it("reports an unexpected exception as INTERNAL without its details", async () => {
    const client = await connect();
    const result = (await client.callTool({
      name: "memory_store",
      arguments: { task_type: "t", summary: "s", outcome: "success" },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(text(result)).toBe(
      "memory_store could not complete: internal error; the server log has the details [INTERNAL]",
    );
    expect(logged.join("\n")).toContain("reading 'rows'");
    await client.close();
  });

  it("reports a failing embedder by its code, keeping the endpoint out of the answer", async () => {
    const client = await connect();
    const result = (await client.callTool({
      name: "memory_recall",
      arguments: { query_text: "anything" },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("[EMBEDDER_FAILED]");
    expect(text(result)).not.toContain("internal.example");
    expect(logged.join("\n")).toContain("internal.example");
    await client.close();
  });

  it("never sends structured content that breaks the output schema", async () => {
    const client = await connect();
    const result = (await client.callTool({ name: "memory_stats" })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(text(result)).toContain("[INTERNAL]");
    expect(logged.join("\n")).toContain("outside its schema");
    await client.close();
  });

  it("names a bad argument by field, validated once by the memory service, writing nothing", async () => {
    const memory = await createHindsight(
      { dataDir: "memory://" },
      { embedder: createHashEmbedder() },
    );
    try {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await createMcpServer(memory, { logger }).connect(serverSide);
      const client = new Client({ name: "test", version: "0" });
      await client.connect(clientSide);
      const result = (await client.callTool({
        name: "memory_store",
        arguments: { task_type: "t", summary: "", outcome: "success" },
      })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(text(result)).toBe("summary: must not be empty [INVALID_INPUT]");
      expect(logged).toEqual([]);
      expect((await memory.stats()).episodic.total).toBe(0);
      await client.close();
    } finally {
      await memory.close();
    }
  });
});
