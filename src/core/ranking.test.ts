import { describe, expect, it } from "vitest";
import type { Candidate } from "./ports.js";
import { DEFAULT_RANKING, freshness, keywordCoverage, rankCandidates } from "./ranking.js";
import type { EpisodicMemory } from "./types.js";

const now = new Date("2025-06-01T00:00:00Z");

function episode(id: string, overrides: Partial<EpisodicMemory> = {}): EpisodicMemory {
  return {
    id,
    occurred_at: now,
    recorded_at: now,
    task_type: "deploy",
    summary: id,
    outcome: "success",
    metadata: {},
    tags: [],
    source: null,
    subject: null,
    user_id: null,
    agent_id: null,
    confidence: 1,
    access_count: 0,
    last_accessed_at: null,
    decay_score: 1,
    status: "active",
    ...overrides,
  };
}

function candidate(id: string, similarity: number, searchText: string, overrides = {}): Candidate {
  return {
    layer: "episodic",
    memory: episode(id, overrides),
    vector_similarity: similarity,
    search_text: searchText,
  };
}

describe("ranking", () => {
  it("orders by relevance and drops what is under the floor", () => {
    const results = rankCandidates(
      [
        candidate("weak", 0.05, "lunch menu"),
        candidate("best", 0.9, "deploy failed"),
        candidate("good", 0.6, "deploy ok"),
      ],
      ["deploy", "failed"],
      now,
      5,
      DEFAULT_RANKING,
    );
    expect(results.map((r) => r.id)).toEqual(["best", "good"]);
    expect(results[0]!.score).toBeGreaterThan(results[1]!.score);
  });

  it("returns a keyword-only match: the floor applies to the fused score", () => {
    const results = rankCandidates(
      [candidate("kw", 0, "error e4012 in billing")],
      ["e4012"],
      now,
      5,
      DEFAULT_RANKING,
    );
    expect(results.map((r) => r.id)).toEqual(["kw"]);
  });

  it("does not let freshness or frequency lift an irrelevant memory", () => {
    const results = rankCandidates(
      [candidate("popular", 0.02, "unrelated", { access_count: 100 })],
      ["deploy"],
      now,
      5,
      DEFAULT_RANKING,
    );
    expect(results).toEqual([]);
  });

  it("prefers the fresher of two equally relevant memories", () => {
    const old = new Date("2024-01-01T00:00:00Z");
    const results = rankCandidates(
      [candidate("old", 0.7, "x", { occurred_at: old }), candidate("new", 0.7, "x")],
      ["deploy"],
      now,
      5,
      DEFAULT_RANKING,
    );
    expect(results.map((r) => r.id)).toEqual(["new", "old"]);
  });

  it("reports each signal's contribution, summing to the score", () => {
    const [result] = rankCandidates([candidate("a", 0.8, "deploy")], ["deploy"], now, 1, DEFAULT_RANKING);
    const { vector, keyword, freshness: fresh, frequency } = result!.signals;
    expect(vector + keyword + fresh + frequency).toBeCloseTo(result!.score, 10);
    expect(keyword).toBeCloseTo(0.2, 10);
  });

  it("computes freshness as a half-life and coverage as a share of query words", () => {
    expect(freshness(new Date("2025-05-02T00:00:00Z"), now, 30)).toBeCloseTo(0.5, 5);
    expect(keywordCoverage(["a", "b", "c", "d"], "a x c")).toBe(0.5);
  });
});
