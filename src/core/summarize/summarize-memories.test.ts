import { describe, expect, it } from "vitest";
import { createHashEmbedder } from "../../adapters/embedders/hash.js";
import { silentLogger } from "../../adapters/logger.js";
import { cl100k } from "../../adapters/tokens.js";
import { LlmFallbacks } from "../llm/fallbacks.js";
import type { StoredMemory } from "../memories/ports.js";
import type { ChatRequest, LanguageModel } from "../ports.js";
import { extractiveSummary, groupByTopic, summarizeMemories } from "./summarize-memories.js";

function episode(
  id: string,
  task_type: string,
  summary: string,
  outcome: "success" | "failure" = "success",
): StoredMemory {
  const at = new Date("2025-03-01T00:00:00Z");
  return {
    layer: "episodic",
    id,
    occurred_at: at,
    recorded_at: at,
    task_type,
    summary,
    outcome,
    metadata: {},
    tags: [],
    source: null,
    subject: null,
    user_id: null,
    agent_id: null,
    session_id: null,
    confidence: 1,
    access_count: 0,
    last_accessed_at: null,
    decay_score: 1,
    status: "active",
  };
}

const memories: StoredMemory[] = [
  episode("a", "deploy", "Deploy of billing failed: port 8080 in use", "failure"),
  episode("b", "deploy", "Deploy of search succeeded after freeing the port"),
  episode("c", "code_review", "Found a race condition in refunds"),
  episode("d", "deploy", "部署支付服务失败，数据库迁移超时", "failure"),
];

describe("extractive summary", () => {
  it("groups by topic with outcome counts and keeps every memory when the budget allows", () => {
    const result = extractiveSummary(memories, 200, cl100k);
    expect(result.summary.split("\n")[0]).toBe("deploy (3: 2 failure, 1 success)");
    expect(result.summary).toContain("code_review (1: 1 success)");
    expect(new Set(result.memory_ids)).toEqual(new Set(["a", "b", "c", "d"]));
    expect(result.groups.map((g) => g.topic)).toEqual(["deploy", "code_review"]);
    expect(result.tokens).toBe(cl100k.count(result.summary));
  });

  it.each([20, 30, 45, 60])("stays within a budget of %i tokens", (budget) => {
    const result = extractiveSummary(memories, budget, cl100k);
    expect(result.tokens).toBeLessThanOrEqual(budget);
    expect(result.summary.length).toBeGreaterThan(0);
  });

  it("takes from each topic in turn rather than exhausting the first", () => {
    const result = extractiveSummary(memories, 60, cl100k);
    expect(result.memory_ids).toEqual(["a", "c"]);
  });

  it("summarises nothing to an empty text", () => {
    expect(extractiveSummary([], 200, cl100k)).toMatchObject({
      summary: "",
      tokens: 0,
      memory_ids: [],
    });
  });
});

describe("grouping by topic and meaning", () => {
  const ports = [0, 1, 2, 3].map((i) =>
    episode(
      `p${i}`,
      "deploy",
      `Deploy ${i} failed: port 8080 already in use by another process`,
      "failure",
    ),
  );
  const migrations = [0, 1, 2, 3].map((i) =>
    episode(
      `m${i}`,
      "deploy",
      `Deploy ${i} database migration timed out on the orders table`,
      "failure",
    ),
  );
  const mixed = [
    ports[0]!,
    migrations[0]!,
    ports[1]!,
    migrations[1]!,
    ports[2]!,
    migrations[2]!,
    ports[3]!,
    migrations[3]!,
  ];

  it("splits a large topic into clusters of similar memories, named by a distinctive word", async () => {
    const vectors = await createHashEmbedder().embed(
      mixed.map((m) => `deploy: ${m.layer === "episodic" ? m.summary : ""}`),
    );
    const groups = groupByTopic(mixed, vectors);
    expect(groups).toHaveLength(2);
    expect(groups.map((group) => group.members.map((m) => m.id).sort())).toEqual([
      ["p0", "p1", "p2", "p3"],
      ["m0", "m1", "m2", "m3"],
    ]);
    expect(groups.map((group) => group.topic)).toEqual([
      "deploy: port, process",
      "deploy: database, migration",
    ]);
  });

  it("keeps a small topic whole", async () => {
    const vectors = await createHashEmbedder().embed(memories.map((m) => m.id));
    expect(groupByTopic(memories, vectors).map((group) => group.topic)).toEqual([
      "deploy",
      "code_review",
    ]);
  });
});

/** A model answering each group from a script; records what it was asked. */
function scripted(answer: (request: ChatRequest) => string | Error) {
  const requests: ChatRequest[] = [];
  const llm: LanguageModel = {
    id: "fake:main",
    models: { main: "main", cheap: "small" },
    async chat(request) {
      requests.push(structuredClone(request));
      const text = answer(request);
      if (text instanceof Error) throw text;
      return { text, model: "small", usage: { prompt_tokens: 10, completion_tokens: 5 } };
    },
    usage: () => ({
      requests: requests.length,
      failures: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
    }),
  };
  return { llm, requests };
}

const topicOfRequest = (request: ChatRequest) =>
  /Topic: (.*)/.exec(request.messages.at(-1)!.content)?.[1];

