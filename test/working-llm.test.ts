/**
 * Working memory with a language model: the cheap tier writes the four-part summary and the
 * episodic summary; broken output falls back to the rules, logged, with nothing lost.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { ChatRequest, LanguageModel } from "../src/core/ports.js";
import { createHindsight, type Hindsight } from "../src/index.js";

/** A model that answers from a script, in order, repeating its last answer. */
function scriptedModel(answers: string[]): LanguageModel & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  let calls = 0;
  return {
    id: "scripted:test",
    requests,
    async chat(request) {
      requests.push(request);
      const text = answers[Math.min(calls++, answers.length - 1)]!;
      return { text, model: "scripted", usage: { prompt_tokens: 10, completion_tokens: 10 } };
    },
    usage: () => ({ requests: calls, failures: 0, prompt_tokens: 0, completion_tokens: 0 }),
  };
}

const goal = "Migrate the orders table to the new schema";

async function feed(memory: Hindsight, session: string, count: number) {
  await memory.workingAppend({
    session_id: session,
    kind: "goal",
    role: "user",
    content: goal,
    budget: 1000,
  });
  for (let i = 0; i < count; i++) {
    await memory.workingAppend({
      session_id: session,
      kind: "result",
      role: "tool",
      content: `Batch ${i} copied: 10000 rows from orders_${i} into orders_v2, checksums match.`,
    });
  }
}

describe("working memory with a language model", () => {
  let memory: Hindsight | undefined;
  const warnings: string[] = [];
  const open = (llm: LanguageModel) =>
    createHindsight(
      { dataDir: "memory://", embedder: { kind: "hash" } },
      {
        llm,
        logger: { debug: () => {}, info: () => {}, warn: (m) => warnings.push(m), error: () => {} },
      },
    );
  afterEach(async () => {
    await memory?.close();
    warnings.length = 0;
  });

  it("compresses with the cheap tier's four-part summary", async () => {
    const llm = scriptedModel([
      '```json\n{"goal": "Migrate orders to v2", "done": "Copied batches 0-30", "blocked": "", "next": "Copy the remaining batches"}\n```',
    ]);
    memory = await open(llm);
    await feed(memory, "llm", 60);
    const context = await memory.workingGet({ session_id: "llm" });
    expect(context.tokens).toBeLessThanOrEqual(1000);
    expect(context.summary).toMatchObject({
      method: "llm",
      goal: "Migrate orders to v2",
      done: "Copied batches 0-30",
      next: "Copy the remaining batches",
    });
    expect(context.items[0]!.content).toBe(goal);
    const request = llm.requests[0]!;
    expect(request).toMatchObject({
      tier: "cheap",
      purpose: "working_memory_compression",
      json: true,
    });
    expect(request.messages.at(-1)!.content).toContain("<history>");
    expect(request.messages.at(-1)!.content).toContain("Batch 0 copied");
  });

  it("asks the model once when concurrent appends push a session over budget together", async () => {
    const llm = scriptedModel([
      '{"goal": "Migrate orders", "done": "Copied batches", "blocked": "", "next": "Verify"}',
    ]);
    memory = await open(llm);
    await feed(memory, "together", 25);
    expect(llm.requests).toHaveLength(0);
    const appends = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        memory!.workingAppend({
          session_id: "together",
          kind: "result",
          role: "tool",
          content: `Parallel check ${i}: orders_${i} row counts match between the old and new table.`,
        }),
      ),
    );
    expect(appends.some((append) => append.compressed)).toBe(true);
    expect(llm.requests).toHaveLength(1);
    const context = await memory.workingGet({ session_id: "together" });
    expect(context.tokens).toBeLessThanOrEqual(1000);
    expect(context.summary!.items_summarized + context.items.length).toBe(46);
  });

  it("falls back to the rules when the model keeps answering unusable output, and says so", async () => {
    const tooLong = JSON.stringify({
      goal: "g".repeat(150),
      done: "d".repeat(100),
      blocked: "",
      next: "",
    });
    const llm = scriptedModel(["not json at all", tooLong]);
    memory = await open(llm);
    await feed(memory, "broken", 60);
    const context = await memory.workingGet({ session_id: "broken" });
    expect(context.tokens).toBeLessThanOrEqual(1000);
    expect(context.summary!.method).toBe("deterministic");
    expect(context.summary!.goal).toContain("Migrate the orders table");
    expect(context.summary!.done).toContain("Batch");
    expect(context.summary!.items_summarized + context.items.length).toBe(61);
    // The corrective retry was asked for, then the failure logged.
    expect(llm.requests[1]!.messages.at(-1)!.content).toContain("could not be used");
    expect(warnings.join("\n")).toContain("compression by the language model failed");
  });

  it("writes the ended session's episodic summary with the cheap tier, or by rules when it fails", async () => {
    const llm = scriptedModel(['{"summary": "Orders migrated to v2 by batch copy: success"}']);
    memory = await open(llm);
    await feed(memory, "end", 3);
    const ended = await memory.workingEnd({
      session_id: "end",
      task_type: "migration",
      outcome: "success",
    });
    expect(ended).toMatchObject({
      method: "llm",
      summary: "Orders migrated to v2 by batch copy: success",
    });
    expect(llm.requests.at(-1)).toMatchObject({ tier: "cheap", purpose: "episodic_summary" });
    await memory.close();

    memory = await open(scriptedModel([JSON.stringify({ summary: "x".repeat(120) })]));
    await feed(memory, "end", 3);
    const fallback = await memory.workingEnd({
      session_id: "end",
      task_type: "migration",
      outcome: "partial",
    });
    expect(fallback.method).toBe("deterministic");
    expect([...fallback.summary].length).toBeLessThanOrEqual(80);
    expect(fallback.summary).toContain("partial");
    expect(warnings.join("\n")).toContain("episodic summary by the language model failed");
  });
});
