/**
 * Issue #5's "done when" against a real OpenAI-compatible endpoint (the fake server on
 * loopback): consolidating 12 similar episodes uses the model and cites the episodes; when the
 * model keeps answering garbage, the statistical fallback runs and nothing is lost.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createHindsight, type Hindsight } from "../src/index.js";
import { type FakeOpenAI, lastUserMessage, reply, startFakeOpenAI } from "./support/fake-openai.js";

const opened: { memory: Hindsight; fake: FakeOpenAI }[] = [];

afterEach(async () => {
  for (const { memory, fake } of opened.splice(0)) {
    await memory.close();
    await fake.close();
  }
});

async function openWith(respond: Parameters<typeof startFakeOpenAI>[0]) {
  const fake = await startFakeOpenAI(respond);
  const memory = await createHindsight({
    embedder: { kind: "hash" },
    dataDir: "memory://",
    llm: { provider: "openai", baseUrl: fake.baseUrl, model: "test-main", maxRetries: 0 },
  });
  opened.push({ memory, fake });
  const ids: string[] = [];
  for (let n = 0; n < 12; n++) {
    const failed = n % 3 === 0;
    const { id } = await memory.storeEpisodic({
      task_type: "deploy",
      summary: failed
        ? `deploy ${n} failed: port 8080 already in use`
        : `deploy ${n} succeeded after freeing port 8080`,
      outcome: failed ? "failure" : "success",
    });
    ids.push(id);
  }
  return { memory, fake, ids };
}

describe("consolidation through an OpenAI-compatible endpoint", () => {
  it("uses the model's patterns and cites the episodes they came from", async () => {
    const { memory, fake, ids } = await openWith({
      respond: (request) => {
        const failures = lastUserMessage(request)
          .split("\n")
          .filter((line) => /^\d+\. \[failure\]/.test(line))
          .map((line) => Number(line.split(".")[0]));
        return reply.json({
          patterns: [
            {
              rule: "Deploys fail when port 8080 is taken",
              advice: "Free port 8080 before deploying",
              episodes: failures,
            },
          ],
        });
      },
    });
    const result = await memory.consolidate({});
    expect(fake.requests.length).toBeGreaterThan(0);
    expect(fake.requests[0]!.body.model).toBe("test-main");
    expect(result.created).toHaveLength(1);
    const created = result.created[0]!;
    expect(created.value).toContain("Free port 8080");
    expect(created.sources.length).toBe(4);
    for (const source of created.sources) expect(ids).toContain(source);
    const history = await memory.history({ memory_id: created.id });
    expect(history.sources.sort()).toEqual([...created.sources].sort());
    expect((await memory.stats()).llm?.requests).toBeGreaterThan(0);
  }, 60_000);

  it("falls back to statistics when the model's answers are unusable, losing nothing", async () => {
    const { memory, fake } = await openWith({
      respond: () => reply.text("I'm sorry, I can't produce JSON today."),
    });
    const result = await memory.consolidate({});
    expect(fake.requests.length).toBeGreaterThanOrEqual(2); // the answer, and the corrective retry
    expect(result.created.length).toBeGreaterThan(0);
    const [pattern] = await memory
      .recall({ query_text: "deploy outcome", memory_layer: "semantic" })
      .then((r) => r.results);
    expect(pattern?.metadata).toMatchObject({ consolidation: { method: "statistical" } });
    const stats = await memory.stats();
    expect(stats.episodic.total).toBe(12);
    // Counted as a fallback, not hidden: stats.llm.fallbacks names the purpose.
    expect(
      Object.values(stats.llm?.fallbacks ?? {}).reduce((sum, n) => sum + n, 0),
    ).toBeGreaterThan(0);
  }, 60_000);
});
