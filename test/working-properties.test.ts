/**
 * The budget invariants under any sequence of appends (fast-check): the session stays within
 * its budget, the latest goal and instruction and the open tool calls stay verbatim, and every
 * item is either kept or counted by the summary.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHindsight, type Hindsight } from "../src/index.js";

const KINDS = ["goal", "instruction", "message", "tool_call", "result", "note"] as const;
const WORDS = [
  "orders",
  "迁移",
  "batch",
  "校验",
  "timeout",
  "下一步",
  "rows",
  "失败",
  "copied",
  "分片",
];

const itemArbitrary = fc.record({
  kind: fc.constantFrom(...KINDS),
  role: fc.constantFrom("user", "assistant", "tool", "system"),
  words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 60 }),
});

describe("working-memory budget invariants", () => {
  let memory: Hindsight;
  let run = 0;
  beforeAll(async () => {
    memory = await createHindsight({ embedder: { kind: "hash" }, dataDir: "memory://" });
  });
  afterAll(() => memory.close());

  it("hold after every append of any sequence", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(itemArbitrary, { minLength: 1, maxLength: 60 }), async (items) => {
        const session = `p${run++}`;
        let goal: string | undefined;
        let instruction: string | undefined;
        let open: string[] = [];
        for (const [index, { kind, role, words }] of items.entries()) {
          const content = `${index}: ${words.join(" ")}`;
          await memory.workingAppend({ session_id: session, kind, role, content, budget: 1000 });
          if (kind === "goal") goal = content;
          if (kind === "instruction") instruction = content;
          if (kind === "result") open = [];
          if (kind === "tool_call") open.push(content);
        }
        const context = await memory.workingGet({ session_id: session });
        expect(context.tokens).toBeLessThanOrEqual(1000);
        const kept = context.items.map((item) => item.content);
        if (goal) expect(kept).toContain(goal);
        if (instruction) expect(kept).toContain(instruction);
        // Open calls go only when nothing else is enough: never while they are this few.
        if (open.length <= 3) for (const call of open) expect(kept).toContain(call);
        expect((context.summary?.items_summarized ?? 0) + context.items.length).toBe(items.length);
        if (context.summary) {
          const { goal: g, done, blocked, next } = context.summary;
          expect([...`${g}${done}${blocked}${next}`].length).toBeLessThanOrEqual(200);
        }
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
