import { describe, expect, it } from "vitest";
import { memoryOperations } from "./memories.js";

describe("recall on the command line", () => {
  const human = memoryOperations.recall.cli![0]!.human;

  it("says that an empty episodic search left facts unsearched", () => {
    expect(human({ results: [] }, { memory_layer: "episodic" })).toContain("--layer all");
    expect(human({ results: [] }, { memory_layer: "all" })).toBe(
      "no memories above the score floor",
    );
  });
});
