import { describe, expect, it } from "vitest";
import { stem } from "./stem.js";
import { wordTokens } from "./tokenize.js";
import { unitWords, upgradeStoredUnits } from "./unit-words.js";

const words = (text: string) => unitWords(wordTokens(text));

describe("units of measure", () => {
  it("writes a length, a weight and a distance one way in either language", () => {
    for (const text of [
      "身高164厘米",
      "身高164cm",
      "she is 164 cm tall",
      "164 centimetres",
      "164公分",
    ]) {
      expect(words(text), text).toEqual(expect.arrayContaining(["164", "厘米"]));
    }
    for (const text of ["跑了5公里", "ran 5km", "5 kilometers", "5千米"]) {
      expect(words(text), text).toEqual(expect.arrayContaining(["5", "公里"]));
    }
    for (const text of ["体重55公斤", "55kg", "55 kilograms", "55千克"]) {
      expect(words(text), text).toEqual(expect.arrayContaining(["55", "公斤"]));
    }
  });

  it("keeps the number apart from a glued unit, its decimal point dropped as elsewhere", () => {
    expect(words("3.5km")).toEqual(["35", "公里"]);
    expect(words("3.5公里")).toEqual(["35", "公里"]);
    expect(words("1.64m")).toEqual(["164", "米"]);
  });

  it("reads a short abbreviation as a unit only after a number", () => {
    expect(words("took 45 min")).toEqual(["took", "45", "分钟"]);
    expect(words("45mins")).toEqual(["45", "分钟"]);
    expect(words("3 hrs or 3h")).toEqual(["3", "小时", "or", "3", "小时"]);
    expect(words("the min value")).toEqual(["the", "min", "value"]);
    expect(words("ML pipeline")).toEqual(["ml", "pipeline"]);
    expect(words("200ml")).toEqual(["200", "毫升"]);
    expect(words("I'm here")).toEqual(["im", "here"]);
  });

  it("leaves alone what only looks like a unit", () => {
    expect(words("5G网络")).toEqual(["5g", "网络"]);
    expect(words("the 1990s")).toEqual(["the", "1990s"]);
    expect(words("the 5th floor")).toEqual(["the", "5th", "floor"]);
  });

  it("upgrades stored terms (stems) written before, and leaves current terms as they are", () => {
    const old = (text: string) => wordTokens(text).map(stem);
    const current = (text: string) => words(text).map(stem);
    for (const text of ["身高164cm", "ran 5km in 45 mins", "10mins, 3hrs and 2 kilos", "164公分"]) {
      expect(upgradeStoredUnits(old(text)), text).toEqual(current(text));
      expect(upgradeStoredUnits(current(text)), text).toEqual(current(text));
    }
  });
});
