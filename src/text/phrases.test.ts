import { describe, expect, it } from "vitest";
import { candidatePhrases, clauseTokens, mostlyCjk, taskWords } from "./phrases.js";

const keys = (text: string, excluded?: Set<string>) =>
  candidatePhrases(text, excluded).map((phrase) => phrase.key);

describe("candidate phrases", () => {
  it("splits clauses at punctuation and at the conjunctions that join a cause to its effect", () => {
    expect(
      clauseTokens("Query had no time range and timed out after 30 s; retried").map((c) =>
        c.map((t) => t.key).join(" "),
      ),
    ).toEqual(["query had no time range", "timed out", "30 s", "retried"]);
  });

  it("never opens or closes on a function word, and lets a negation only open", () => {
    const phrases = keys("Monthly sales query had no time range");
    expect(phrases).toContain("no time range");
    expect(phrases).toContain("monthly sales query");
    expect(phrases).not.toContain("had no time range");
    expect(phrases).not.toContain("query had no time range");
    expect(phrases).not.toContain("had");
    expect(phrases).not.toContain("no");
  });

  it("closes on a verb's particle but not on a bare number or a single letter", () => {
    expect(keys("Timed out after 30 s")).toEqual(["timed", "timed out"]);
    expect(keys("The build gave up at step 30")).toContain("step 30");
    expect(keys("The build gave up at step 30")).not.toContain("30");
  });

  it("records the negation before a phrase and whether it ends naturally", () => {
    const [range] = candidatePhrases("ran without a time range").filter(
      (p) => p.key === "time range",
    );
    expect(range).toMatchObject({ negation: "without", natural: 1 });
    const [port] = candidatePhrases("port 8080 busy").filter((p) => p.key === "port");
    expect(port!.natural).toBe(0);
  });

  it("joins Chinese words without spaces and keeps split words whole", () => {
    const phrases = candidatePhrases("部署支付服务失败，数据库迁移超时");
    expect(phrases.map((p) => p.text)).toContain("数据库迁移超时");
    // 数据/库/迁移/超/时 from the segmenter: nothing starts at 库 or ends at 超.
    expect(phrases.some((p) => p.text.startsWith("库") || p.text.endsWith("超"))).toBe(false);
  });

  it("leaves the task type's words out, in every form", () => {
    const excluded = taskWords("deploy");
    expect(keys("Deployed the billing service", excluded)).not.toContain("deployed");
    expect(keys("Deployed the billing service", excluded)).toContain("billing service");
    expect(taskWords("data_query")).toContain("query");
  });

  it("tells Chinese text from English", () => {
    expect(mostlyCjk(["查询又超时了", "query"])).toBe(true);
    expect(mostlyCjk(["query timed out", "超时"])).toBe(false);
  });
});
