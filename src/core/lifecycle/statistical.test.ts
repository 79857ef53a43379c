import { describe, expect, it } from "vitest";
import type { Outcome } from "../types.js";
import { type EpisodeText, sampleConfidence, statisticalPatterns } from "./statistical.js";

const episodes = (specs: [Outcome, string][]): EpisodeText[] =>
  specs.map(([outcome, summary], i) => ({ id: `e${i}`, outcome, summary }));

describe("statistical consolidation", () => {
  it("names the terms that recur in failures but not in successes, with their counts", () => {
    const patterns = statisticalPatterns(
      "deploy",
      episodes([
        ["failure", "Deploy failed: port 8080 already in use"],
        ["failure", "Deploy failed again, port 8080 busy"],
        ["failure", "Rollout failed: database migration timed out"],
        ["success", "Deployed after running the migrations"],
        ["success", "Deployed the billing service"],
        ["success", "Deployed search with a canary"],
      ]),
    );
    expect(patterns.map((p) => p.kind)).toEqual(["failure_terms", "outcomes", "success_terms"]);
    const [failing, outcomes, working] = patterns;
    expect(failing!.value_text).toContain('"failed" (3 of 3)');
    expect(failing!.value_text).toContain('"8080" (2 of 3)');
    expect(failing!.value_text).toMatch(/statistical summary, no language model/);
    // "deploy" is the task type: it says nothing, so it is never a term.
    expect(failing!.value_text).not.toContain('"deploy"');
    expect(failing!.sources).toEqual(["e0", "e1", "e2"]);
    expect(outcomes!.value_text).toMatch(/3 succeeded \(50%\), 3 failed \(50%\)/);
    expect(outcomes!.value_text).toMatch(/often fails/);
    expect(outcomes!.sources).toHaveLength(6);
    expect(outcomes!.confidence).toBe(sampleConfidence(6));
    expect(working!.value_text).toContain('"deployed" (3 of 3)');
  });

  it("works on Chinese text, skipping single-character function words", () => {
    const patterns = statisticalPatterns(
      "部署",
      episodes([
        ["failure", "部署支付服务失败，数据库迁移超时"],
        ["failure", "部署搜索服务失败，数据库迁移超时了"],
        ["success", "部署账单服务成功"],
        ["success", "部署用户服务成功"],
      ]),
    );
    const failing = patterns.find((p) => p.kind === "failure_terms")!;
    expect(failing.value_text).toContain('"迁移" (2 of 2)');
    expect(failing.value_text).not.toMatch(/"\p{Script=Han}"/u);
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
