import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Embedder, EmbedPurpose } from "../core/ports.js";
import { cachingEmbedder } from "./embedding-cache.js";

/** Vectors that depend on the text and the purpose; counts what it is asked. */
function countingEmbedder(): Embedder & { asked: string[] } {
  const asked: string[] = [];
  return {
    id: "fake",
    dimensions: 3,
    similarity: { unrelated: 0.1, related: 0.6 },
    asked,
    async embed(texts, purpose: EmbedPurpose = "document") {
      asked.push(...texts.map((text) => `${purpose}:${text}`));
      return texts.map((text) =>
        Float32Array.from([text.length, purpose === "query" ? 1 : 0, 0.5]),
      );
    },
  };
}

describe("the evaluation's embedding cache", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "hindsight-cache-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("embeds each text once per purpose, and again in the next run only what is new", async () => {
    const file = path.join(dir, "cache.bin");
    const inner = countingEmbedder();
    const first = await cachingEmbedder(inner, file);
    expect(first.similarity).toEqual(inner.similarity);
    const vectors = await first.embed(["a", "bb", "a"], "document");
    await first.embed(["a"], "query");
    expect(inner.asked).toEqual(["document:a", "document:bb", "query:a"]);
    expect(Array.from(vectors[2]!)).toEqual([1, 0, 0.5]);
    await first.flush();

    const again = countingEmbedder();
    const second = await cachingEmbedder(again, file);
    const cached = await second.embed(["bb", "ccc"], "document");
    expect(again.asked).toEqual(["document:ccc"]);
    expect(Array.from(cached[0]!)).toEqual([2, 0, 0.5]);
    expect(Array.from((await second.embed(["a"], "query"))[0]!)).toEqual([1, 1, 0.5]);
  });

  it("refuses a file of another dimension", async () => {
    const file = path.join(dir, "other.bin");
    await writeFile(file, Buffer.alloc(32 + 4 * 5));
    await expect(cachingEmbedder(countingEmbedder(), file)).rejects.toThrow(/3-dimension/);
  });
});
