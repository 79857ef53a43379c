import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fixedClock } from "../../adapters/clock.js";
import { ErrorCode } from "../errors.js";
import type { LanguageModel, Logger } from "../ports.js";
import { DEFAULT_BREAKER, guardLanguageModel, skippedByBreaker } from "./breaker.js";
import { completeJson } from "./complete-json.js";

const START = new Date("2025-06-01T00:00:00Z");
const MINUTE = 60_000;

/** A model whose answers are switched between garbage, usable and thrown errors. */
function switchable() {
  let mode: "garbage" | "good" | "throw" = "garbage";
  let calls = 0;
  const model: LanguageModel = {
    id: "fake:test",
    models: { main: "fake-main", cheap: "fake-cheap" },
    async chat() {
      calls++;
      if (mode === "throw") throw new Error("timed out after 60000 ms");
      const text = mode === "good" ? '{"summary": "ok"}' : "I cannot help with that.";
      return { text, model: "fake", usage: { prompt_tokens: 1, completion_tokens: 1 } };
    },
    usage: () => ({ requests: calls, failures: 0, prompt_tokens: 0, completion_tokens: 0 }),
  };
  return {
    model,
    calls: () => calls,
    set: (next: typeof mode) => {
      mode = next;
    },
  };
}

function recording(): Logger & { lines: { level: string; message: string }[] } {
  const lines: { level: string; message: string }[] = [];
  const at = (level: string) => (message: string) => {
    lines.push({ level, message });
  };
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

const Summary = z.object({ summary: z.string() });
const task = (llm: LanguageModel) =>
  completeJson(
    llm,
    { tier: "cheap", purpose: "summary", messages: [{ role: "user", content: "summarise" }] },
    Summary,
  );

function setup(settings = DEFAULT_BREAKER) {
  const clock = fixedClock(START);
  const logger = recording();
  const fake = switchable();
  const llm = guardLanguageModel(fake.model, settings, clock, logger);
  const advance = (ms: number) => clock.set(new Date(clock.now().getTime() + ms));
  const stats = () => llm.breaker!.stats();
  return { clock, logger, fake, llm, advance, stats };
}

describe("the language model's circuit breaker", () => {
  it("opens after 3 failed tasks in a row, then skips the model at once", async () => {
    const { fake, llm, stats, logger } = setup();
    for (let i = 0; i < 3; i++) {
      await expect(task(llm)).rejects.toMatchObject({ code: ErrorCode.LLM_FAILED });
    }
    // Two attempts per task: the model was asked six times.
    expect(fake.calls()).toBe(6);
    expect(stats()).toEqual({
      state: "open",
      consecutive_failures: 3,
      opens: 1,
      skipped: 0,
      open_until: "2025-06-01T00:01:00.000Z",
      cooldown_ms: 60_000,
    });

    const skipped = await task(llm).catch((error: unknown) => error);
    expect(skippedByBreaker(skipped)).toBe(true);
    expect(skipped).toMatchObject({
      code: ErrorCode.LLM_FAILED,
      message: expect.stringContaining("circuit breaker open until 2025-06-01T00:01:00.000Z"),
      details: { purpose: "summary", breaker: "open" },
    });
    await expect(task(llm)).rejects.toMatchObject({ code: ErrorCode.LLM_FAILED });
    expect(fake.calls()).toBe(6);
    expect(stats()).toMatchObject({ state: "open", skipped: 2, opens: 1 });
    // The opening is warned once; skipped tasks are not logged here at all.
    expect(logger.lines.filter((line) => line.level === "warn")).toHaveLength(1);
    expect(logger.lines[0]!.message).toMatch(/failed 3 tasks in a row: circuit breaker open/);
  });

  it("counts a thrown chat (a timeout) as a failed task", async () => {
    const { fake, llm, stats } = setup();
    fake.set("throw");
    for (let i = 0; i < 3; i++) {
      await expect(task(llm)).rejects.toThrow("timed out");
    }
    // A thrown chat ends its task at once: one call each.
    expect(fake.calls()).toBe(3);
    expect(stats().state).toBe("open");
  });

  it("a success resets the count of failures in a row", async () => {
    const { fake, llm, stats } = setup();
    await expect(task(llm)).rejects.toThrow();
    await expect(task(llm)).rejects.toThrow();
    fake.set("good");
    await expect(task(llm)).resolves.toMatchObject({ value: { summary: "ok" } });
    fake.set("garbage");
    await expect(task(llm)).rejects.toThrow();
    await expect(task(llm)).rejects.toThrow();
    expect(stats()).toMatchObject({ state: "closed", consecutive_failures: 2, opens: 0 });
  });

  it("half-opens after the cool-down: one trial call; its success closes the breaker", async () => {
    const { fake, llm, stats, advance, logger } = setup();
    for (let i = 0; i < 3; i++) await expect(task(llm)).rejects.toThrow();
    advance(MINUTE - 1);
    await expect(task(llm)).rejects.toSatisfy(skippedByBreaker);
    advance(1);
    expect(stats()).toMatchObject({ state: "half_open", open_until: null });

    fake.set("good");
    const before = fake.calls();
    await expect(task(llm)).resolves.toMatchObject({ value: { summary: "ok" } });
    expect(fake.calls()).toBe(before + 1);
    expect(stats()).toMatchObject({ state: "closed", consecutive_failures: 0, opens: 1 });
    expect(logger.lines.at(-1)).toMatchObject({
      level: "info",
      message: expect.stringContaining("circuit breaker closed"),
    });
    await expect(task(llm)).resolves.toBeDefined();
  });

  it("lets only one trial through while it runs; the others skip the model", async () => {
    const { fake, llm, stats, advance } = setup();
    for (let i = 0; i < 3; i++) await expect(task(llm)).rejects.toThrow();
    advance(MINUTE);
    fake.set("good");
    const before = fake.calls();
    const trial = task(llm);
    const other = task(llm).catch((error: unknown) => error);
    expect(skippedByBreaker(await other)).toBe(true);
    expect(await other).toMatchObject({ details: { breaker: "half_open" } });
    await expect(trial).resolves.toBeDefined();
    expect(fake.calls()).toBe(before + 1);
    expect(stats().state).toBe("closed");
  });

  it("re-opens on a failed trial with the cool-down doubled, up to 15 minutes", async () => {
    const { fake, llm, stats, advance, logger, clock } = setup();
    for (let i = 0; i < 3; i++) await expect(task(llm)).rejects.toThrow();
    const cooldowns: number[] = [];
    for (let i = 0; i < 6; i++) {
      advance(stats().cooldown_ms);
      const before = fake.calls();
      await expect(task(llm)).rejects.toThrow("no usable answer");
      expect(fake.calls()).toBe(before + 2);
      expect(stats().state).toBe("open");
      cooldowns.push(stats().cooldown_ms);
    }
    expect(cooldowns).toEqual([2, 4, 8, 15, 15, 15].map((minutes) => minutes * MINUTE));
    expect(stats()).toMatchObject({ opens: 7, consecutive_failures: 9 });
    // Still open just before the cool-down ends; failed trials are not warned again.
    advance(15 * MINUTE - 1);
    await expect(task(llm)).rejects.toSatisfy(skippedByBreaker);
    expect(logger.lines.filter((line) => line.level === "warn")).toHaveLength(1);

    // Recovery resets the cool-down.
    advance(1);
    fake.set("good");
    await expect(task(llm)).resolves.toBeDefined();
    expect(stats()).toMatchObject({ state: "closed", cooldown_ms: MINUTE });
    fake.set("garbage");
    for (let i = 0; i < 3; i++) await expect(task(llm)).rejects.toThrow();
    expect(stats()).toMatchObject({
      state: "open",
      open_until: new Date(clock.now().getTime() + MINUTE).toISOString(),
    });
  });

  it("never opens with failures 0", async () => {
    const { fake, llm, stats } = setup({ ...DEFAULT_BREAKER, failures: 0 });
    for (let i = 0; i < 10; i++) await expect(task(llm)).rejects.toThrow("no usable answer");
    expect(fake.calls()).toBe(20);
    expect(stats()).toEqual({
      state: "disabled",
      consecutive_failures: 0,
      opens: 0,
      skipped: 0,
      open_until: null,
      cooldown_ms: 60_000,
    });
  });

  it("wraps a model once, keeping its id, models and usage", () => {
    const { llm, clock, logger } = setup();
    expect(guardLanguageModel(llm, DEFAULT_BREAKER, clock, logger)).toBe(llm);
    expect(llm.id).toBe("fake:test");
    expect(llm.models).toEqual({ main: "fake-main", cheap: "fake-cheap" });
    expect(llm.usage().requests).toBe(0);
  });
});
