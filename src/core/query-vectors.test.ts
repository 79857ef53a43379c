import { describe, expect, it } from "vitest";
import { QueryVectors } from "./query-vectors.js";

/** A model that gives each text a vector of its length, and records what it was asked. */
function countingModel() {
  const asked: string[][] = [];
  return {
    asked,
    embed: async (texts: string[]) => {
      asked.push(texts);
      return texts.map((text) => Float32Array.of(text.length, 1));
    },
  };
}

describe("QueryVectors", () => {
  it("embeds a query asked again only once, and only the new ones of a batch", async () => {
    const kept = new QueryVectors(10);
    const model = countingModel();
    expect(await kept.embed(["why did billing fail?"], model.embed)).toEqual([
      Float32Array.of(21, 1),
    ]);
    const again = await kept.embed(["where is the runbook", "why did billing fail?"], model.embed);
    expect(again).toEqual([Float32Array.of(20, 1), Float32Array.of(21, 1)]);
    expect(model.asked).toEqual([["why did billing fail?"], ["where is the runbook"]]);
  });

  it("asks the model once for a text repeated within a batch", async () => {
    const model = countingModel();
    const vectors = await new QueryVectors(10).embed(["a", "bb", "a"], model.embed);
    expect(vectors.map((vector) => vector[0])).toEqual([1, 2, 1]);
    expect(model.asked).toEqual([["a", "bb"]]);
  });

  it("forgets the least recently asked query when full", async () => {
    const kept = new QueryVectors(2);
    const model = countingModel();
    await kept.embed(["one"], model.embed);
    await kept.embed(["two"], model.embed);
    await kept.embed(["one"], model.embed); // asked again: now "two" is the oldest
    await kept.embed(["three"], model.embed);
    await kept.embed(["one", "two"], model.embed);
    expect(model.asked).toEqual([["one"], ["two"], ["three"], ["two"]]);
  });

  it("gives copies: a caller changing its vector changes no one else's", async () => {
    const kept = new QueryVectors(10);
    const model = countingModel();
    const [first] = await kept.embed(["deploy"], model.embed);
    first![0] = 99;
    const [second] = await kept.embed(["deploy"], model.embed);
    expect(second).toEqual(Float32Array.of(6, 1));
  });

  it("keeps nothing when the model fails, and asks again next time", async () => {
    const kept = new QueryVectors(10);
    const failing = async (): Promise<Float32Array[]> => {
      throw new Error("model went away");
    };
    await expect(kept.embed(["deploy"], failing)).rejects.toThrow("model went away");
    const model = countingModel();
    expect(await kept.embed(["deploy"], model.embed)).toEqual([Float32Array.of(6, 1)]);
    expect(model.asked).toEqual([["deploy"]]);
  });

  it("with no room, embeds every time and still answers", async () => {
    const kept = new QueryVectors(0);
    const model = countingModel();
    await kept.embed(["deploy"], model.embed);
    expect(await kept.embed(["deploy"], model.embed)).toEqual([Float32Array.of(6, 1)]);
    expect(model.asked).toEqual([["deploy"], ["deploy"]]);
  });

  it("embeds a query asked again while it is being embedded once", async () => {
    const kept = new QueryVectors(0);
    const asked: string[][] = [];
    let answer: (vectors: Float32Array[]) => void = () => undefined;
    const slow = (texts: string[]) => {
      asked.push(texts);
      return new Promise<Float32Array[]>((resolve) => {
        answer = resolve;
      });
    };
    const first = kept.embed(["why did billing fail?"], slow);
    const second = kept.embed(["why did billing fail?"], slow);
    answer([Float32Array.of(21, 1)]);
    expect(await Promise.all([first, second])).toEqual([
      [Float32Array.of(21, 1)],
      [Float32Array.of(21, 1)],
    ]);
    expect(asked).toEqual([["why did billing fail?"]]);
  });

  it("gives the model's failure to whoever waited for the same query, and then asks again", async () => {
    const kept = new QueryVectors(10);
    let fail: (error: Error) => void = () => undefined;
    const failing = () =>
      new Promise<Float32Array[]>((_, reject) => {
        fail = reject;
      });
    const first = kept.embed(["deploy"], failing);
    const second = kept.embed(["deploy"], failing);
    fail(new Error("model went away"));
    await expect(first).rejects.toThrow("model went away");
    await expect(second).rejects.toThrow("model went away");
    const model = countingModel();
    expect(await kept.embed(["deploy"], model.embed)).toEqual([Float32Array.of(6, 1)]);
    expect(model.asked).toEqual([["deploy"]]);
  });
});
