import { describe, expect, it } from "vitest";
import { ForgetInput, RecallInput, StoreEpisodicInput } from "./schemas.js";
import { validate } from "./validate.js";

function errorOf(fn: () => unknown): { code: string; field: string; message: string } {
  try {
    fn();
  } catch (error) {
    return error as { code: string; field: string; message: string };
  }
  throw new Error("expected a validation error");
}

const valid = { task_type: "deploy", summary: "deployed v2", outcome: "success" };

describe("input validation", () => {
  it("accepts a valid episodic memory and trims text", () => {
    expect(validate(StoreEpisodicInput, { ...valid, summary: "  deployed v2 " }).summary).toBe(
      "deployed v2",
    );
  });

  it.each([
    [{ ...valid, summary: "   " }, "summary", "must not be empty"],
    [{ ...valid, outcome: "great" }, "outcome", ""],
    [{ ...valid, metadata: [1, 2] }, "metadata", ""],
    [{ ...valid, metadata: "x" }, "metadata", ""],
    [{ ...valid, summary: "x".repeat(8_001) }, "summary", ""],
    [{ ...valid, occurred_at: "last tuesday" }, "occurred_at", "ISO 8601"],
    [{ ...valid, tags: ["ok", ""] }, "tags.1", "must not be empty"],
    [{ ...valid, colour: "red" }, "colour", ""],
    // PostgreSQL cannot store U+0000 in text or jsonb: refused up front, not a storage failure.
    [{ ...valid, summary: "before\u0000after" }, "summary", "NUL"],
    [{ ...valid, tags: ["a\u0000"] }, "tags.0", "NUL"],
    [{ ...valid, metadata: { nested: ["x\u0000"] } }, "metadata", "NUL"],
  ])("names the bad field (%#)", (input, field, message) => {
    const error = errorOf(() => validate(StoreEpisodicInput, input));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.field).toBe(field);
    expect(error.message).toContain(message);
  });

  it("says a field left out is required, and what it takes", () => {
    const { outcome: _outcome, ...noOutcome } = valid;
    expect(errorOf(() => validate(StoreEpisodicInput, noOutcome)).message).toBe(
      'outcome: required: one of "success", "failure", "partial"',
    );
    expect(errorOf(() => validate(RecallInput, {})).message).toBe("query_text: required (string)");
    // A value given but wrong is still named as such.
    expect(errorOf(() => validate(RecallInput, { query_text: 3 })).message).toContain(
      "expected string",
    );
  });

  it("rejects metadata nested too deep or too large", () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 10; i++) deep = { deep };
    expect(errorOf(() => validate(StoreEpisodicInput, { ...valid, metadata: deep })).field).toBe(
      "metadata",
    );
    const big = { blob: "x".repeat(20_000) };
    expect(errorOf(() => validate(StoreEpisodicInput, { ...valid, metadata: big })).field).toBe(
      "metadata",
    );
  });

  it("defaults and bounds recall arguments", () => {
    expect(validate(RecallInput, { query_text: "deploy" })).toMatchObject({
      memory_layer: "episodic",
      top_k: 5,
      include_archived: false,
    });
    expect(errorOf(() => validate(RecallInput, { query_text: "q", top_k: 21 })).field).toBe(
      "top_k",
    );
    expect(errorOf(() => validate(RecallInput, { query_text: "q", top_k: 0 })).field).toBe("top_k");
    expect(
      errorOf(() => validate(RecallInput, { query_text: "q", time_range: "2024-01-01" })).field,
    ).toBe("time_range");
  });

  it("requires a UUID to forget", () => {
    expect(errorOf(() => validate(ForgetInput, { memory_id: "42" })).field).toBe("memory_id");
  });
});
