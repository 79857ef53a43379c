import { describe, expect, it } from "vitest";
import { cl100k } from "../tokens.js";
import type { StoredMemory } from "./ports.js";
import { extractiveSummary } from "./summarize.js";

function episode(
  id: string,
  task_type: string,
  summary: string,
  outcome: "success" | "failure" = "success",
): StoredMemory {
  const at = new Date("2025-03-01T00:00:00Z");
  return {
    layer: "episodic",
    id,
    occurred_at: at,
    recorded_at: at,
    task_type,
    summary,
    outcome,
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
  };
}

const memories: StoredMemory[] = [
  episode("a", "deploy", "Deploy of billing failed: port 8080 in use", "failure"),
  episode("b", "deploy", "Deploy of search succeeded after freeing the port"),
  episode("c", "code_review", "Found a race condition in refunds"),
  episode("d", "deploy", "部署支付服务失败，数据库迁移超时", "failure"),
];

describe("extractive summary", () => {
  it("groups by topic with outcome counts and keeps every memory when the budget allows", () => {
    const result = extractiveSummary(memories, 200, cl100k);
    expect(result.summary.split("\n")[0]).toBe("deploy (3: 2 failure, 1 success)");
    expect(result.summary).toContain("code_review (1: 1 success)");
    expect(new Set(result.memory_ids)).toEqual(new Set(["a", "b", "c", "d"]));
    expect(result.groups.map((g) => g.topic)).toEqual(["deploy", "code_review"]);
    expect(result.tokens).toBe(cl100k.count(result.summary));
  });

  it.each([20, 30, 45, 60])("stays within a budget of %i tokens", (budget) => {
    const result = extractiveSummary(memories, budget, cl100k);
    expect(result.tokens).toBeLessThanOrEqual(budget);
    expect(result.summary.length).toBeGreaterThan(0);
  });

  it("takes from each topic in turn rather than exhausting the first", () => {
    const result = extractiveSummary(memories, 60, cl100k);
    expect(result.memory_ids).toEqual(["a", "c"]);
  });

  it("summarises nothing to an empty text", () => {
    expect(extractiveSummary([], 200, cl100k)).toMatchObject({
      summary: "",
      tokens: 0,
      memory_ids: [],
    });
  });
});
