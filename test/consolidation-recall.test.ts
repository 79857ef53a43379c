/**
 * Consolidation without a language model, end to end with the default embedding model: the
 * rule counting writes names the cause ("no time range", not "after", "and", "30"), and a
 * natural question about the task recalls it under the default score floor, in English and in
 * Chinese. This regressed once unnoticed (the rule scored 0.015, under the floor); this test
 * is what would have caught it.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConsolidateResult } from "../src/core/lifecycle/consolidate.js";
import { createHindsight, type Hindsight } from "../src/index.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MODEL = path.join(
  ROOT,
  ".cache",
  "models",
  "multilingual-e5-small-q4",
  "hindsight-model.json",
);

const ENGLISH = [
  ...Array.from({ length: 9 }, (_, i) => ({
    task_type: "data_query",
    summary: `Monthly sales query had no time range and timed out after ${30 + i} s`,
    outcome: "failure" as const,
  })),
  ...Array.from({ length: 3 }, () => ({
    task_type: "data_query",
    summary: "Monthly sales query limited the date range to one quarter and returned in 2 s",
    outcome: "success" as const,
  })),
];
const REPORTS = ["月度销售", "季度营收", "用户增长"];
const CHINESE = [
  ...Array.from({ length: 8 }, (_, i) => ({
    task_type: "数据查询",
    summary: `查询${REPORTS[i % 3]}数据时没有指定时间范围，查询超时`,
    outcome: "failure" as const,
  })),
  ...Array.from({ length: 3 }, (_, i) => ({
    task_type: "数据查询",
    summary: `查询${REPORTS[i]}数据时限定了日期范围，两秒返回`,
    outcome: "success" as const,
  })),
];

describe.skipIf(!existsSync(MODEL))("rules consolidated without a language model", () => {
  let memory: Hindsight;
  let result: ConsolidateResult;
  beforeAll(async () => {
    // The default configuration: default model, no language model, default floor.
    memory = await createHindsight({ dataDir: "memory://" });
    await memory.storeEpisodicBatch([...ENGLISH, ...CHINESE]);
    result = await memory.consolidate({});
  });
  afterAll(async () => {
    await memory?.close();
  });

  const ruleFor = (taskType: string, kind: string) =>
    memory
      .recall({
        query_text: taskType,
        memory_layer: "semantic",
        top_k: 10,
        task_type_filter: taskType,
      })
      .then(({ results }) =>
        results.find(
          (r) =>
            r.layer === "semantic" &&
            (r.metadata as { consolidation?: { kind?: string } }).consolidation?.kind === kind,
        ),
      );

  it("names the cause and what the successes did, with counts", () => {
    expect(result.groups.map((g) => [g.task_type, g.method]).sort()).toEqual([
      ["data_query", "statistical"],
      ["数据查询", "statistical"],
    ]);
    const keys = result.created.map((c) => c.key);
    expect(keys).toContain(
      "data_query fails when: no time range (9 of 9 failures, 0 of 3 successes)",
    );
    expect(keys).toContain(
      "数据查询 任务失败的原因：没有指定时间范围（8 次失败中 8 次，3 次成功中 0 次）",
    );
    const english = result.created.find((c) => c.key.startsWith("data_query fails"))!;
    expect(english.value).toContain('"timed out"');
    expect(english.value).toContain('"limited the date range to one quarter"');
    expect(english.sources).toHaveLength(9);
    for (const word of ["after", "and", "had", "30", "monthly"]) {
      expect(english.value).not.toContain(`"${word}"`);
    }
  });

  it.each([
    ["why does data_query fail?", "data_query"],
    ["what goes wrong with the monthly sales query?", "data_query"],
    ["数据查询为什么会失败？", "数据查询"],
    ["销售数据查询要注意什么", "数据查询"],
  ])("recalls the failure rule for %j under the default floor", async (question, taskType) => {
    const rule = await ruleFor(taskType, "failure_cause");
    expect(rule).toBeDefined();
    // Every layer, no floor given: what an agent asking in its own words gets. Ten results,
    // not the default five: the store holds the same failure three times over, word for word,
    // and for "销售数据查询要注意什么" those three copies and two more episodes of monthly
    // sales queries outrank the rule (which scores 0.58, far above the floor this test guards).
    const { results } = await memory.recall({
      query_text: question,
      memory_layer: "all",
      top_k: 10,
    });
    const found = results.find((r) => r.id === rule!.id);
    expect(found, JSON.stringify(results.map((r) => [r.score, r.layer]))).toBeDefined();
    expect(found!.score).toBeGreaterThan(0.1);
  });
});
