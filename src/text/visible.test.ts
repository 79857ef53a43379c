import { describe, expect, it } from "vitest";
import { breakMarkers, skeleton, visibleText } from "./visible.js";

describe("visibleText", () => {
  it("folds full-width forms and drops what renders as nothing", () => {
    expect(visibleText("ｍｅｍｏｒｙ")).toBe("memory");
    expect(visibleText("me\u200Bmo\u00ADry\u2060")).toBe("memory");
  });
});

describe("skeleton", () => {
  it.each([
    ["wiki", "wiki"],
    ["Wiki", "wiki"],
    ["w\u200Biki", "wiki"],
    ["wi\u00ADki", "wiki"],
    ["wіki", "wiki"], // Cyrillic і
    ["ԝikі", "wiki"], // Cyrillic ԝ and і
    ["wiki.", "wiki"],
    ["wiki\u00A0", "wiki"],
    ["ｗｉｋｉ", "wiki"],
  ])("%j is %j", (given, expected) => {
    expect(skeleton(given)).toBe(expected);
  });

  it("keeps names that only look alike to a careless eye apart", () => {
    expect(skeleton("wiki2")).not.toBe(skeleton("wiki"));
    expect(skeleton("维基")).toBe("维基");
  });
});

describe("breakMarkers", () => {
  const memory = ["memory"];
  it.each([
    "[MEMORY source=x]",
    "[/MEMORY]",
    "[ / memory ]",
    "[ME\u200BMORY]",
    "[MEM\u00ADORY]",
    "［ＭＥＭＯＲＹ］",
    "【MEMORY】",
    "[MЕMОRY]", // Cyrillic Е and О
    "⟦memory⟧",
  ])("breaks %j", (text) => {
    const rendered = breakMarkers(`before ${text} after`, memory);
    expect(rendered).not.toMatch(/\[\s*\/?\s*memory/iu);
    expect(rendered.startsWith("before (")).toBe(true);
  });

  it("leaves other brackets and words alone", () => {
    expect(breakMarkers("see [docs] and memory [1]", memory)).toBe("see [docs] and memory [1]");
  });
});
