import { describe, expect, it } from "vitest";
import { scriptCoverage, scriptOf, scriptShares } from "./scripts.js";

describe("scriptOf", () => {
  it("names the script of a word's first letter", () => {
    expect(scriptOf("deploy")).toBe("Latin");
    expect(scriptOf("café")).toBe("Latin");
    expect(scriptOf("部署")).toBe("Han");
    expect(scriptOf("ひらがな")).toBe("Hiragana");
    expect(scriptOf("カタカナ")).toBe("Katakana");
    expect(scriptOf("서울")).toBe("Hangul");
    expect(scriptOf("привет")).toBe("Cyrillic");
    expect(scriptOf("v2")).toBe("Latin");
    expect(scriptOf("3d")).toBe("Latin");
  });

  it("has no script for a word without letters, and Other for untold scripts", () => {
    expect(scriptOf("8080")).toBeUndefined();
    expect(scriptOf("ሰላም")).toBe("Other");
  });
});

describe("scriptCoverage", () => {
  it("is 1 for a model that knows every script", () => {
    expect(scriptCoverage("用户偏好用中文回复", undefined)).toBe(1);
  });

  it("is 0 for Chinese and 1 for English with a Latin-only model", () => {
    expect(scriptCoverage("用户偏好用中文回复且不喜欢冗长解释", ["Latin"])).toBe(0);
    expect(scriptCoverage("Where did Caroline go hiking last week?", ["Latin"])).toBe(1);
  });

  it("counts words, not characters, in mixed text, and leaves numbers out", () => {
    // 部署 / billing / service / 失败 / port (8080 has no letter)
    expect(scriptCoverage("部署 billing service 失败 port 8080", ["Latin"])).toBeCloseTo(3 / 5);
    expect(scriptCoverage("部署 billing service 失败 port 8080", ["Latin", "Han"])).toBe(1);
  });

  it("is 1 for a text without lettered words", () => {
    expect(scriptCoverage("8080 443", ["Latin"])).toBe(1);
    expect(scriptCoverage("", ["Latin"])).toBe(1);
  });
});

describe("scriptShares", () => {
  it("gives each script its share of the lettered words", () => {
    const shares = scriptShares("用户偏好 Redis 8080"); // 用户 / 偏好 / redis; 8080 has no letter
    expect(shares.get("Latin")).toBeCloseTo(1 / 3);
    expect(shares.get("Han")).toBeCloseTo(2 / 3);
    expect([...shares.values()].reduce((sum, share) => sum + share, 0)).toBeCloseTo(1);
  });

  it("is empty for a text without letters", () => {
    expect(scriptShares("8080 — 42").size).toBe(0);
  });
});
