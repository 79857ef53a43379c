import { describe, expect, it } from "vitest";
import type { RecalledMemory } from "../core/types.js";
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

describe("recall --explain on the command line", () => {
  const human = memoryOperations.recall.cli![0]!.human;
  const explained = (bm25: number, keywordRank: number) =>
    ({
      layer: "episodic",
      id: "8f1518c7-ec5e-4143-a9c7-48e242ce0950",
      score: 0.3,
      task_type: "billing",
      outcome: "failure",
      occurred_at: new Date("2026-12-07T09:07:00Z"),
      summary: "Invoice export timed out",
      explanation: {
        fusion: "weighted",
        vector_similarity: 0.4,
        bm25,
        feedback: 0,
        freshness: 1,
        frequency: 0,
        outcome_weight: 1,
        asking_weight: 1,
        when_weight: 1,
        echo_weight: 1,
        time_match: 0,
        vector_coverage: 1,
        keyword_trust: 1,
        ranks: { vector: 2, keyword: keywordRank, freshness: 1, frequency: 1 },
      },
    }) as unknown as RecalledMemory;

  it("gives the keyword rank of a memory that matches words, none to one that matches none", () => {
    const text = human({ results: [explained(0.25, 3)] }, { memory_layer: "episodic" });
    expect(text).toContain("cosine 0.400 (#2)  bm25 0.250 (#3)");
    const unmatched = human({ results: [explained(0, 1)] }, { memory_layer: "episodic" });
    expect(unmatched).toContain("cosine 0.400 (#2)  no keyword match");
    expect(unmatched).not.toContain("bm25");
  });
});
