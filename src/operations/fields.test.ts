import { describe, expect, it } from "vitest";
import { z } from "zod";
import { RecallInput, StoreEpisodicInput } from "../core/schemas.js";
import { fieldKind, listFromText, numberFromText } from "./fields.js";

describe("fieldKind", () => {
  it("sees through optional, default, nullable and pipes", () => {
    expect(fieldKind(z.number().int().optional())).toBe("number");
    expect(fieldKind(z.array(z.string()).default([]))).toBe("array");
    expect(fieldKind(z.boolean().nullable().optional())).toBe("boolean");
    expect(fieldKind(z.string().transform((value) => value.length))).toBe("string");
    expect(fieldKind(z.record(z.string(), z.unknown()).optional())).toBe("object");
    expect(fieldKind(z.enum(["a", "b"]))).toBe("string");
  });

  it("reads the real input schemas", () => {
    expect(fieldKind(RecallInput.shape.top_k)).toBe("number");
    expect(fieldKind(RecallInput.shape.explain)).toBe("boolean");
    expect(fieldKind(StoreEpisodicInput.shape.tags)).toBe("array");
    expect(fieldKind(StoreEpisodicInput.shape.metadata)).toBe("object");
    expect(fieldKind(StoreEpisodicInput.shape.occurred_at)).toBe("string");
  });
});

describe("numberFromText", () => {
  it("turns numbers into numbers and leaves anything else as text for the schema to name", () => {
    expect(numberFromText("5")).toBe(5);
    expect(numberFromText("0.25")).toBe(0.25);
    expect(numberFromText("five")).toBe("five");
    expect(numberFromText(" ")).toBe(" ");
    expect(numberFromText("Infinity")).toBe("Infinity");
  });
});

describe("listFromText", () => {
  it("reads a list the same way from one comma-separated value or from repeated ones", () => {
    expect(listFromText("a, b,c")).toEqual(["a", "b", "c"]);
    expect(listFromText(["a", "b,c"])).toEqual(["a", "b", "c"]);
    // A stray comma or an empty parameter adds no empty item (a tag "" would be stored).
    expect(listFromText("a,,b,")).toEqual(["a", "b"]);
    expect(listFromText([""])).toEqual([]);
  });
});
