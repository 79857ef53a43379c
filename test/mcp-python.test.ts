/**
 * Interop with the official MCP Python SDK: its Streamable HTTP client against our handler.
 * Needs python3 with `pip install -r test/interop/requirements.txt`; skipped with the reason
 * when missing, except in CI (CI=true), where a missing client is a failure.
 */
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHindsight, type Hindsight } from "../src/index.js";
import { type RunningServer, startHttpServer, TOOL_NAMES } from "./interop/support.js";

const CLIENT = join(import.meta.dirname, "interop", "mcp_client.py");
const INSTALL = "pip install -r test/interop/requirements.txt";

/** Why the Python client cannot run here, or undefined when it can. */
function missingPython(): string | undefined {
  const probe = spawnSync("python3", ["-c", "import mcp.client.streamable_http"], {
    encoding: "utf8",
    timeout: 20_000,
  });
  if (probe.error) return `python3 is not available (${probe.error.message})`;
  if (probe.status !== 0) return `the Python package 'mcp' is not installed`;
  return undefined;
}

function runClient(url: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("python3", [CLIENT, url]);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 45_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("MCP Python SDK client over Streamable HTTP", () => {
  const missing = missingPython();
  let memory: Hindsight;
  let server: RunningServer;

  beforeAll(async () => {
    if (missing) return;
    memory = await createHindsight({ embedder: { kind: "hash" }, dataDir: "memory://" });
    server = await startHttpServer(memory);
  });
  afterAll(async () => {
    await server?.close();
    await memory?.close();
  });

  it("stores and recalls through the official Python client", async (context) => {
    if (missing) {
      if (process.env.CI === "true") throw new Error(`${missing}: run \`${INSTALL}\``);
      context.skip(`${missing}; run \`${INSTALL}\` to enable this test`);
    }
    const run = await runClient(server.url);
    expect(run.code, run.stderr).toBe(0);
    const seen = JSON.parse(run.stdout.trim()) as {
      server: string;
      protocol_version: string;
      tools: string[];
      stored_id: string;
      stored_is_error: boolean;
      recalled_ids: string[];
      recall_text: string;
      bad_is_error: boolean;
      bad_text: string;
    };
    expect(seen.server).toBe("hindsight");
    expect(seen.tools).toEqual([...TOOL_NAMES].sort());
    expect(seen.stored_is_error).toBe(false);
    expect(seen.stored_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen.recalled_ids).toEqual([seen.stored_id]);
    expect(seen.recall_text).toContain(`[MEMORY id=${seen.stored_id} layer=episodic`);
    expect(seen.recall_text).toContain("[/MEMORY]");
    expect(seen.bad_is_error).toBe(true);
    expect(seen.bad_text).toContain("top_k: Too big: expected number to be <=20");
  });
});
