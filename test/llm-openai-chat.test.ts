/**
 * The OpenAI-compatible chat adapter against a real local server that speaks the API:
 * payload, auth, tiers, retries with backoff and Retry-After, timeouts, refused parameters,
 * usage counting, and structured output through completeJson.
 */
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createOpenAIChatModel, type OpenAIChatOptions } from "../src/adapters/llm/openai-chat.js";
import { completeJson } from "../src/core/llm/complete-json.js";
import type { ChatRequest } from "../src/core/ports.js";
import { type FakeOpenAI, reply, startFakeOpenAI } from "./support/fake-openai.js";

const fakes: FakeOpenAI[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

async function fake(options: Parameters<typeof startFakeOpenAI>[0] = {}) {
  const server = await startFakeOpenAI(options);
  fakes.push(server);
  return server;
}

const delays: number[] = [];
afterEach(() => {
  delays.length = 0;
});

function model(server: FakeOpenAI, extra: Partial<OpenAIChatOptions> = {}) {
  return createOpenAIChatModel(
    { baseUrl: server.baseUrl, model: "main-model", summaryModel: "cheap-model", ...extra },
    {
      sleep: async (ms) => {
        delays.push(ms);
      },
    },
  );
}

const ask = (extra: Partial<ChatRequest> = {}): ChatRequest => ({
  tier: "cheap",
  purpose: "test",
  messages: [{ role: "user", content: "Say hello as JSON" }],
  ...extra,
});

describe("openai chat adapter", () => {
  it("posts the common subset with the key, picks the tier's model and counts usage", async () => {
    const server = await fake();
    server.enqueue(
      reply.json({ hello: "world" }, { usage: { prompt_tokens: 11, completion_tokens: 5 } }),
      { content: "plain", usage: { prompt_tokens: 7, completion_tokens: 2 } },
    );
    const llm = model(server, { apiKey: "sk-test" });
    const first = await llm.chat(ask({ json: true, maxTokens: 50, temperature: 0 }));
    expect(first).toEqual({
      text: '{"hello":"world"}',
      model: "cheap-model",
      usage: { prompt_tokens: 11, completion_tokens: 5 },
    });
    const [request] = server.requests;
    expect(request!.path).toBe("/v1/chat/completions");
    expect(request!.authorization).toBe("Bearer sk-test");
    expect(request!.body).toEqual({
      model: "cheap-model",
      messages: [{ role: "user", content: "Say hello as JSON" }],
      stream: false,
      response_format: { type: "json_object" },
      max_tokens: 50,
      temperature: 0,
    });
    await llm.chat(ask({ tier: "main" }));
    expect(server.requests[1]!.body.model).toBe("main-model");
    expect(server.requests[1]!.body.response_format).toBeUndefined();
    expect(llm.usage()).toMatchObject({
      requests: 2,
      failures: 0,
      prompt_tokens: 18,
      completion_tokens: 7,
      tiers: {
        cheap: { requests: 1, prompt_tokens: 11, completion_tokens: 5 },
        main: { requests: 1 },
      },
    });
    expect(llm.id).toBe("openai:main-model");
    expect(llm.models).toEqual({ main: "main-model", cheap: "cheap-model" });
  });

  it("uses the main model for summaries when no summary model is set", async () => {
    const server = await fake();
    server.enqueue(reply.text("ok"));
    const llm = model(server, { summaryModel: undefined });
    await llm.chat(ask());
    expect(server.requests[0]!.body.model).toBe("main-model");
  });

  it("retries a 429 honouring Retry-After and a 500 with backoff, then succeeds", async () => {
    const server = await fake();
    server.enqueue(reply.rateLimited(2), reply.serverError(500), reply.text("finally"));
    const llm = model(server);
    expect((await llm.chat(ask())).text).toBe("finally");
    expect(server.requests).toHaveLength(3);
    expect(delays[0]).toBe(2000);
    expect(delays[1]).toBeGreaterThanOrEqual(500);
    expect(llm.usage()).toMatchObject({ requests: 1, failures: 0 });
  });

  it("caps a long Retry-After at 30 s", async () => {
    const server = await fake();
    server.enqueue(reply.rateLimited(3600), reply.text("ok"));
    await model(server).chat(ask());
    expect(delays).toEqual([30_000]);
  });

  it("times out a slow answer, retries, and fails with LLM_FAILED counted as a failure", async () => {
    const server = await fake();
    server.enqueue(reply.slow(1000, reply.text("late")), reply.slow(1000, reply.text("late")));
    const llm = model(server, { timeoutMs: 100, maxRetries: 1 });
    await expect(llm.chat(ask())).rejects.toMatchObject({
      code: "LLM_FAILED",
      message: expect.stringMatching(/timed out after 100 ms \(after 2 attempts\)/),
    });
    expect(server.requests).toHaveLength(2);
    expect(llm.usage()).toMatchObject({
      requests: 1,
      failures: 1,
      tiers: { cheap: { failures: 1 } },
    });
  });

  it("gives up after the retries on persistent 5xx", async () => {
    const server = await fake({ respond: () => reply.serverError(503) });
    const llm = model(server, { maxRetries: 2 });
    await expect(llm.chat(ask())).rejects.toMatchObject({
      code: "LLM_FAILED",
      details: expect.objectContaining({ status: 503, purpose: "test" }),
    });
    expect(server.requests).toHaveLength(3);
  });

  it("does not retry a 401 and never echoes the key", async () => {
    const server = await fake({
      respond: () => ({ status: 401, error: "Incorrect API key provided: sk-secret" }),
    });
    const llm = model(server, { apiKey: "sk-secret" });
    const error = await llm.chat(ask()).catch((caught: Error) => caught);
    expect(error).toMatchObject({ code: "LLM_FAILED" });
    expect((error as Error).message).toContain("HTTP 401");
    expect((error as Error).message).not.toContain("sk-secret");
    expect(server.requests).toHaveLength(1);
  });

  it("retries without response_format when the server refuses it, and remembers", async () => {
    const server = await fake({ rejectResponseFormat: true });
    server.enqueue(reply.text('{"a": 1}'), reply.text('{"a": 2}'));
    const llm = model(server);
    expect((await llm.chat(ask({ json: true }))).text).toBe('{"a": 1}');
    expect((await llm.chat(ask({ json: true }))).text).toBe('{"a": 2}');
    expect(server.requests.map((r) => r.body.response_format?.type ?? null)).toEqual([
      "json_object",
      null,
      null,
    ]);
    expect(llm.usage()).toMatchObject({ requests: 2, failures: 0 });
  });

  it("switches to max_completion_tokens for reasoning models that refuse max_tokens", async () => {
    const server = await fake();
    server.enqueue(
      {
        status: 400,
        error:
          "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      },
      reply.text("ok"),
    );
    await model(server).chat(ask({ maxTokens: 64 }));
    expect(server.requests[1]!.body.max_completion_tokens).toBe(64);
    expect(server.requests[1]!.body.max_tokens).toBeUndefined();
  });

  it("drops a reasoning model's <think> block", async () => {
    const server = await fake();
    server.enqueue(reply.text('<think>The user wants JSON {"x": 0}.</think>\n{"x": 1}'));
    expect((await model(server).chat(ask())).text).toBe('{"x": 1}');
  });

  it("fails with LLM_FAILED on an answer that is not a chat completion", async () => {
    const server = await fake();
    server.enqueue({ body: "<html>gateway</html>" }, { body: JSON.stringify({ choices: [] }) });
    const llm = model(server);
    await expect(llm.chat(ask())).rejects.toMatchObject({
      code: "LLM_FAILED",
      message: expect.stringContaining("not JSON"),
    });
    await expect(llm.chat(ask())).rejects.toMatchObject({ code: "LLM_FAILED" });
    expect(llm.usage().failures).toBe(2);
  });

  it("fails with LLM_FAILED when the server cannot be reached", async () => {
    const server = await fake();
    await server.close();
    const llm = model(server, { maxRetries: 1 });
    await expect(llm.chat(ask())).rejects.toMatchObject({
      code: "LLM_FAILED",
      message: expect.stringContaining("network error"),
    });
    expect(delays).toHaveLength(1);
  });

  it("rejects a bad base URL with CONFIG_INVALID", () => {
    expect(() => createOpenAIChatModel({ baseUrl: "ftp://x/v1", model: "m" })).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID" }),
    );
    expect(() => createOpenAIChatModel({ baseUrl: "http://u:p@x/v1", model: "m" })).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID" }),
    );
  });
});

