import { describe, expect, it } from "vitest";
import { z } from "zod";
import { foreignItems, fromForeign } from "./foreign.js";
import { recordSchema } from "./format.js";

const AT = new Date("2025-06-01T00:00:00Z");

/** Every record a reader produces must pass the import's own check. */
function valid(records: unknown[]) {
  for (const record of records) {
    const schema = recordSchema(record);
    if (!(schema instanceof z.ZodType)) throw new Error(schema.message);
    expect(schema.safeParse(record).success, JSON.stringify(record)).toBe(true);
  }
}

describe("the MCP memory server's memory.json", () => {
  const file = [
    '{"type":"entity","name":"Alice","entityType":"person","observations":["Prefers Chinese replies","Works on billing"]}',
    '{"type":"relation","from":"Alice","to":"Billing","relationType":"maintains"}',
    "",
  ].join("\n");

  it("becomes one fact per observation and per relation, under ids that repeat", () => {
    const records = foreignItems(file).flatMap(({ value }) => fromForeign("mcp-memory", value, AT));
    valid(records);
    expect(records.map((r) => [r.key_text, r.value_text])).toEqual([
      ["Alice (person)", "Prefers Chinese replies"],
      ["Alice (person)", "Works on billing"],
      ["Alice maintains Billing", "Alice maintains Billing"],
    ]);
    expect(records[0]).toMatchObject({ source: "mcp-memory", tags: ["mcp-memory", "person"] });
    const again = foreignItems(file).flatMap(({ value }) => fromForeign("mcp-memory", value, AT));
    expect(again.map((r) => r.id)).toEqual(records.map((r) => r.id));
    expect(new Set(records.map((r) => r.id)).size).toBe(3);
  });

  it("names the line and field of a line it cannot read", () => {
    expect(() => foreignItems('{"type":"entity"}\nnot json')).toThrow(/line 2/);
    expect(() => fromForeign("mcp-memory", { type: "entity", name: "x" }, AT)).toThrow(
      /entityType/,
    );
  });
});

describe("a mem0 export", () => {
  const memory = {
    id: "0d3c2b0a-5b8e-4a43-9a55-6a1f2c0b9e11",
    memory: "Likes hiking on weekends",
    hash: "abc",
    metadata: { origin: "chat" },
    categories: ["hobbies"],
    created_at: "2025-01-02T03:04:05-08:00",
    user_id: "alice",
    run_id: "run-7",
  };

  it("reads get_all's results, an array or lines, keeping mem0's id and scope", () => {
    for (const content of [
      JSON.stringify({ results: [memory] }),
      JSON.stringify([memory]),
      JSON.stringify(memory),
    ]) {
      const records = foreignItems(content).flatMap(({ value }) => fromForeign("mem0", value, AT));
      valid(records);
      expect(records).toEqual([
        expect.objectContaining({
          id: memory.id,
          key_text: memory.memory,
          user_id: "alice",
          session_id: "run-7",
          tags: ["mem0", "hobbies"],
          created_at: "2025-01-02T11:04:05.000Z",
          metadata: { origin: "chat", mem0: { id: memory.id, hash: "abc" } },
        }),
      ]);
    }
  });

  it("derives a UUID for an id that is not one, the same every time", () => {
    const [a] = fromForeign("mem0", { id: "m-1", memory: "x" }, AT);
    const [b] = fromForeign("mem0", { id: "m-1", memory: "x" }, AT);
    expect(a!.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(a!.id).toBe(b!.id);
  });
});