/** Eight memories whose verbatim lines need far more than 200 tokens. */
const eight: StoredMemory[] = Array.from({ length: 8 }, (_, i) =>
  episode(
    `e${i}`,
    i < 5 ? "deploy" : "code_review",
    i < 5
      ? `Deploy attempt ${i} of the billing service to the staging cluster failed because port 8080 was still held by the previous release's pod, which had not terminated; the agent deleted the pod, re-applied the manifest and verified the health endpoint before closing the ticket`
      : `Code review ${i} of the refunds module found a race condition between the webhook handler and the nightly reconciliation job, fixed by taking a row lock on the refund record and adding an idempotency key; tests were added for the concurrent path`,
    i % 2 === 0 ? "failure" : "success",
  ),
);

function deps(llm?: LanguageModel) {
  const fallbacks = new LlmFallbacks(silentLogger);
  return {
    fallbacks,
    deps: {
      tokens: cl100k,
      fallbacks,
      llm,
      embed: (texts: string[]) => createHashEmbedder().embed(texts),
    },
  };
}

describe("summarizeMemories", () => {
  it("compresses each topic group with the cheap model within the budget", async () => {
    const { llm, requests } = scripted((request) =>
      JSON.stringify({
        summary:
          topicOfRequest(request) === "deploy"
            ? "Billing deploys to staging kept failing on port 8080 held by the old pod; deleting the pod and re-applying fixed it."
            : "Refund reviews found a webhook/reconciliation race, fixed with a row lock and an idempotency key.",
      }),
    );
    const verbatim = cl100k.count(
      eight.map((m) => (m.layer === "episodic" ? m.summary : "")).join("\n"),
    );
    const result = await summarizeMemories(eight, 200, deps(llm).deps);
    expect(verbatim).toBeGreaterThan(350);
    expect(result.method).toBe("llm");
    expect(result.model).toBe("small");
    expect(result.tokens).toBeLessThanOrEqual(200);
    expect(result.tokens).toBe(cl100k.count(result.summary));
    expect(result.groups).toEqual([
      { topic: "deploy", memory_ids: ["e0", "e1", "e2", "e3", "e4"], method: "llm" },
      { topic: "code_review", memory_ids: ["e5", "e6", "e7"], method: "llm" },
    ]);
    expect(new Set(result.memory_ids)).toEqual(new Set(eight.map((m) => m.id)));
    expect(result.summary.split("\n")[0]).toBe("deploy (5: 3 failure, 2 success)");
    expect(
      requests.every((request) => request.tier === "cheap" && request.purpose === "summarize"),
    ).toBe(true);
    // The deploy group holds 5 of 8 memories: the larger share of the budget.
    const budgetOf = (request: ChatRequest) =>
      Number(/at most (\d+) tokens/.exec(request.messages[0]!.content)?.[1]);
    const byTopic = new Map(
      requests.map((request) => [topicOfRequest(request), budgetOf(request)]),
    );
    expect(byTopic.get("deploy")!).toBeGreaterThan(byTopic.get("code_review")!);
    expect(byTopic.get("deploy")! + byTopic.get("code_review")!).toBeLessThanOrEqual(200);
  });

  it("asks again when a part is over its share, saying by how much", async () => {
    let calls = 0;
    const { llm, requests } = scripted(() =>
      JSON.stringify({ summary: calls++ === 0 ? "word ".repeat(300) : "Short and within budget." }),
    );
    const result = await summarizeMemories(eight.slice(0, 5), 60, deps(llm).deps);
    expect(result.method).toBe("llm");
    expect(result.tokens).toBeLessThanOrEqual(60);
    expect(requests[1]!.messages.at(-1)!.content).toMatch(/is 30\d tokens; it must be at most \d+/);
  });

  it("falls back to the extractive summary with a note when the model fails", async () => {
    const { llm } = scripted(() => new Error("HTTP 500 after 4 attempts"));
    const { deps: d, fallbacks } = deps(llm);
    const result = await summarizeMemories(eight, 200, d);
    expect(result).toEqual({
      ...extractiveSummary(eight, 200, cl100k),
      note: "the language model failed (HTTP 500 after 4 attempts); the summary is extractive",
    });
    expect(result.tokens).toBeLessThanOrEqual(200);
    expect(fallbacks.snapshot()).toEqual({ summarize: 2 });
  });

  it("keeps the parts the model wrote when it fails for some groups", async () => {
    const { llm } = scripted((request) =>
      topicOfRequest(request) === "deploy"
        ? JSON.stringify({ summary: "Port 8080 blocked deploys." })
        : "no JSON here",
    );
    const result = await summarizeMemories(eight, 200, deps(llm).deps);
    expect(result.method).toBe("llm");
    expect(result.groups.map((group) => group.method)).toEqual(["llm", "extractive"]);
    expect(result.note).toMatch(/failed for 1 of 2 groups/);
    expect(result.tokens).toBeLessThanOrEqual(200);
    expect(result.groups[1]!.memory_ids.length).toBeGreaterThan(0);
  });

  it("does not call the model for a group that already fits its share", async () => {
    const { llm, requests } = scripted(() => new Error("should not be called"));
    const result = await summarizeMemories(memories, 200, deps(llm).deps);
    expect(requests).toHaveLength(0);
    expect(result.method).toBe("extractive");
    expect(new Set(result.memory_ids)).toEqual(new Set(["a", "b", "c", "d"]));
  });

  it("without a model is the extractive summary", async () => {
    const result = await summarizeMemories(eight, 200, deps().deps);
    expect(result).toEqual(extractiveSummary(eight, 200, cl100k));
    expect(result.method).toBe("extractive");
  });
});
