import { describe, expect, it } from "vitest";
import type { Outcome } from "../types.js";
import { type EpisodeText, sampleConfidence, statisticalPatterns } from "./statistical.js";

const episodes = (specs: [Outcome, string][]): EpisodeText[] =>
  specs.map(([outcome, summary], i) => ({ id: `e${i}`, outcome, summary }));

const repeat = (count: number, spec: [Outcome, string]): [Outcome, string][] =>
  Array.from({ length: count }, () => spec);

describe("statistical consolidation", () => {
  it("names the cause failures share and successes lack, not the words every episode has", () => {
    const patterns = statisticalPatterns(
      "data_query",
      episodes([
        ...Array.from({ length: 9 }, (_, i): [Outcome, string] => [
          "failure",
          `Monthly sales query had no time range and timed out after ${30 + i} s`,
        ]),
        ...repeat(3, [
          "success",
          "Monthly sales query limited the date range to one quarter and returned in 2 s",
        ]),
      ]),
    );
    expect(patterns.map((p) => p.kind)).toEqual(["failure_cause", "outcomes", "success_cause"]);
    const [failing, outcomes, working] = patterns;
    expect(failing!.key_text).toBe(
      "data_query fails when: no time range (9 of 9 failures, 0 of 3 successes)",
    );
    expect(failing!.value_text).toContain('"timed out"');
    expect(failing!.value_text).toContain('had "limited the date range to one quarter" instead');
    expect(failing!.value_text).toMatch(/Example: "Monthly sales query had no time range/);
    expect(failing!.value_text).toMatch(/statistical summary, no language model/);
    // Stop words, numbers and the subject both outcomes share are never named.
    for (const word of ["after", "and", "had", "30", "monthly", "sales"]) {
      expect(failing!.value_text).not.toContain(`"${word}"`);
    }
    expect(failing!.sources).toHaveLength(9);
    expect(failing!.confidence).toBe(1);
    expect(outcomes!.value_text).toMatch(/3 succeeded \(25%\), 9 failed \(75%\)/);
    expect(outcomes!.sources).toHaveLength(12);
    expect(outcomes!.confidence).toBe(sampleConfidence(12));
    expect(working!.key_text).toMatch(/^data_query succeeds when: limited the date range/);
    expect(working!.sources).toHaveLength(3);
  });

  it("keeps the negation of a cause that is written in several ways", () => {
    const [failing] = statisticalPatterns(
      "data_query",
      episodes([
        ["failure", "Monthly sales query had no time range and timed out after 30 s"],
        ["failure", "Quarterly revenue report query had no time range; it timed out"],
        ["failure", "User growth query ran without a time range and hit the 60 s timeout"],
        ["failure", "Orders export query had no time range and timed out after 45 s"],
        ["success", "Weekly sales query limited the date range to last week and returned in 2 s"],
        ["success", "Revenue query for March returned in 1 s"],
        ["success", "Churn query with a 30-day date range finished quickly"],
      ]),
    );
    // "time range" alone is in all four failures, but saying it bare would invert the rule.
    expect(failing!.key_text).toBe(
      "data_query fails when: no time range (4 of 4 failures, 0 of 3 successes)",
    );
    expect(failing!.value_text).toContain('The successful ones had "date range" instead');
  });

  it("takes the most typical failure as the example", () => {
    const [failing] = statisticalPatterns(
      "deploy",
      episodes([
        ["failure", "Deploy failed: port 8080 already in use"],
        ["failure", "Deploy of billing failed again, port 8080 busy, after a long and noisy retry"],
        ["failure", "Deploy failed: port 8080 already in use by the old container"],
        ["success", "Deployed after running the migrations"],
        ["success", "Deployed the billing service"],
      ]),
    );
    expect(failing!.key_text).toBe(
      "deploy fails when: port 8080 (3 of 3 failures, 0 of 2 successes)",
    );
    expect(failing!.value_text).toContain('Example: "Deploy failed: port 8080 already in use"');
    // "deployed" is the task type's own word in another form: not what the successes did.
    expect(failing!.value_text).not.toContain('"Deployed"');
  });

  it("writes Chinese rules for Chinese episodes, with whole words", () => {
    const patterns = statisticalPatterns(
      "数据查询",
      episodes([
        ...Array.from({ length: 6 }, (_, i): [Outcome, string] => [
          "failure",
          `查询${["月度销售", "季度营收", "用户增长"][i % 3]}数据时没有指定时间范围，查询超时`,
        ]),
        ["success", "查询月度销售数据时限定了日期范围，两秒返回"],
        ["success", "查询用户增长数据时限定了日期范围，很快返回"],
      ]),
    );
    const [failing, outcomes, working] = patterns;
    expect(failing!.key_text).toBe(
      "数据查询 任务失败的原因：没有指定时间范围（6 次失败中 6 次，2 次成功中 0 次）",
    );
    expect(failing!.value_text).toContain("成功的任务则是“限定了日期范围”");
    expect(failing!.value_text).toContain("统计摘要，未使用语言模型");
    expect(outcomes!.key_text).toBe("数据查询 任务的结果统计");
    expect(outcomes!.value_text).toMatch(/成功 2 次（25%），失败 6 次（75%）/);
    expect(working!.key_text).toMatch(/^数据查询 任务成功的做法：限定了日期范围/);
  });

  it("does not start or end a Chinese phrase inside a word the segmenter split", () => {
    const [failing] = statisticalPatterns(
      "部署",
      episodes([
        ["failure", "部署支付服务失败，数据库迁移超时"],
        ["failure", "部署搜索服务失败，数据库迁移超时了"],
        ["success", "部署账单服务成功"],
        ["success", "部署用户服务成功"],
      ]),
    );
    // The segmenter gives 数据/库/迁移/超/时: 库迁移 and 迁移超 are not phrases.
    expect(failing!.key_text).toMatch(/^部署 任务失败的原因：数据库迁移超时（/);
    expect(failing!.value_text).toContain("并且“失败”");
  });

  it("names the symptom when the failures share nothing else", () => {
    const [failing] = statisticalPatterns(
      "build",
      episodes([
        ["failure", "Build of the api failed"],
        ["failure", "Build of the web app failed"],
        ["success", "Build of the worker passed"],
      ]),
    );
    expect(failing!.kind).toBe("failure_symptom");
    expect(failing!.key_text).toBe("build failures: failed (2 of 2 failures, 0 of 1 successes)");
  });

  it("says only the outcome rates when nothing distinguishes the outcomes", () => {
    const patterns = statisticalPatterns(
      "review",
      episodes(Array.from({ length: 12 }, (): [Outcome, string] => ["success", "Reviewed a PR"])),
    );
    expect(patterns).toHaveLength(1);
    expect(patterns[0]).toMatchObject({ kind: "outcomes", key_text: "Outcomes of review tasks" });
    expect(patterns[0]!.value_text).toMatch(
      /Of the 12 most recent review episodes, 12 succeeded \(100%\), 0 failed \(0%\)\. Advice: the usual approach works/,
    );
    expect(statisticalPatterns("review", [])).toEqual([]);
  });

  it("grows confidence with the number of episodes", () => {
    expect(sampleConfidence(10)).toBeCloseTo(0.667, 3);
    expect(sampleConfidence(50)).toBeGreaterThan(sampleConfidence(10));
  });
});
