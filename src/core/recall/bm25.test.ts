import { describe, expect, it } from "vitest";
import { bm25, type CorpusStats, idf, normalisedBm25 } from "./bm25.js";

const corpus: CorpusStats = {
  documents: 100,
  averageLength: 5,
  documentFrequency: new Map([
    ["the", 90],
    ["deploy", 10],
    ["e4012", 1],
  ]),
};

describe("bm25", () => {
  it("weights rare terms above common ones", () => {
    expect(idf(100, 1)).toBeGreaterThan(idf(100, 10));
    expect(idf(100, 90)).toBeGreaterThan(0);
    expect(bm25(["e4012"], ["error", "e4012"], corpus)).toBeGreaterThan(
      bm25(["the"], ["error", "the"], corpus),
    );
  });

  it("matches the textbook formula", () => {
    // tf 2, |d| 10, avgdl 5: idf · 2·2.2 / (2 + 1.2·(0.25 + 0.75·2))
    const expected = (idf(100, 10) * 2 * 2.2) / (2 + 1.2 * (0.25 + 0.75 * 2));
    const doc = ["deploy", "deploy", "a", "b", "c", "d", "e", "f", "g", "h"];
    expect(bm25(["deploy"], doc, corpus)).toBeCloseTo(expected, 12);
  });

  it("saturates term frequency and penalises length", () => {
    const once = bm25(["deploy"], ["deploy", "x"], corpus);
    const many = bm25(["deploy"], ["deploy", "deploy", "deploy", "deploy"], corpus);
    expect(many).toBeLessThan(once * 2.2);
    expect(bm25(["deploy"], ["deploy", ...Array(20).fill("x")], corpus)).toBeLessThan(once);
  });

  it("normalises to 1 for an average document holding every term once", () => {
    expect(
      normalisedBm25(["deploy", "e4012"], ["deploy", "e4012", "a", "b", "c"], corpus),
    ).toBeCloseTo(1, 10);
    expect(
      normalisedBm25(["deploy", "e4012"], ["deploy", "a", "b", "c", "d"], corpus),
    ).toBeLessThan(0.5);
    expect(normalisedBm25([], ["deploy"], corpus)).toBe(0);
  });
});

describe("bm25 with context", () => {
  it("counts a context word at half the weight of the memory's own", () => {
    const own = bm25(["deploy"], { own: ["deploy", "a"], context: ["b", "c"] }, corpus);
    const inContext = bm25(["deploy"], { own: ["a", "b"], context: ["deploy", "c"] }, corpus);
    expect(inContext).toBeGreaterThan(0);
    expect(inContext).toBeLessThan(own);
    // tf 0.5, |d| = 2 + 0.5·2 = 3, avgdl 5
    const expected = (idf(100, 10) * 0.5 * 2.2) / (0.5 + 1.2 * (0.25 + 0.75 * (3 / 5)));
    expect(inContext).toBeCloseTo(expected, 12);
  });

  it("is plain BM25 for a memory without context", () => {
    const tokens = ["deploy", "x", "y"];
    expect(bm25(["deploy"], { own: tokens, context: [] }, corpus)).toBe(
      bm25(["deploy"], tokens, corpus),
    );
  });
});
