/**
 * The MCP Inspector's CLI mode (what people use to poke at a server by hand), offline,
 * against the built `hindsight mcp` over stdio and against the HTTP handler.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHindsight, type Hindsight } from "../src/index.js";
import { type RunningServer, startHttpServer, TOOL_NAMES } from "./interop/support.js";
import { CLI } from "./support/cli.js";

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `npx @modelcontextprotocol/inspector --cli …` from the repository, so npx runs the installed
 * devDependency; `npm_config_offline` makes sure it never reaches for the registry.
 */
function inspector(args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["@modelcontextprotocol/inspector", "--cli", ...args], {
      cwd: join(import.meta.dirname, ".."),
      env: { ...process.env, npm_config_offline: "true" },
      // Its own process group, so a hung run (or the web UI, should --cli ever be lost) is
      // killed with everything it started.
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    }, 30_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function parsed<T = Record<string, unknown>>(run: Run): T {
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as T;
}

describe("MCP Inspector CLI against hindsight mcp (stdio)", () => {
  let dataDir: string;
  const server = () => ["-e", `HINDSIGHT_DATA_DIR=${dataDir}`, process.execPath, CLI, "mcp"];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "hindsight-inspector-"));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it("lists the tools", async () => {
    const { tools } = parsed<{ tools: { name: string }[] }>(
      await inspector([...server(), "--method", "tools/list"]),
    );
    expect(tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
  });

  it("stores with --tool-arg and recalls in a later process", async () => {
    const stored = parsed<{ structuredContent: { id: string } }>(
      await inspector([
        ...server(),
        "--method",
        "tools/call",
        "--tool-name",
        "memory_store",
        "--tool-arg",
        "task_type=deploy",
        "summary=Inspector deploy failed: port 8080 already in use",
        "outcome=failure",
        'tags=["inspector"]',
      ]),
    );
    expect(stored.structuredContent.id).toMatch(/^[0-9a-f-]{36}$/);

    const recalled = parsed<{
      structuredContent: { results: { id: string; tags: string[] }[] };
      content: { text: string }[];
    }>(
      await inspector([
        ...server(),
        "--method",
        "tools/call",
        "--tool-name",
        "memory_recall",
        "--tool-arg",
        "query_text=inspector deploy port",
        "top_k=3",
      ]),
    );
    expect(recalled.structuredContent.results[0]).toMatchObject({
      id: stored.structuredContent.id,
      tags: ["inspector"],
    });
    expect(recalled.content[0]?.text).toContain(`[MEMORY id=${stored.structuredContent.id} `);
  });

  it("shows bad arguments as an isError result", async () => {
    const result = parsed<{ isError: boolean; content: { text: string }[] }>(
      await inspector([
        ...server(),
        "--method",
        "tools/call",
        "--tool-name",
        "memory_recall",
        "--tool-arg",
        "query_text=x",
        "top_k=99",
      ]),
    );
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toContain("top_k: Too big: expected number to be <=20");
  });

  it("lists and renders the prompt", async () => {
    const { prompts } = parsed<{ prompts: { name: string }[] }>(
      await inspector([...server(), "--method", "prompts/list"]),
    );
    expect(prompts.map((prompt) => prompt.name)).toEqual(["memory_guidelines"]);
    const prompt = parsed<{ messages: { content: { text: string } }[] }>(
      await inspector([
        ...server(),
        "--method",
        "prompts/get",
        "--prompt-name",
        "memory_guidelines",
        "--prompt-args",
        "language=zh",
      ]),
    );
    expect(prompt.messages[0]?.content.text).toContain("memory_recall");
  });
});

describe("MCP Inspector CLI against the HTTP handler", () => {
  let memory: Hindsight;
  let server: RunningServer;

  beforeAll(async () => {
    memory = await createHindsight({ embedder: { kind: "hash" }, dataDir: "memory://" });
    server = await startHttpServer(memory);
  });
  afterAll(async () => {
    await server?.close();
    await memory?.close();
  });

  it("lists the tools and calls one over Streamable HTTP", async () => {
    const { tools } = parsed<{ tools: { name: string }[] }>(
      await inspector([server.url, "--transport", "http", "--method", "tools/list"]),
    );
    expect(tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
    const stats = parsed<{ structuredContent: { episodic: { total: number } } }>(
      await inspector([
        server.url,
        "--transport",
        "http",
        "--method",
        "tools/call",
        "--tool-name",
        "memory_stats",
      ]),
    );
    expect(stats.structuredContent.episodic.total).toBe(0);
  });
});
