import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  charLength,
  clipEnd,
  clipStart,
  clipWords,
  fitParts,
  sentences,
  shorten,
  wordBreaks,
} from "./text.js";

describe("character helpers", () => {
  it("count and clip by characters, not UTF-16 units", () => {
    expect(charLength("迁移😀")).toBe(3);
    expect(clipEnd("迁移订单表到新结构", 5)).toBe("迁移订单…");
    expect(clipStart("迁移订单表到新结构", 5)).toBe("…到新结构");
    expect(clipEnd("😀😀😀", 2)).toBe("😀…");
    expect(clipEnd("short", 10)).toBe("short");
  });

  it("fits parts into a total, shrinking the longest first", () => {
    const fitted = fitParts({ a: "x".repeat(300), b: "short", c: "y".repeat(50) }, 100);
    expect(fitted.b).toBe("short");
    expect(charLength(fitted.a) + charLength(fitted.b) + charLength(fitted.c)).toBeLessThanOrEqual(
      100,
    );
    expect(fitParts({ a: "ab", b: "cd" }, 10)).toEqual({ a: "ab", b: "cd" });
  });

  it("never exceeds the total, whatever the parts", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "grapheme" }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 4, max: 300 }),
        (texts, total) => {
          const parts = Object.fromEntries(texts.map((text, index) => [`p${index}`, text]));
          const fitted = fitParts(parts, total, { p0: "start" });
          const length = Object.values(fitted).reduce((sum, text) => sum + charLength(text), 0);
          expect(length).toBeLessThanOrEqual(total);
        },
      ),
    );
  });
});

describe("cutting at words and clauses", () => {
  it("breaks English at spaces only, Chinese between words and at punctuation", () => {
    expect(wordBreaks("built api:1.4 now")).toEqual([5, 6, 13, 14]);
    // Where Intl.Segmenter finds words: never inside 重新 or 部署, nor 推送 or 仓库.
    const breaks = wordBreaks("换端口重新部署");
    expect(breaks).toContain(1);
    expect(breaks).not.toContain(4);
    expect(breaks).not.toContain(6);
    expect(wordBreaks("推送到仓库")).toEqual([2, 3]);
    expect(wordBreaks("部署 api 到 staging")).toEqual([2, 3, 6, 7, 8, 9]);
  });

  it("clips at a word boundary with an ellipsis, never inside a word", () => {
    expect(clipWords("read the logs and stop the old container", 22)).toBe("read the logs and…");
    expect(clipWords("pushed registry.example.com/team/api:1.4 today", 30)).toBe("pushed…");
    const chinese = "部署失败端口被占用需要换端口";
    const clipped = clipWords(chinese, 8).replace(/…$/u, "");
    expect(wordBreaks(chinese)).toContain(charLength(clipped));
    expect(clipWords("推送到仓库并部署", 5)).toBe("推送到…");
    expect(clipWords("short", 10)).toBe("short");
    // One word bigger than the room: only then is it cut.
    expect(charLength(clipWords("x".repeat(50), 10))).toBe(10);
  });

  it("shortens to a whole clause first, without parenthetical detail", () => {
    expect(shorten("built image api:1.4 (sha256:9f2c1e), 14 layers", 32)).toBe(
      "built image api:1.4, 14 layers",
    );
    expect(shorten("built image api:1.4 (sha256:9f2c1e), 14 layers in 40 seconds", 30)).toBe(
      "built image api:1.4",
    );
    expect(shorten("deployed to staging and waited for the new pods to become ready", 30)).toBe(
      "deployed to staging",
    );
    expect(shorten("部署失败：端口被占用，已经重试三次仍然失败", 12)).toBe("部署失败：端口被占用");
  });

  it("splits sentences at CJK punctuation and at Latin ends before a space", () => {
    expect(sentences("构建镜像。推送到仓库！")).toEqual(["构建镜像。", "推送到仓库！"]);
    expect(sentences("Built api:1.4. Pushed it.")).toEqual(["Built api:1.4.", "Pushed it."]);
  });

  it("never exceeds the room and never cuts inside a word that fits", () => {
    const word = fc.constantFrom(
      "deploy",
      "api:1.4",
      "部署",
      "端口被占用",
      "😀",
      "staging,",
      "。",
      "x",
    );
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 30 }),
        fc.constantFrom(" ", ""),
        fc.integer({ min: 2, max: 80 }),
        (words, joiner, max) => {
          const text = words.join(joiner);
          for (const cut of [clipWords(text, max), shorten(text, max)]) {
            expect(charLength(cut)).toBeLessThanOrEqual(max);
          }
        },
      ),
    );
  });
});
