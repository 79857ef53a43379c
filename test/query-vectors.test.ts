/**
 * A service embeds a query it was asked before from memory (core/query-vectors): recall and
 * summarize of the same words cost the model once, and the answers are the same as when the
 * query was embedded.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHashEmbedder } from "../src/adapters/embedders/hash.js";
import type { Embedder, EmbedPurpose } from "../src/core/ports.js";
import type { MemoryService } from "../src/core/service.js";
import { openLifecycleService } from "./support/lifecycle.js";

describe("a query asked again", () => {
  const asked: { texts: readonly string[]; purpose: EmbedPurpose | undefined }[] = [];
  let memory: MemoryService;

  beforeAll(async () => {
    const hash = createHashEmbedder();
    const embedder: Embedder = {
      ...hash,
      embed: (texts, purpose) => {
        asked.push({ texts, purpose });
        return hash.embed(texts, purpose);
      },
    };
    memory = await openLifecycleService({ dataDir: "memory://" }, { embedder });
    await memory.storeEpisodicBatch([
      {
        task_type: "deploy",
        summary: "billing deploy failed: port 8080 in use",
        outcome: "failure",
      },
      { task_type: "ops", summary: "rotated the staging certificates", outcome: "success" },
    ]);
  });
  afterAll(async () => {
    await memory?.close();
  });

  const queries = () => asked.filter(({ purpose }) => purpose === "query");

  it("is embedded once, and finds what it found the first time", async () => {
    asked.length = 0;
    const first = await memory.recall({ query_text: "why did the billing deploy fail?" });
    const again = await memory.recall({ query_text: "why did the billing deploy fail?" });
    // The same memories in the same order (scores move: the first recall counted as an access).
    expect(again.results.map(({ id }) => id)).toEqual(first.results.map(({ id }) => id));
    expect(first.results[0]).toMatchObject({ summary: expect.stringContaining("port 8080") });
    expect(queries()).toHaveLength(1);

    await memory.summarize({ query_text: "why did the billing deploy fail?" });
    expect(queries()).toHaveLength(1);
  });

  it("in other words is embedded", async () => {
    asked.length = 0;
    await memory.recall({ query_text: "which certificates were rotated?" });
    expect(queries()).toHaveLength(1);
  });

  it("asked twice at once is embedded once, and both find the same", async () => {
    asked.length = 0;
    const [one, other] = await Promise.all([
      memory.recall({ query_text: "which port was in use?" }),
      memory.recall({ query_text: "which port was in use?" }),
    ]);
    expect(other.results.map(({ id }) => id)).toEqual(one.results.map(({ id }) => id));
    expect(one.results[0]).toMatchObject({ summary: expect.stringContaining("port 8080") });
    expect(queries()).toHaveLength(1);
  });

  it("never stands in for a memory's own embedding", async () => {
    asked.length = 0;
    await memory.recall({ query_text: "cache warming" });
    await memory.storeEpisodic({ task_type: "ops", summary: "cache warming", outcome: "success" });
    expect(asked.map(({ purpose }) => purpose ?? "document")).toEqual(["query", "document"]);
  });
});