describe("structured output from a real endpoint", () => {
  const Summary = z.object({ summary: z.string().max(20) });

  it("repairs prose, fences and trailing commas", async () => {
    const server = await fake();
    server.enqueue(reply.brokenJson({ summary: "fixed the build" }));
    const result = await completeJson(model(server), ask(), Summary);
    expect(result).toEqual({ value: { summary: "fixed the build" }, attempts: 1 });
  });

  it("asks again after an answer of the wrong shape, telling the model what was wrong", async () => {
    const server = await fake();
    server.enqueue(reply.json({ text: "wrong key" }), reply.json({ summary: "right" }));
    const result = await completeJson(model(server), ask(), Summary);
    expect(result.attempts).toBe(2);
    const retry = server.requests[1]!.body.messages;
    expect(retry.at(-2)).toEqual({ role: "assistant", content: '{"text":"wrong key"}' });
    expect(retry.at(-1)!.content).toContain("summary");
  });

  it("fails with LLM_FAILED when every answer is unusable", async () => {
    const server = await fake({ respond: () => reply.text("I would rather not.") });
    const llm = model(server);
    await expect(completeJson(llm, ask(), Summary)).rejects.toMatchObject({ code: "LLM_FAILED" });
    expect(server.requests).toHaveLength(2);
  });
});
