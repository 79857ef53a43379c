import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ChatRequest, LanguageModel } from "../ports.js";
import { completeJson, parseLenientJson } from "./complete-json.js";

function scripted(answers: string[]): LanguageModel & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    id: "scripted",
    requests,
    async chat(request) {
      requests.push(structuredClone(request));
      const text = answers.shift();
      if (text === undefined) throw new Error("no more answers");
      return { text, model: "scripted", usage: { prompt_tokens: 1, completion_tokens: 1 } };
    },
    usage: () => ({
      requests: requests.length,
      failures: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
    }),
  };
}

const Summary = z.object({ summary: z.string().max(20) });
const request = {
  tier: "cheap" as const,
  purpose: "summary",
  messages: [{ role: "user" as const, content: "summarise" }],
};

describe("parseLenientJson", () => {
  it("reads JSON wrapped in prose and code fences, with trailing commas", () => {
    expect(parseLenientJson('Sure! ```json\n{"a": [1, 2,],}\n``` hope it helps')).toEqual({
      a: [1, 2],
    });
    expect(parseLenientJson('Here: {"a": "b"} done')).toEqual({ a: "b" });
  });

  it("fails on answers with no JSON", () => {
    expect(() => parseLenientJson("I cannot do that")).toThrow(SyntaxError);
  });
});

describe("completeJson", () => {
  it("returns a valid first answer after one call, asking for JSON", async () => {
    const llm = scripted(['{"summary": "fixed the build"}']);
    const result = await completeJson(llm, request, Summary);
    expect(result).toEqual({ value: { summary: "fixed the build" }, attempts: 1 });
    expect(llm.requests[0]?.json).toBe(true);
  });

  it("asks again with the validation error when the shape is wrong", async () => {
    const llm = scripted([
      '{"summary": "far too long for the twenty-char limit"}',
      '{"summary": "short"}',
    ]);
    const result = await completeJson(llm, request, Summary);
    expect(result).toEqual({ value: { summary: "short" }, attempts: 2 });
    const retry = llm.requests[1]!.messages.at(-1)!;
    expect(retry.role).toBe("user");
    expect(retry.content).toContain("summary:");
  });

  it("fails with LLM_FAILED when no answer fits", async () => {
    const llm = scripted(["not json", "still not json"]);
    await expect(completeJson(llm, request, Summary)).rejects.toMatchObject({
      code: "LLM_FAILED",
    });
  });
});
