import { describe, expect, it } from "vitest";
import type { MemoryApi } from "../core/memory-api.js";
import { agentMemoryId, scopeToAgent } from "./agent-scope.js";

/** A memory whose every method records that it was reached, and answers nothing useful. */
function recordingMemory(): { memory: MemoryApi; reached: string[] } {
  const reached: string[] = [];
  const memory = new Proxy({} as MemoryApi, {
    get: (_target, name) => async () => {
      reached.push(String(name));
      return {};
    },
  });
  return { memory, reached };
}

const UUID = "0d7c3a52-5e7f-4c4b-9a39-6f4c1c1f2b11";

describe("an agent-bound memory", () => {
  // Each operation that checks ids against the store, with input its schema refuses.
  const refused: [keyof MemoryApi, unknown, string][] = [
    ["forget", { memory_id: "not-a-uuid" }, "memory_id"],
    ["forget", { memory_id: UUID, mode: "shred" }, "mode"],
    ["feedback", { memory_id: "1; DROP TABLE" }, "memory_id"],
    ["feedback", { memory_id: UUID }, "useful"],
    ["restore", { memory_id: 42 }, "memory_id"],
    ["history", {}, "memory_id"],
    ["summarize", { memory_ids: Array.from({ length: 20_000 }, () => UUID) }, "memory_ids"],
    ["summarize", { memory_ids: ["x"] }, "memory_ids.0"],
  ];

  it.each(refused)("validates %s before looking anything up", async (operation, input, field) => {
    const { memory, reached } = recordingMemory();
    const scoped = scopeToAgent(memory, "planner");
    const call = scoped[operation] as (input: unknown) => Promise<unknown>;
    await expect(call(input)).rejects.toMatchObject({ code: "INVALID_INPUT", field });
    expect(reached).toEqual([]);
  });

  it("looks up valid ids, and only then runs the operation", async () => {
    const { memory, reached } = recordingMemory();
    const scoped = scopeToAgent(
      new Proxy(memory, {
        get: (target, name) =>
          name === "access"
            ? async (_agent: string, ids: string[]) => {
                reached.push("access");
                return Object.fromEntries(ids.map((id) => [id, "own"]));
              }
            : Reflect.get(target, name),
      }),
      "planner",
    );
    await scoped.forget({ memory_id: UUID });
    expect(reached).toEqual(["access", "forget"]);
  });
});

describe("ids an agent chooses", () => {
  const stored: unknown[] = [];
  const memory = new Proxy({} as MemoryApi, {
    get: () => async (input: unknown) => {
      stored.push(input);
      return { id: (input as { id?: string }).id };
    },
  });
  const OTHER = "6f1f7a4e-2b7d-4c1e-9a55-0c3d8e9b1a22";

  it("live in the agent's own space: stable for the agent, apart from every other agent's", async () => {
    const planner = scopeToAgent(memory, "planner");
    const executor = scopeToAgent(memory, "executor");
    const episode = { task_type: "t", summary: "s", outcome: "success" };
    const first = await planner.storeEpisodic({ ...episode, id: OTHER });
    const retry = await planner.storeEpisodic({ ...episode, id: OTHER });
    const theirs = await executor.storeEpisodic({ ...episode, id: OTHER });
    expect(first.id).toBe(agentMemoryId("planner", OTHER));
    expect(retry.id).toBe(first.id);
    expect(theirs.id).not.toBe(first.id);
    // Never the id as given, so whether another memory has it cannot be told from the answer.
    expect([first.id, theirs.id]).not.toContain(OTHER);
    expect(first.id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it("reach the schema as given when they are not valid ids", async () => {
    await scopeToAgent(memory, "planner").storeEpisodic({ id: "not-a-uuid" });
    expect(stored.at(-1)).toMatchObject({ id: "not-a-uuid", agent_id: "planner" });
  });
});
