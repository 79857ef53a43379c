/**
 * The language model's circuit breaker end to end: a model configured from the environment,
 * on a local OpenAI-compatible server that always answers garbage. The first jobs try it and
 * fall back; then the breaker opens and later jobs fall back without a request, stats and
 * metrics say so, and after the cool-down (an injected clock, no sleeping) one trial call that
 * succeeds closes it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { fixedClock } from "../src/adapters/clock.js";
import { createLanguageModel } from "../src/adapters/llm/create.js";
import { configFromEnv } from "../src/config/env.js";
import { completeJson } from "../src/core/llm/complete-json.js";
import type { Logger } from "../src/core/ports.js";
import { createHttpMetrics } from "../src/http/metrics.js";
import { createHindsight, type Hindsight, parseConfig } from "../src/index.js";
import { type FakeOpenAI, reply, startFakeOpenAI } from "./support/fake-openai.js";

let server: FakeOpenAI;
let answer: "garbage" | "good" = "garbage";
beforeAll(async () => {
  server = await startFakeOpenAI({
    respond: () =>
      answer === "good"
        ? reply.json({ summary: "Deploy fixed by freeing port 8080" })
        : reply.text("I am not able to help with that."),
  });
});
afterAll(async () => {
  await server.close();
});

const interaction = [
  "User: deploy the billing service to staging",
  "Tool: error: port 8080 already in use",
  "Assistant: freed the port and re-deployed; billing runs on staging.",
].join("\n");

function recordingLogger(): Logger & { lines: { level: string; message: string }[] } {
  const lines: { level: string; message: string }[] = [];
  const at = (level: string) => (message: string) => {
    lines.push({ level, message });
  };
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

const llmEnv = (extra: Record<string, string> = {}) => ({
  HINDSIGHT_DATA_DIR: "memory://",
  HINDSIGHT_LLM_BASE_URL: server.baseUrl,
  HINDSIGHT_LLM_MODEL: "big-model",
  HINDSIGHT_LLM_MAX_RETRIES: "0",
  HINDSIGHT_LLM_TIMEOUT_MS: "5000",
  ...extra,
});

describe("the language model's circuit breaker", () => {
  let memory: Hindsight | undefined;
  afterEach(async () => {
    await memory?.close();
    memory = undefined;
    server.requests.length = 0;
    answer = "garbage";
  });

  it("stops calling a model that keeps answering garbage, and calls it again after the cool-down", async () => {
    const clock = fixedClock(new Date("2025-06-01T00:00:00Z"));
    const logger = recordingLogger();
    const config = parseConfig(
      configFromEnv(
        llmEnv({ HINDSIGHT_LLM_BREAKER_FAILURES: "2", HINDSIGHT_LLM_BREAKER_COOLDOWN_MS: "30000" }),
      ),
    );
    const llm = createLanguageModel(config.llm, logger, clock)!;
    memory = await createHindsight(
      { dataDir: "memory://", embedder: { kind: "hash" } },
      {
        llm,
        logger,
      },
    );
    const store = () =>
      memory!.storeEpisodic({ task_type: "deploy", interaction, outcome: "success" });

    // Two jobs try the model (an answer and its correction each) and fall back.
    for (let i = 0; i < 2; i++) {
      await expect(store()).resolves.toMatchObject({ summary_source: "extractive" });
    }
    expect(server.requests).toHaveLength(4);
    const warnings = () => logger.lines.filter((line) => line.level === "warn");
    expect(warnings().map((line) => line.message)).toEqual([
      expect.stringContaining("summary falls back to its deterministic form"),
      expect.stringContaining("failed 2 tasks in a row: circuit breaker open"),
      expect.stringContaining("summary falls back to its deterministic form"),
    ]);

    // Open: the next jobs fall back at once, the server hears nothing, nobody warns again.
    for (let i = 0; i < 3; i++) {
      await expect(store()).resolves.toMatchObject({ summary_source: "extractive" });
    }
    await memory.workingAppend({
      session_id: "s1",
      kind: "goal",
      role: "user",
      content: "Deploy billing to staging",
    });
    await expect(
      memory.workingEnd({ session_id: "s1", task_type: "deploy", outcome: "success" }),
    ).resolves.toMatchObject({ method: "deterministic" });
    expect(server.requests).toHaveLength(4);
    expect(warnings()).toHaveLength(3);

    const open = await memory.stats();
    expect(open.llm).toMatchObject({
      requests: 4,
      fallbacks: { summary: 5 },
      breaker: {
        state: "open",
        consecutive_failures: 2,
        opens: 1,
        skipped: 4,
        open_until: "2025-06-01T00:00:30.000Z",
        cooldown_ms: 30_000,
      },
    });
    const metrics = await createHttpMetrics(memory, logger).registry.metrics();
    expect(metrics).toMatch(/^hindsight_llm_breaker_open 1$/m);
    expect(metrics).toMatch(/^hindsight_llm_breaker_opens_total 1$/m);
    expect(metrics).toMatch(/^hindsight_llm_breaker_skipped_total 4$/m);

    // After the cool-down one trial is let through; the model answers again and it closes.
    clock.set(new Date("2025-06-01T00:00:30Z"));
    expect((await memory.stats()).llm.breaker).toMatchObject({
      state: "half_open",
      open_until: null,
    });
    answer = "good";
    await expect(store()).resolves.toMatchObject({
      summary: "Deploy fixed by freeing port 8080",
      summary_source: "llm:big-model",
    });
    expect(server.requests).toHaveLength(5);
    expect((await memory.stats()).llm.breaker).toMatchObject({
      state: "closed",
      consecutive_failures: 0,
      opens: 1,
      skipped: 4,
    });
    expect(logger.lines.at(-1)?.message).toContain("circuit breaker closed");
    const closed = await createHttpMetrics(memory, logger).registry.metrics();
    expect(closed).toMatch(/^hindsight_llm_breaker_open 0$/m);
  });

  it("is on by default (3 failed tasks, 60 s) and off with HINDSIGHT_LLM_BREAKER_FAILURES=0", async () => {
    const clock = fixedClock(new Date("2025-06-01T00:00:00Z"));
    const logger = recordingLogger();
    const defaults = createLanguageModel(parseConfig(configFromEnv(llmEnv())).llm, logger, clock)!;
    expect(defaults.breaker!.stats()).toMatchObject({ state: "closed", cooldown_ms: 60_000 });

    const off = parseConfig(configFromEnv(llmEnv({ HINDSIGHT_LLM_BREAKER_FAILURES: "0" })));
    const llm = createLanguageModel(off.llm, logger, clock)!;
    const request = {
      tier: "cheap" as const,
      purpose: "summary",
      messages: [{ role: "user" as const, content: "summarise" }],
    };
    for (let i = 0; i < 4; i++) {
      await expect(completeJson(llm, request, z.object({ summary: z.string() }))).rejects.toThrow(
        "no usable answer",
      );
    }
    expect(server.requests).toHaveLength(8);
    expect(llm.breaker!.stats()).toMatchObject({ state: "disabled", skipped: 0 });
  });

  it.each([
    [{ HINDSIGHT_LLM_BREAKER_FAILURES: "often" }, "HINDSIGHT_LLM_BREAKER_FAILURES"],
    [{ HINDSIGHT_LLM_BREAKER_FAILURES: "-1" }, "llm.breaker.failures"],
    [{ HINDSIGHT_LLM_BREAKER_COOLDOWN_MS: "0" }, "llm.breaker.cooldownMs"],
  ])("refuses %j with CONFIG_INVALID naming %s", (variables, field) => {
    expect(() => parseConfig(configFromEnv(llmEnv(variables)))).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID", field }),
    );
  });
});
