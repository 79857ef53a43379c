/**
 * The local embedder runs a model directory with onnxruntime-node directly
 * (src/adapters/embedders/onnx-pipeline.mjs) instead of transformers.js's feature-extraction
 * pipeline, which it used before: every memory stored until then carries the pipeline's
 * vectors, so the two must agree — same tokens, padding, truncation, pooling and rounding. Both
 * fetched models, a batch of short, long (past the model's maximum length) and mixed-language
 * texts, mean pooling and normalisation as the embedder asks, CLS pooling as BGE-style models
 * would.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error plain JavaScript beside the worker, without declarations of its argument
import { lengthBatches, openOnnxPipeline } from "../src/adapters/embedders/onnx-pipeline.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MODELS = process.env.HINDSIGHT_TEST_MODELS_DIR || path.join(ROOT, ".cache", "models");
const inCi = process.env.CI === "true";

const TEXTS = [
  "passage: deploy: Deploy failed: port 8080 already in use",
  "query: why did the deploy fail?",
  "passage: 我穿的运动鞋是亚瑟士Gel-Kayano26，跑起来很舒服",
  "query: 端口占用怎么办",
  "passage: mixed 中文 and English, emoji 😀, ＡＢＣ full width",
  "x",
  `passage: ${"a long memory about billing and invoices ".repeat(60)}`,
  "长".repeat(700),
];

type Embed = (
  texts: string[],
  options: { pooling: "mean" | "cls"; normalize: boolean; batchSize?: number },
) => Promise<{ vectors: Float32Array; width: number }>;

describe("lengthBatches", () => {
  const batches = lengthBatches as (lengths: number[], batchSize: number) => number[][];

  it("groups texts of similar length, ties in their order, every position once", () => {
    expect(batches([9, 2, 30, 2, 5, 40, 1], 3)).toEqual([[6, 1, 3], [4, 0, 2], [5]]);
  });

  it("keeps the order of texts that fit one batch", () => {
    expect(batches([9, 2, 30], 3)).toEqual([[0, 1, 2]]);
    expect(batches([], 3)).toEqual([]);
  });
});
type Pipeline = (
  texts: string[],
  options: { pooling: "mean" | "cls"; normalize: boolean },
) => Promise<{ data: Float32Array; dims: number[] }>;

const MODEL_FILES = [
  { name: "multilingual-e5-small-q4", dtype: "q4", modelFile: "onnx/model_q4.onnx" },
  { name: "all-minilm-l6-v2-int8", dtype: "int8", modelFile: "onnx/model_int8.onnx" },
];

for (const { name, dtype, modelFile } of MODEL_FILES) {
  const dir = path.join(MODELS, name);
  const present = existsSync(path.join(dir, "tokenizer.json"));

  describe.runIf(!present && inCi)(`${name} under CI`, () => {
    it("is fetched before the tests run", () => {
      expect.fail(`run npm run fetch:model first: no ${name} in ${MODELS}`);
    });
  });

  describe.skipIf(!present)(`${name} through onnxruntime directly`, () => {
    let ours: Embed;
    let pipeline: Pipeline;
    beforeAll(async () => {
      ours = await openOnnxPipeline(dir, { modelFile });
      const transformers = await import("@huggingface/transformers");
      transformers.env.allowRemoteModels = false;
      transformers.env.localModelPath = MODELS;
      pipeline = (await transformers.pipeline("feature-extraction", name, {
        dtype: dtype as "q4",
      })) as unknown as Pipeline;
    });

    for (const options of [
      { pooling: "mean", normalize: true },
      { pooling: "cls", normalize: false },
    ] as const) {
      it(`gives transformers.js's vectors (${options.pooling} pooling, normalize ${options.normalize})`, async () => {
        const { vectors, width } = await ours(TEXTS, options);
        const reference = await pipeline(TEXTS, options);
        expect([TEXTS.length, width]).toEqual(reference.dims);
        let worst = 0;
        for (let i = 0; i < vectors.length; i++) {
          worst = Math.max(worst, Math.abs(vectors[i]! - reference.data[i]!));
        }
        expect(worst).toBeLessThan(1e-6);
      });
    }

    it("gives every text its own vector, in the order given, when run in batches by length", async () => {
      const options = { pooling: "mean", normalize: true } as const;
      // Shuffled so that batches of three regroup them: longest and shortest side by side.
      const texts = [TEXTS[6]!, TEXTS[5]!, TEXTS[2]!, TEXTS[7]!, TEXTS[1]!, TEXTS[4]!, TEXTS[0]!];
      const whole = await ours(texts, options);
      const batched = await ours(texts, { ...options, batchSize: 3 });
      expect(batched.width).toBe(whole.width);
      expect(batched.vectors.length).toBe(texts.length * whole.width);
      for (const [index, text] of texts.entries()) {
        const alone = await ours([text], options);
        const row = batched.vectors.subarray(index * whole.width, (index + 1) * whole.width);
        let worst = 0;
        for (let i = 0; i < row.length; i++)
          worst = Math.max(worst, Math.abs(row[i]! - alone.vectors[i]!));
        expect(worst, text.slice(0, 40)).toBeLessThan(1e-5);
      }
    });

    it("gives a text the same vector alone as in a padded batch", async () => {
      const options = { pooling: "mean", normalize: true } as const;
      const batch = await ours(TEXTS, options);
      const alone = await ours([TEXTS[1]!], options);
      const row = batch.vectors.subarray(batch.width, 2 * batch.width);
      let worst = 0;
      for (let i = 0; i < row.length; i++)
        worst = Math.max(worst, Math.abs(row[i]! - alone.vectors[i]!));
      expect(worst).toBeLessThan(1e-5);
    });
  });
}
