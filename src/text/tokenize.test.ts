import { describe, expect, it } from "vitest";
import { isCjk, uniqueTokens, wordTokens } from "./tokenize.js";

describe("wordTokens", () => {
  it("segments Chinese into words instead of one run", () => {
    expect(wordTokens("用户偏好用中文回复且不喜欢冗长解释")).toEqual([
      "用户",
      "偏好",
      "用",
      "中文",
      "回复",
      "且",
      "不",
      "喜欢",
      "冗长",
      "解释",
    ]);
  });

  it("case-folds English, drops punctuation and keeps numbers", () => {
    expect(wordTokens("Deploy the API v2, then RETRY 3 times!")).toEqual([
      "deploy",
      "the",
      "api",
      "v2",
      "then",
      "retry",
      "3",
      "times",
    ]);
  });

  it("handles mixed Chinese and English text", () => {
    expect(wordTokens("部署到 GitHub API 失败了")).toEqual([
      "部署",
      "到",
      "github",
      "api",
      "失败",
      "了",
    ]);
  });

  it("normalises full-width characters", () => {
    expect(wordTokens("ＡＢＣ１２３")).toEqual(["abc123"]);
  });

  it("dedupes in first-seen order", () => {
    expect(uniqueTokens("a b a c b")).toEqual(["a", "b", "c"]);
  });

  it("recognises CJK tokens", () => {
    expect(isCjk("中文")).toBe(true);
    expect(isCjk("english")).toBe(false);
  });
});
