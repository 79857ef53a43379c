import { describe, expect, it, vi } from "vitest";
import { silentLogger } from "../../adapters/logger.js";
import type { RecallOptions } from "./recall.js";
import { WARM_UP_QUERIES, warmUpRecall } from "./warm-up.js";

type Call = { input: { query_text: string; memory_layer: string }; options: RecallOptions };

function recorder(fail?: (index: number) => boolean) {
  const calls: Call[] = [];
  const recall = async (input: unknown, options: RecallOptions) => {
    calls.push({ input: input as Call["input"], options });
    if (fail?.(calls.length - 1)) throw new Error("store closed");
    return { results: [] };
  };
  return { calls, recall };
}

describe("warmUpRecall", () => {
  it("asks each warm-up query once, in both languages, without recording any access", async () => {
    const { calls, recall } = recorder();
    await warmUpRecall(recall, () => false, silentLogger);
    expect(calls.map((call) => call.input.query_text)).toEqual(WARM_UP_QUERIES);
    expect(calls.every((call) => call.options.recordAccess === false)).toBe(true);
    expect(new Set(calls.map((call) => call.input.memory_layer))).toEqual(
      new Set(["episodic", "all"]),
    );
    expect(WARM_UP_QUERIES.some((query) => /\p{Script=Han}/u.test(query))).toBe(true);
  });

  it("stops once the process is closing", async () => {
    const { calls, recall } = recorder();
    let closing = false;
    const wrapped = async (input: unknown, options: RecallOptions) => {
      if (calls.length === 2) closing = true;
      return recall(input, options);
    };
    const logger = { ...silentLogger, debug: vi.fn() };
    await warmUpRecall(wrapped, () => closing, logger);
    expect(calls).toHaveLength(3);
    expect(logger.debug).toHaveBeenCalledWith(
      expect.stringMatching(/^warm-up: 3 recalls in \d+ ms$/),
    );
  });

  it("ends quietly at the first failure, logging it at debug", async () => {
    const { calls, recall } = recorder((index) => index === 1);
    const logger = { ...silentLogger, debug: vi.fn() };
    await expect(warmUpRecall(recall, () => false, logger)).resolves.toBeUndefined();
    expect(calls).toHaveLength(2);
    expect(logger.debug).toHaveBeenCalledExactlyOnceWith("warm-up recall failed", {
      error: "Error: store closed",
    });
  });
});
