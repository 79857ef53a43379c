/** Retrieval metrics on hand-made cases, and the progress bar. */
import { describe, expect, it } from "vitest";
import {
  GroupedMeans,
  MeanAccumulator,
  parseKs,
  recallAt,
  reciprocalRank,
  splitLabels,
} from "../src/eval/metrics.js";
import { createProgress } from "../src/eval/progress.js";

describe("splitLabels", () => {
  it("splits LoCoMo's multi-id evidence strings and drops blanks and repeats", () => {
    expect(splitLabels(["D8:6; D9:17", " D1:3 ", "D2:1,D2:2", "D3:1 D3:2", "", "D1:3"])).toEqual([
      "D8:6",
      "D9:17",
      "D1:3",
      "D2:1",
      "D2:2",
      "D3:1",
      "D3:2",
    ]);
  });

  it("keeps ids that may not exist, and numbers as text", () => {
    expect(splitLabels(["D:11:26", "D", 3])).toEqual(["D:11:26", "D", "3"]);
  });
});

describe("recallAt", () => {
  const ranked = ["a", "b", "c", "d"];

  it("is the share of relevant labels among the top k", () => {
    expect(recallAt(ranked, ["a"], 1)).toBe(1);
    expect(recallAt(ranked, ["b"], 1)).toBe(0);
    expect(recallAt(ranked, ["a", "c"], 2)).toBe(0.5);
    expect(recallAt(ranked, ["a", "c"], 3)).toBe(1);
    expect(recallAt(ranked, ["a", "c", "z"], 10)).toBeCloseTo(2 / 3);
  });

  it("counts a question with nothing relevant as 1", () => {
    expect(recallAt(ranked, [], 1)).toBe(1);
    expect(recallAt([], [], 5)).toBe(1);
  });

  it("counts a label once even when several results carry it", () => {
    expect(recallAt(["a", "a", "b"], ["a", "b"], 2)).toBe(0.5);
    expect(recallAt(["a"], ["a", "a"], 1)).toBe(1);
  });

  it("ignores results without a label", () => {
    expect(recallAt([undefined, "", "a"], ["a"], 2)).toBe(0);
  });
});

describe("reciprocalRank", () => {
  it("is 1/rank of the first relevant label, 0 when none is found", () => {
    expect(reciprocalRank(["a", "b", "c"], ["a"])).toBe(1);
    expect(reciprocalRank(["a", "b", "c"], ["c", "b"])).toBe(0.5);
    expect(reciprocalRank(["a", "b", "c"], ["c"])).toBeCloseTo(1 / 3);
    expect(reciprocalRank(["a", "b"], ["z"])).toBe(0);
    expect(reciprocalRank([], ["z"])).toBe(0);
    expect(reciprocalRank(["a"], [])).toBe(1);
  });
});

describe("averages", () => {
  it("averages per question and rounds to 4 decimals", () => {
    const means = new MeanAccumulator();
    means.add({ "R@1": 1, "R@5": 1 });
    means.add({ "R@1": 0, "R@5": 0.5 });
    means.add({ "R@1": 0, "R@5": 1 / 3 });
    expect(means.means(["R@1", "R@5"])).toEqual({ "R@1": 0.3333, "R@5": 0.6111 });
    expect(means.questions).toBe(3);
    expect(new MeanAccumulator().means(["R@1"])).toEqual({ "R@1": 0 });
  });

  it("groups, numbers in numeric order", () => {
    const groups = new GroupedMeans();
    groups.add("10", { x: 1 });
    groups.add("2", { x: 0 });
    groups.add("2", { x: 1 });
    expect(groups.report(["x"])).toEqual({
      "2": { x: 0.5, questions: 2 },
      "10": { x: 1, questions: 1 },
    });
    expect(Object.keys(groups.report(["x"]))).toEqual(["2", "10"]);
  });
});

describe("parseKs", () => {
  it("reads a sorted list without repeats", () => {
    expect(parseKs("25, 1,5,10,5")).toEqual([1, 5, 10, 25]);
  });

  it.each(["", "0", "1,x", "1.5", "-3", "5000"])("refuses %j", (text) => {
    expect(typeof parseKs(text)).toBe("string");
  });
});

describe("progress", () => {
  function sink(isTTY: boolean) {
    const writes: string[] = [];
    return { writes, stream: { isTTY, write: (text: string) => writes.push(text) } };
  }

  it("prints a line every tenth of the way when stderr is not a terminal", () => {
    const { writes, stream } = sink(false);
    const progress = createProgress({ label: "eval", total: 20, stream, now: () => 0 });
    for (let i = 0; i < 20; i++) progress.tick();
    progress.done();
    expect(writes).toHaveLength(10);
    expect(writes.every((line) => line.startsWith("eval: ") && line.endsWith("\n"))).toBe(true);
    expect(writes.at(-1)).toContain("20/20 100%");
  });

  it("redraws one line in place on a terminal, at most every 100 ms", () => {
    const { writes, stream } = sink(true);
    let time = 0;
    const progress = createProgress({ label: "eval", total: 4, stream, now: () => time });
    progress.tick();
    progress.tick();
    time = 150;
    progress.status("conv-1");
    progress.done();
    expect(writes.slice(0, -1).every((text) => text.startsWith("\r"))).toBe(true);
    expect(writes).toHaveLength(4);
    expect(writes.at(-2)).toContain("2/4");
    expect(writes.at(-2)).toContain("conv-1");
    expect(writes.at(-1)).toBe("\n");
  });

  it("writes nothing when disabled", () => {
    const { writes, stream } = sink(true);
    const progress = createProgress({ label: "eval", total: 2, stream, enabled: false });
    progress.tick();
    progress.done();
    expect(writes).toEqual([]);
  });
});
