import { describe, expect, it } from "vitest";
import { stem } from "./stem.js";

describe("stem (Porter)", () => {
  it("gives the published outputs of the algorithm", () => {
    const expected: Record<string, string> = {
      caresses: "caress",
      ponies: "poni",
      cats: "cat",
      feed: "feed",
      agreed: "agre",
      plastered: "plaster",
      motoring: "motor",
      sing: "sing",
      conflated: "conflat",
      hopping: "hop",
      falling: "fall",
      filing: "file",
      happy: "happi",
      sky: "sky",
      relational: "relat",
      conditional: "condit",
      digitizer: "digit",
      vietnamization: "vietnam",
      hopefulness: "hope",
      formalize: "formal",
      electrical: "electr",
      goodness: "good",
      allowance: "allow",
      adjustment: "adjust",
      adoption: "adopt",
      effective: "effect",
      generalization: "gener",
      oscillators: "oscil",
      controll: "control",
      roll: "roll",
      youth: "youth",
    };
    for (const [word, stemmed] of Object.entries(expected)) expect(stem(word)).toBe(stemmed);
  });

  it("brings the forms of a word together", () => {
    expect(new Set(["hike", "hikes", "hiked", "hiking"].map(stem))).toEqual(new Set(["hike"]));
    expect(stem("painting")).toBe(stem("paintings"));
  });

  it("leaves Chinese, numbers, mixed and short tokens alone", () => {
    for (const token of ["用户", "2023", "e4012", "v2", "is", "as"])
      expect(stem(token)).toBe(token);
  });
});
