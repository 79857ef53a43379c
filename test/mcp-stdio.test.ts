/**
 * `hindsight mcp` as an MCP client launches it: the built binary spawned over stdio, driven by
 * the SDK's own client, plus the process lifecycle (stdout purity, stdin close, signals).
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../src/adapters/logger.js";
import type { MemoryApi } from "../src/core/memory-api.js";
import type { MemoryStats } from "../src/core/types.js";
import { runStdioServer } from "../src/mcp/stdio.js";
import {
  expectBadArguments,
  expectCoreFlow,
  expectGuidelinesPrompt,
  expectInjectionNeutralised,
  expectToolList,
  expectUnknownToolIsProtocolError,
  ok,
} from "./interop/support.js";
import { CLI } from "./support/cli.js";

function environment(dataDir: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && key !== "DATABASE_URL") env[key] = value;
  }
  return { ...env, HINDSIGHT_DATA_DIR: dataDir, HINDSIGHT_LOG_LEVEL: "info" };
}

describe("hindsight mcp over stdio, with the SDK client", () => {
  let dataDir: string;
  let client: Client;
  let transport: StdioClientTransport;
  let stderr = "";

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "hindsight-mcp-"));
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "mcp"],
      env: environment(dataDir),
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    client = new Client({ name: "hindsight-test", version: "0.0.0" });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("initialises as hindsight and logs to stderr only", () => {
    expect(client.getServerVersion()).toMatchObject({ name: "hindsight" });
    expect(stderr).toContain("mcp server ready on stdio");
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
});

describe("two hindsight mcp processes on one data directory", () => {
  let dataDir: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "hindsight-mcp-shared-"));
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function open(): Promise<Client> {
    const client = new Client({ name: "hindsight-test", version: "0.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, "mcp"],
        env: environment(dataDir),
        stderr: "ignore",
      }),
    );
    clients.push(client);
    return client;
  }

  // What a user with Claude Desktop and Cursor both configured gets: each starts its own.
  it("see each other's memories, also after the first one exits", async () => {
    const first = await open();
    const second = await open();
    const { structured } = await ok<{ id: string }>(first, "memory_store", {
      task_type: "shared",
      summary: "written by the first client of a shared directory",
      outcome: "success",
    });
    const query = { query_text: "first client shared directory" };
    const seen = await ok<{ results: { id: string }[] }>(second, "memory_recall", query);
    expect(seen.structured.results.map((result) => result.id)).toEqual([structured.id]);
    await first.close();
    const later = await ok<{ results: { id: string }[] }>(second, "memory_recall", query);
    expect(later.structured.results.map((result) => result.id)).toEqual([structured.id]);
  });
});

/** The raw process: what a client that is not the SDK sees. */
describe("hindsight mcp process lifecycle", () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "hindsight-mcp-life-"));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  function start(): {
    child: ChildProcessWithoutNullStreams;
    output: { stdout: string; stderr: string };
    exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  } {
    const child = spawn(process.execPath, [CLI, "mcp"], { env: environment(dataDir) });
    const output = { stdout: "", stderr: "" };
    child.stdout.on("data", (chunk: Buffer) => {
      output.stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output.stderr += chunk.toString("utf8");
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on("close", (code, signal) => resolve({ code, signal })),
    );
    return { child, output, exited };
  }

  const send = (child: ChildProcessWithoutNullStreams, message: object) =>
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);

  function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
    return Promise.race([
      promise,
      new Promise<T>((_, reject) =>
        setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms).unref(),
      ),
    ]);
  }

  it("answers requests already sent, writes only JSON-RPC to stdout and exits 0 when stdin closes", async () => {
    const { child, output, exited } = start();
    send(child, {
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "raw", version: "0" },
      },
    });
    send(child, { method: "notifications/initialized" });
    const stores = 5;
    for (let id = 2; id < 2 + stores; id++) {
      send(child, {
        id,
        method: "tools/call",
        params: {
          name: "memory_store",
          arguments: {
            task_type: "lifecycle",
            summary: `written before stdin closed ${id}`,
            outcome: "success",
          },
        },
      });
    }
    send(child, {
      id: 2 + stores,
      method: "tools/call",
      params: { name: "memory_stats", arguments: {} },
    });
    // Closing stdin at once: the server must still answer what it received, then exit.
    child.stdin.end();
    const { code } = await within(exited, 20_000, "exit after stdin closed");
    expect(code, output.stderr).toBe(0);
    const lines = output.stdout.trim().split("\n");
    const messages = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const message of messages) expect(message.jsonrpc).toBe("2.0");
    const byId = new Map(messages.map((message) => [message.id, message]));
    expect([...byId.keys()].sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: stores + 2 }, (_, index) => index + 1),
    );
    for (let id = 2; id < 2 + stores; id++) {
      expect(byId.get(id)).toMatchObject({
        result: { structuredContent: { id: expect.any(String) } },
      });
    }
    // Requests run concurrently, so stats may count the stores or not; it must be answered.
    expect(byId.get(2 + stores)).toMatchObject({
      result: { structuredContent: { episodic: { total: expect.any(Number) } } },
    });
    expect(output.stderr).toContain("mcp server ready on stdio");
  });

  it.skipIf(process.platform === "win32")("closes cleanly on SIGTERM and SIGINT", async () => {
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      const { child, output, exited } = start();
      await within(
        new Promise<void>((resolve) => {
          const check = () => output.stderr.includes("mcp server ready") && resolve();
          child.stderr.on("data", check);
          check();
        }),
        20_000,
        "start-up",
      );
      child.kill(signal);
      const { code } = await within(exited, 10_000, `exit after ${signal}`);
      expect(code, `${signal}: ${output.stderr}`).toBe(0);
      expect(output.stdout).toBe("");
    }
  });

  it("fails with exit code 2 and a stderr message, not stdout, on a bad log level", async () => {
    const child = spawn(process.execPath, [CLI, "--log-level", "loud", "mcp"], {
      env: environment(dataDir),
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain("CONFIG_INVALID");
  });
});

describe("runStdioServer", () => {
  it("answers a request still running when stdin closes before resolving", async () => {
    const counts = { total: 0, active: 0, archived: 0 };
    const calls = { requests: 0, failures: 0, prompt_tokens: 0, completion_tokens: 0 };
    // A store slower than the end of input, as PostgreSQL or a forwarding client can be.
    const slow = {
      stats: () =>
        new Promise<MemoryStats>((resolve) =>
          setTimeout(
            () =>
              resolve({
                episodic: counts,
                semantic: counts,
                store: "slow",
                embedder: "none",
                working: null,
                llm: {
                  provider: "none",
                  model: null,
                  summary_model: null,
                  ...calls,
                  tiers: { main: calls, cheap: calls },
                  fallbacks: {},
                },
              }),
            300,
          ),
        ),
    } as unknown as MemoryApi;
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let written = "";
    stdout.on("data", (chunk: Buffer) => {
      written += chunk.toString("utf8");
    });
    const running = runStdioServer(slow, silentLogger, { stdin, stdout });
    const message = (body: object) => `${JSON.stringify({ jsonrpc: "2.0", ...body })}\n`;
    stdin.write(
      message({
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "t", version: "0" },
        },
      }),
    );
    stdin.end(
      message({ id: 2, method: "tools/call", params: { name: "memory_stats", arguments: {} } }),
    );
    await running;
    const replies = written
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { id: number });
    expect(replies.map((reply) => reply.id)).toEqual([1, 2]);
    expect(replies[1]).toMatchObject({ result: { structuredContent: { store: "slow" } } });
  });
});
