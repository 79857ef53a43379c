import { describe, expect, it } from "vitest";
import { DEFAULT_RANKING } from "../core/recall/ranking.js";
import { parseConfig } from "../open/parse-config.js";
import { configFromEnv } from "./env.js";

const recall = (variables: Record<string, string>) =>
  parseConfig(configFromEnv({ HINDSIGHT_DATA_DIR: "memory://", ...variables })).recall;

describe("ranking settings from the environment", () => {
  it("reads the weight of a memory ending with a question, the default when unset", () => {
    expect(recall({}).askingWeight).toBe(DEFAULT_RANKING.askingWeight);
    expect(recall({ HINDSIGHT_RECALL_ASKING_WEIGHT: "1" }).askingWeight).toBe(1);
    expect(recall({ HINDSIGHT_RECALL_ASKING_WEIGHT: "0.5" })).toMatchObject({
      askingWeight: 0.5,
      feedbackWeight: DEFAULT_RANKING.feedbackWeight,
    });
  });

  it("reads the weight of a memory naming no time for a question asking when", () => {
    expect(recall({}).whenWeight).toBe(DEFAULT_RANKING.whenWeight);
    expect(recall({ HINDSIGHT_RECALL_WHEN_WEIGHT: "1" }).whenWeight).toBe(1);
    expect(() => recall({ HINDSIGHT_RECALL_WHEN_WEIGHT: "-0.1" })).toThrow(/whenWeight/);
  });

  it("reads the weight of a reply that repeats its context", () => {
    expect(recall({}).echoWeight).toBe(DEFAULT_RANKING.echoWeight);
    expect(recall({ HINDSIGHT_RECALL_ECHO_WEIGHT: "1" }).echoWeight).toBe(1);
    expect(() => recall({ HINDSIGHT_RECALL_ECHO_WEIGHT: "2" })).toThrow(/echoWeight/);
  });

  it("refuses a weight outside 0..1, naming the setting", () => {
    expect(() => recall({ HINDSIGHT_RECALL_ASKING_WEIGHT: "1.5" })).toThrow(/askingWeight/);
  });
});

describe("the embedded store's buffer pool from the environment", () => {
  const pool = (variables: Record<string, string>) =>
    parseConfig(configFromEnv({ HINDSIGHT_DATA_DIR: "memory://", ...variables })).pgliteBuffersMb;

  it("is left to the store's size when unset, and read in MB when set", () => {
    expect(pool({})).toBeUndefined();
    expect(pool({ HINDSIGHT_PGLITE_BUFFERS_MB: "256" })).toBe(256);
  });

  it("refuses a size PGlite cannot start with, naming the setting", () => {
    expect(() => pool({ HINDSIGHT_PGLITE_BUFFERS_MB: "4096" })).toThrow(/pgliteBuffersMb/);
    expect(() => pool({ HINDSIGHT_PGLITE_BUFFERS_MB: "lots" })).toThrow(
      /HINDSIGHT_PGLITE_BUFFERS_MB/,
    );
  });
});
