/**
 * The built CLI with its language model configured from the environment, pointing at a local
 * OpenAI-compatible server: `store --interaction`, `summarize`, `stats`, and what happens when
 * the model misbehaves or none is configured. Plus the environment's LLM settings.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { configFromEnv } from "../src/config/env.js";
import { parseConfig } from "../src/index.js";
import { json, runCli } from "./support/cli.js";
import { type FakeOpenAI, lastUserMessage, reply, startFakeOpenAI } from "./support/fake-openai.js";

let dir: string;
let server: FakeOpenAI;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "hindsight-llm-cli-"));
  server = await startFakeOpenAI();
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  server.requests.length = 0;
});

function env(dataDir: string, extra: Record<string, string> = {}) {
  return {
    HINDSIGHT_DATA_DIR: join(dir, dataDir),
    DATABASE_URL: undefined,
    HINDSIGHT_LLM_BASE_URL: server.baseUrl,
    HINDSIGHT_LLM_MODEL: "big-model",
    HINDSIGHT_LLM_SUMMARY_MODEL: "small-model",
    HINDSIGHT_LLM_API_KEY: "sk-cli-test",
    HINDSIGHT_LLM_MAX_RETRIES: "1",
    ...extra,
  };
}

const interaction =
  "User: the nightly export to S3 keeps failing\nAgent: found expired credentials, rotated the key\nTool: export finished, 1.2 GB uploaded";

describe("hindsight CLI with a language model", () => {
  it("store --interaction writes the model's summary; stats shows the model", async () => {
    server.enqueue(
      reply.rateLimited(0),
      reply.json({ summary: "Fixed nightly S3 export: rotated expired key, 1.2 GB uploaded" }),
    );
    const stored = await runCli(
      [
        "store",
        "--task-type",
        "export",
        "--interaction",
        interaction,
        "--outcome",
        "success",
        "--json",
      ],
      env("a"),
    );
    const result = json<{ id: string; summary: string; summary_source: string }>(stored);
    expect(result).toMatchObject({
      summary: "Fixed nightly S3 export: rotated expired key, 1.2 GB uploaded",
      summary_source: "llm:small-model",
    });
    expect(stored.stderr).toContain("chat completion failed; retrying");
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]!.authorization).toBe("Bearer sk-cli-test");
    expect(lastUserMessage(server.requests[0]!)).toContain("expired credentials");

    const recalled = json<{
      results: { id: string; summary: string; metadata: Record<string, unknown> }[];
    }>(await runCli(["recall", "S3 export", "--json"], env("a")));
    expect(recalled.results[0]).toMatchObject({
      id: result.id,
      summary: result.summary,
      metadata: { hindsight: { interaction, summary_source: "llm:small-model" } },
    });

    const stats = json<{ llm: Record<string, unknown> }>(
      await runCli(["stats", "--json"], env("a")),
    );
    expect(stats.llm).toMatchObject({
      provider: "openai",
      model: "big-model",
      summary_model: "small-model",
    });
    const text = await runCli(["stats"], env("a"));
    expect(text.stdout).toMatch(/^llm {7}openai big-model \(summaries: small-model\)/m);
  });

  it("reads the interaction from stdin with --interaction -", async () => {
    server.enqueue(reply.json({ summary: "from stdin" }));
    const { spawn } = await import("node:child_process");
    const { CLI } = await import("./support/cli.js");
    const child = spawn(
      process.execPath,
      [CLI, "store", "--task-type", "t", "--interaction", "-", "--outcome", "success", "--json"],
      { env: { ...process.env, ...env("stdin") }, stdio: ["pipe", "pipe", "pipe"] },
    );
    child.stdin.end("User: piped interaction\nAgent: handled it");
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ summary: "from stdin" });
    expect(lastUserMessage(server.requests[0]!)).toContain("piped interaction");
  });

  it("never loses the memory when the model answers garbage: exit 0, extractive summary", async () => {
    server.enqueue(reply.text("I am not able to help with that."), reply.text("Still no JSON."));
    const stored = await runCli(
      [
        "store",
        "--task-type",
        "export",
        "--interaction",
        interaction,
        "--outcome",
        "success",
        "--json",
      ],
      env("b"),
    );
    expect(json(stored)).toMatchObject({
      summary: "the nightly export to S3 keeps failing … export finished, 1.2 GB uploaded",
      summary_source: "extractive",
    });
    expect(stored.stderr).toContain("summary falls back to its deterministic form");
    const stats = json<{ episodic: { total: number } }>(
      await runCli(["stats", "--json"], env("b")),
    );
    expect(stats.episodic.total).toBe(1);
  });

  it("summarize compresses with the model and names the memories each part covers", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const stored = await runCli(
        [
          "store",
          "--task-type",
          "export",
          "--summary",
          `Nightly export ${i} to S3 failed after ${i + 2} hours: expired credentials were rotated, the upload was re-run and verified against the checksum manifest`,
          "--outcome",
          "failure",
          "--json",
        ],
        env("c"),
      );
      ids.push(json<{ id: string }>(stored).id);
    }
    server.enqueue(
      reply.brokenJson({
        summary: "S3 exports failed on expired credentials; rotating them fixed it.",
      }),
    );
    const summary = json<{
      method: string;
      model: string;
      tokens: number;
      memory_ids: string[];
      groups: { topic: string; memory_ids: string[]; method: string }[];
    }>(
      await runCli(["summarize", "--ids", ids.join(","), "--max-tokens", "40", "--json"], env("c")),
    );
    expect(summary).toMatchObject({ method: "llm", model: "small-model" });
    expect(summary.tokens).toBeLessThanOrEqual(40);
    expect(summary.groups).toEqual([{ topic: "export", memory_ids: ids, method: "llm" }]);
    expect(server.requests[0]!.body.model).toBe("small-model");

    const human = await runCli(
      ["summarize", "S3 export", "--max-tokens", "40"],
      env("c", { HINDSIGHT_LLM_PROVIDER: "none" }),
    );
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^export \(3: 3 failure\)/);
    expect(human.stdout).toMatch(/tokens, extractive, \d memories\)/);
  });

  it("without a model: extractive summaries, said so in the result and in stats", async () => {
    const none = { HINDSIGHT_LLM_BASE_URL: "", HINDSIGHT_LLM_MODEL: "" };
    const stored = await runCli(
      [
        "store",
        "--task-type",
        "export",
        "--interaction",
        interaction,
        "--outcome",
        "success",
        "--json",
      ],
      env("d", none),
    );
    expect(json(stored)).toMatchObject({ summary_source: "extractive" });
    // Not announced on every one-shot call: stats says it.
    expect(stored.stderr).not.toContain("no language model");
    expect(server.requests).toHaveLength(0);
    const text = await runCli(["stats"], env("d", none));
    expect(text.stdout).toContain("llm       none (extractive fallbacks)");
  });

  it("rejects both --summary and --interaction naming the flag", async () => {
    const result = await runCli(
      ["store", "--task-type", "t", "--summary", "s", "--interaction", "i", "--outcome", "success"],
      env("e"),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "--interaction (interaction): give exactly one of summary or interaction",
    );
  });

  it("refuses an LLM configuration it cannot use, before touching data", async () => {
    const result = await runCli(["stats"], env("f", { HINDSIGHT_LLM_MODEL: "" }));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("llm.model: a model name is required");
  });
});

describe("LLM settings from the environment", () => {
  const llmOf = (variables: Record<string, string>) =>
    parseConfig(configFromEnv({ HINDSIGHT_DATA_DIR: "memory://", ...variables })).llm;

  it("is none unless a base URL or model is given", () => {
    expect(llmOf({})).toEqual({ provider: "none" });
    expect(llmOf({ OPENAI_API_KEY: "sk" })).toEqual({ provider: "none" });
    expect(llmOf({ HINDSIGHT_LLM_PROVIDER: "none", HINDSIGHT_LLM_MODEL: "m" })).toEqual({
      provider: "none",
    });
  });

  it("reads an OpenAI-compatible server, with its timeout and retries", () => {
    expect(
      llmOf({
        HINDSIGHT_LLM_BASE_URL: "http://127.0.0.1:11434/v1",
        HINDSIGHT_LLM_MODEL: "qwen2.5:7b",
        HINDSIGHT_LLM_SUMMARY_MODEL: "qwen2.5:3b",
        HINDSIGHT_LLM_TIMEOUT_MS: "5000",
        HINDSIGHT_LLM_MAX_RETRIES: "1",
        OPENAI_API_KEY: "sk-openai",
      }),
    ).toEqual({
      provider: "openai",
      baseUrl: "http://127.0.0.1:11434/v1",
      model: "qwen2.5:7b",
      summaryModel: "qwen2.5:3b",
      timeoutMs: 5000,
      maxRetries: 1,
    });
  });

  it("defaults to gpt-4o-mini on OpenAI, with OPENAI_API_KEY only there", () => {
    expect(llmOf({ HINDSIGHT_LLM_PROVIDER: "openai", OPENAI_API_KEY: "sk-openai" })).toMatchObject({
      baseUrl: "https://api.openai.com/v1",
      apiKey: "sk-openai",
      model: "gpt-4o-mini",
    });
  });

  it.each([
    [{ HINDSIGHT_LLM_PROVIDER: "anthropic" }, "HINDSIGHT_LLM_PROVIDER"],
    [{ HINDSIGHT_LLM_PROVIDER: "openai" }, "llm.apiKey"],
    [{ HINDSIGHT_LLM_BASE_URL: "http://localhost:8000/v1" }, "llm.model"],
    [{ HINDSIGHT_LLM_MODEL: "m", HINDSIGHT_LLM_BASE_URL: "not a url" }, "llm.baseUrl"],
    [{ HINDSIGHT_LLM_MODEL: "m", HINDSIGHT_LLM_TIMEOUT_MS: "soon" }, "HINDSIGHT_LLM_TIMEOUT_MS"],
  ])("refuses %j with CONFIG_INVALID naming %s", (variables, field) => {
    expect(() => llmOf(variables)).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID", field }),
    );
  });
});
