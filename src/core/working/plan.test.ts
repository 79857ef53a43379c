import { describe, expect, it } from "vitest";
import { cl100k } from "../../adapters/tokens.js";
import { measure } from "./context.js";
import { planCompression, protectedItems, shrinks } from "./plan.js";
import { deterministicParts } from "./summarize.js";
import type { ItemKind, ItemRole, WorkingItem, WorkingSession } from "./types.js";

let seq = 0;
const item = (kind: ItemKind, role: ItemRole, content: string): WorkingItem => ({
  seq: ++seq,
  id: `00000000-0000-4000-8000-${String(seq).padStart(12, "0")}`,
  kind,
  role,
  content,
  created_at: new Date("2026-01-01T00:00:00Z"),
});

const session = (items: WorkingItem[]): WorkingSession => ({
  session_id: "s",
  items,
  summary: null,
  revision: 0,
  budget: null,
});

describe("what stays verbatim", () => {
  it("is the latest goal, the latest instruction and tool calls no result followed", () => {
    seq = 0;
    const items = [
      item("goal", "user", "old goal"),
      item("goal", "user", "goal"),
      item("instruction", "user", "first"),
      item("tool_call", "assistant", "call 1"),
      item("result", "tool", "result 1"),
      item("instruction", "user", "latest"),
      item("tool_call", "assistant", "call 2"),
      item("tool_call", "assistant", "call 3"),
    ];
    const kept = protectedItems(items);
    expect(kept.goal?.content).toBe("goal");
    expect(kept.instruction?.content).toBe("latest");
    expect(kept.activeCalls.map((call) => call.content)).toEqual(["call 2", "call 3"]);
  });
});

describe("planning a compression", () => {
  const long = (i: number) =>
    `Batch ${i} copied: 10000 rows from orders_${i} into orders_v2, checksums match.`;

  it("takes the oldest items first until the session sits under three quarters of its budget", () => {
    seq = 0;
    const items = [
      item("goal", "user", "Migrate orders"),
      ...Array.from({ length: 60 }, (_, i) => item("result", "tool", long(i))),
    ];
    const plan = planCompression(session(items), 1000, cl100k, false)!;
    expect(plan.keep[0]!.kind).toBe("goal");
    expect(plan.compress[0]!.seq).toBe(2);
    // Contiguous: the newest items stay.
    expect(plan.keep.at(-1)!.seq).toBe(61);
    const kept = measure(session(plan.keep), cl100k).tokens;
    expect(kept).toBeLessThanOrEqual(750);
  });

  it("gives up open tool calls only when everything else is not enough", () => {
    seq = 0;
    const calls = Array.from({ length: 40 }, (_, i) => item("tool_call", "assistant", long(i)));
    const plan = planCompression(
      session([item("goal", "user", "g"), ...calls]),
      1000,
      cl100k,
      false,
    )!;
    expect(plan.compress.every((entry) => entry.kind === "tool_call")).toBe(true);
    expect(plan.keep.map((entry) => entry.kind)).toContain("goal");
  });

  it("has nothing to do when compressing would not make the session smaller", () => {
    seq = 0;
    const tiny = session([
      item("goal", "user", "Rotate the API keys"),
      item("message", "assistant", "Listed 3 keys to rotate."),
      item("result", "tool", "Key 1 rotated."),
    ]);
    // The summary the rules write costs more than the two short items it would replace.
    const plan = planCompression(tiny, 1000, cl100k, true)!;
    const summary = {
      ...deterministicParts(null, plan.compress, plan.keep),
      method: "deterministic" as const,
      items_summarized: 2,
      updated_at: new Date(0),
    };
    expect(shrinks(tiny, plan, summary, cl100k)).toBe(false);
    // When not even an empty summary would be smaller, there is no plan: no summary is written.
    seq = 0;
    const tinier = session([
      item("goal", "user", "Rotate the API keys"),
      item("result", "tool", "ok"),
      item("result", "tool", "ok"),
    ]);
    expect(planCompression(tinier, 1000, cl100k, true)).toBeNull();
    seq = 0;
    const batches = session([
      item("goal", "user", "Migrate orders"),
      ...Array.from({ length: 8 }, (_, i) => item("result", "tool", long(i))),
    ]);
    const folded = planCompression(batches, 1000, cl100k, true)!;
    expect(folded.compress).toHaveLength(8);
    const written = {
      ...deterministicParts(null, folded.compress, folded.keep),
      method: "deterministic" as const,
      items_summarized: 8,
      updated_at: new Date(0),
    };
    expect(shrinks(batches, folded, written, cl100k)).toBe(true);
  });

  it("has nothing to do when only protected items are left, or nothing is over", () => {
    seq = 0;
    const items = [item("goal", "user", "g"), item("instruction", "user", "i")];
    expect(planCompression(session(items), 1000, cl100k, true)).toBeNull();
    expect(planCompression(session(items), 1000, cl100k, false)).toBeNull();
  });
});

describe("the rules' summary", () => {
  it("keeps the goal, the steps done, the latest failure and the stated plan within 200 characters", () => {
    seq = 0;
    const compress = [
      item("tool_call", "assistant", "run_sql('copy batch 1')"),
      item("result", "tool", "Batch 1 copied. 10000 rows."),
      item("result", "tool", "Error: batch 2 failed with a lock timeout."),
      item("note", "assistant", "Next: retry batch 2 with a smaller batch size."),
    ];
    const parts = deterministicParts(null, compress, [
      item("goal", "user", "Migrate the orders table"),
    ]);
    expect(parts.goal).toBe("Migrate the orders table");
    // The result says what its call did; fillers and the plan's marker are dropped.
    expect(parts.done).toBe("Batch 1 copied");
    expect(parts.blocked).toBe("batch 2 failed with lock timeout");
    expect(parts.next).toBe("retry batch 2 with smaller batch size");
    expect([...Object.values(parts).join("")].length).toBeLessThanOrEqual(200);
  });

  it("folds the previous summary in, merging steps that differ only in a number", () => {
    seq = 0;
    const previous = {
      goal: "迁移订单表",
      done: "复制了第1批",
      blocked: "第2批超时",
      next: "重试第2批",
    };
    const compress = Array.from({ length: 30 }, (_, i) =>
      item("result", "tool", `第${i + 3}批已复制，校验通过。`),
    );
    const parts = deterministicParts(previous, compress, []);
    expect(parts.goal).toBe("迁移订单表");
    expect(parts.done).toBe("复制了第1批；第3–32批已复制，校验通过");
    expect(parts.blocked).toBe("第2批超时");
    expect(parts.next).toBe("重试第2批");
    expect([...Object.values(parts).join("")].length).toBeLessThanOrEqual(200);
  });
});
