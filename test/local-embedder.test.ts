/**
 * The local embedder against a real sentence-embedding model (all-MiniLM-L6-v2, int8 ONNX),
 * fetched by `npm run fetch:model`. The model directory comes from HINDSIGHT_TEST_MODEL_DIR or,
 * failing that, the fetch script's default cache directory. Without either the tests skip,
 * except under CI, where a missing model is an error: CI is where this path must be proven.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Embedder } from "../src/core/ports.js";
import { hashEmbed } from "../src/embedders/hash.js";
import { createLocalEmbedder } from "../src/embedders/local.js";
import { createHindsight, type Hindsight } from "../src/index.js";

const MODEL_NAME = "all-minilm-l6-v2-int8";
const DEFAULT_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  ".cache",
  "models",
  MODEL_NAME,
);
const envDir = process.env.HINDSIGHT_TEST_MODEL_DIR || undefined;
const modelDir = envDir ?? (existsSync(DEFAULT_DIR) ? DEFAULT_DIR : undefined);
const inCi = process.env.CI === "true";

const DEPLOY = "How do I deploy the service?";
const RELEASE = "Steps to release the application to production";
const CAT = "The cat is sleeping on the sofa.";
const TAX = "Quarterly tax returns are due in April.";

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}
const norm = (vector: Float32Array) => Math.sqrt(dot(vector, vector));
/** Cosine similarity, computed in full so that it does not rely on unit inputs. */
const cosine = (a: Float32Array, b: Float32Array) => dot(a, b) / (norm(a) * norm(b));

describe.runIf(modelDir === undefined && inCi)("local embedder model under CI", () => {
  it("is fetched before the tests run", () => {
    expect.fail(
      `no model for the local embedder: HINDSIGHT_TEST_MODEL_DIR is unset and ${DEFAULT_DIR} ` +
        "does not exist; run `npm run fetch:model` before the tests (CI=true makes this an error)",
    );
  });
});

describe.skipIf(modelDir === undefined)(`local embedder with ${MODEL_NAME}`, () => {
  let embedder: Embedder;

  beforeAll(async () => {
    embedder = await createLocalEmbedder({ modelDir: modelDir! });
  });
  afterAll(async () => {
    await embedder?.close?.();
  });

  it("reports 384 dimensions and returns unit vectors of that size", async () => {
    expect(embedder.dimensions).toBe(384);
    expect(embedder.id).toBe(`local:${path.basename(path.resolve(modelDir!))}`);
    const vectors = await embedder.embed([DEPLOY, RELEASE, "用户偏好用中文回复", "x"]);
    expect(vectors).toHaveLength(4);
    for (const vector of vectors) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector).toHaveLength(384);
      expect(norm(vector)).toBeCloseTo(1, 4);
      expect(vector.every(Number.isFinite)).toBe(true);
    }
  });

  it("scores a paraphrase with no shared words above unrelated sentences", async () => {
    const [deploy, release, cat, tax] = await embedder.embed([DEPLOY, RELEASE, CAT, TAX]);
    const related = cosine(deploy!, release!);
    expect(related).toBeGreaterThan(0.35); // 0.455 measured; fp32 reference 0.456
    expect(related).toBeGreaterThan(cosine(deploy!, cat!) + 0.25);
    expect(related).toBeGreaterThan(cosine(deploy!, tax!) + 0.25);
    expect(related).toBeGreaterThan(cosine(release!, cat!) + 0.25);
    // The built-in hash embedder matches shared words only, and these two share none.
    const hashRelated = cosine(hashEmbed(DEPLOY), hashEmbed(RELEASE));
    expect(hashRelated).toBeLessThan(0.15);
    expect(related).toBeGreaterThan(hashRelated + 0.25);
  });

  it("gives the same vector for a text whatever its batch and padding", async () => {
    const long = Array.from({ length: 60 }, (_, i) => `memory item ${i}`).join(", ");
    const [alone] = await embedder.embed([RELEASE]);
    const batched = await embedder.embed([long, RELEASE, CAT]);
    expect(cosine(alone!, batched[1]!)).toBeGreaterThan(0.9999);
    // A batch size smaller than the input exercises the batching loop.
    const small = await createLocalEmbedder({ modelDir: modelDir!, batchSize: 2 });
    try {
      const split = await small.embed([long, RELEASE, CAT]);
      expect(split).toHaveLength(3);
      split.forEach((vector, i) => {
        expect(cosine(vector, batched[i]!)).toBeGreaterThan(0.9999);
      });
    } finally {
      await small.close?.();
    }
  });

  it("embeds texts longer than the model's 256-token window", async () => {
    const long = Array.from({ length: 400 }, (_, i) => `word${i}`).join(" ");
    const [vector] = await embedder.embed([long]);
    expect(vector).toHaveLength(384);
    expect(norm(vector!)).toBeCloseTo(1, 4);
  });

  describe("through the library", () => {
    let memory: Hindsight;
    let deployId: string;

    beforeAll(async () => {
      memory = await createHindsight({
        dataDir: "memory://",
        embedder: { kind: "local", modelDir: modelDir! },
      });
      deployId = (
        await memory.storeEpisodic({
          task_type: "ops",
          summary: "Steps to release the application to production: build, tag, roll out",
          outcome: "success",
        })
      ).id;
      await memory.storeEpisodic({
        task_type: "chores",
        summary: "The cat is sleeping on the sofa all afternoon",
        outcome: "success",
      });
    });
    afterAll(async () => {
      await memory?.close();
    });

    it("stores vectors from the local model", async () => {
      const stats = await memory.stats();
      expect(stats.embedder).toBe(`local:${path.basename(path.resolve(modelDir!))}`);
      expect(stats.episodic.total).toBe(2);
    });

    it("recalls the paraphrase first, though the query shares no word with it", async () => {
      const { results } = await memory.recall({ query_text: "How do I deploy the service?" });
      expect(results.length).toBeGreaterThan(0);
      expect(results[0]!.id).toBe(deployId);
      // Found by meaning: the vector signal carries the score, not keyword overlap.
      expect(results[0]!.signals.vector).toBeGreaterThan(10 * results[0]!.signals.keyword);
    });
  });
});
