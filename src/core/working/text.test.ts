import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { charLength, clipEnd, clipStart, fitParts } from "./text.js";

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
