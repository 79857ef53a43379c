import { describe, expect, it } from "vitest";
import { silentLogger } from "../../adapters/logger.js";
import { LlmFallbacks } from "../llm/fallbacks.js";
import type { ChatRequest, LanguageModel } from "../ports.js";
import {
  charLength,
  extractiveInteractionSummary,
  SUMMARY_MAX_CHARS,
  summariseInteraction,
} from "./episode-summary.js";

const transcript = [
  "User: please deploy the billing service to staging",
  "Assistant: running kubectl apply -f billing.yaml",
  "Tool: error: port 8080 already in use by the old pod",
  "Assistant: deleted the old pod and re-applied; billing is running on staging now.",
].join("\n");

describe("extractive interaction summary", () => {
  it("keeps the start of the first sentence and the end of the last, within 80 characters", () => {
    const summary = extractiveInteractionSummary(transcript);
    // 45 + 3 + 34 characters would be 82: the goal gives way a word.
    expect(summary).toBe(
      "please deploy the billing service to … billing is running on staging now.",
    );
    expect(charLength(summary)).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
  });

  it("counts Chinese characters as one each and keeps the language", () => {
    const summary = extractiveInteractionSummary(
      "用户：把支付服务部署到预发环境，并确认数据库迁移脚本已经在昨天的评审中通过。\n助手：执行了数据库迁移。\n工具：迁移在第三步超时，部署失败，已回滚到上一个版本，等待值班同学处理。",
    );
    expect(charLength(summary)).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
    expect(summary.startsWith("把支付服务部署到预发环境")).toBe(true);
    expect(summary.endsWith("等待值班同学处理。")).toBe(true);
  });

  it("cuts one long sentence at a word boundary with an ellipsis", () => {
    const summary = extractiveInteractionSummary(`Refactor ${"the payment module ".repeat(10)}`);
    expect(charLength(summary)).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
    expect(summary).toMatch(/^Refactor the payment module .*[a-z]…$/);
  });

  it("drops speaker labels in either language", () => {
    expect(
      extractiveInteractionSummary("用户：把支付服务部署到预发环境。\n工具：迁移超时，部署失败。"),
    ).toBe("把支付服务部署到预发环境。 … 迁移超时，部署失败。");
    expect(extractiveInteractionSummary("Tool: build failed\nAssistant: fixed it.")).toBe(
      "build failed … fixed it.",
    );
  });

  it("leaves a short interaction as it is", () => {
    expect(extractiveInteractionSummary("  Fixed the flaky test.  ")).toBe("Fixed the flaky test.");
  });
});

function model(answers: (string | Error)[]): LanguageModel & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    id: "fake:m",
    models: { main: "m", cheap: "small" },
    requests,
    async chat(request) {
      requests.push(structuredClone(request));
      const answer = answers.shift() ?? new Error("no answer");
      if (answer instanceof Error) throw answer;
      return { text: answer, model: "small", usage: { prompt_tokens: 1, completion_tokens: 1 } };
    },
    usage: () => ({
      requests: requests.length,
      failures: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
    }),
  };
}

const context = { interaction: transcript, task_type: "deploy", outcome: "success" as const };

describe("summariseInteraction", () => {
  it("uses the cheap tier and names the model in the source", async () => {
    const llm = model(['{"summary": "Deployed billing to staging after freeing port 8080"}']);
    const result = await summariseInteraction(llm, context, new LlmFallbacks(silentLogger));
    expect(result).toEqual({
      summary: "Deployed billing to staging after freeing port 8080",
      source: "llm:small",
    });
    expect(llm.requests[0]).toMatchObject({ tier: "cheap", purpose: "summary", json: true });
  });

  it("falls back to the extractive summary and counts it when the model fails", async () => {
    const fallbacks = new LlmFallbacks(silentLogger);
    const result = await summariseInteraction(model([new Error("down")]), context, fallbacks);
    expect(result).toMatchObject({
      summary: extractiveInteractionSummary(transcript),
      source: "extractive",
      error: "down",
    });
    expect(fallbacks.snapshot()).toEqual({ summary: 1 });
  });

  it("without a model is extractive and counts nothing", async () => {
    const fallbacks = new LlmFallbacks(silentLogger);
    const result = await summariseInteraction(undefined, context, fallbacks);
    expect(result.source).toBe("extractive");
    expect(fallbacks.snapshot()).toEqual({});
  });
});
