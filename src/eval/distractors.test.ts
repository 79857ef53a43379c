import { describe, expect, it } from "vitest";
import { DISTRACTOR_MID_PREFIX, withDistractors } from "./distractors.js";
import type { MemdailyTrajectory } from "./memdaily.js";

function trajectory(file: string, tid: string, texts: string[]): MemdailyTrajectory {
  return {
    file,
    tid,
    messages: texts.map((message, index) => ({
      mid: String(index),
      message,
      occurred_at: new Date(Date.UTC(2024, 3, 1 + index)),
      time: null,
      place: null,
    })),
    questions: [{ qid: "0", question: "?", targets: ["1"], time: undefined }],
    skipped_messages: 0,
    undated_messages: 0,
  };
}

const A = trajectory("01_a.json", "0", ["a0", "a1", "a2"]);
const B = trajectory("01_a.json", "1", ["b0", "b1", "b2", "b3"]);
const C = trajectory("02_c.json", "0", ["c0", "c1", "c2", "c3", "c4"]);

describe("withDistractors", () => {
  it("adds messages of other trajectories only, each once, keeping the bank's own in order", () => {
    const [mixed] = withDistractors([A], [A, B, C], 6);
    const own = mixed!.messages.filter((m) => !m.mid.startsWith(DISTRACTOR_MID_PREFIX));
    expect(own.map((m) => m.message)).toEqual(["a0", "a1", "a2"]);
    expect(own.map((m) => m.mid)).toEqual(["0", "1", "2"]);
    const added = mixed!.messages.filter((m) => m.mid.startsWith(DISTRACTOR_MID_PREFIX));
    expect(added).toHaveLength(6);
    expect(new Set(added.map((m) => m.message)).size).toBe(6);
    for (const message of added) expect(message.message).toMatch(/^[bc]\d$/);
    expect(new Set(added.map((m) => m.mid)).size).toBe(6);
    expect(mixed!.questions).toEqual(A.questions);
  });

  it("draws the same banks on every run, and different ones with another seed", () => {
    const texts = (seed?: number) =>
      withDistractors([A, B], [A, B, C], 4, seed).map((t) => t.messages.map((m) => m.message));
    expect(texts()).toEqual(texts());
    expect(texts(2)).not.toEqual(texts());
  });

  it("takes what there is when the others hold fewer messages than asked", () => {
    const [mixed] = withDistractors([A], [A, B], 50);
    expect(mixed!.messages).toHaveLength(3 + 4);
  });

  it("leaves the trajectories it was given unchanged", () => {
    withDistractors([A], [A, B, C], 5);
    expect(A.messages.map((m) => m.message)).toEqual(["a0", "a1", "a2"]);
  });
});
