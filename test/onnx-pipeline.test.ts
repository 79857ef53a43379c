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
import { openOnnxPipeline } from "../src/adapters/embedders/onnx-pipeline.mjs";

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
  options: { pooling: "mean" | "cls"; normalize: boolean },
) => Promise<{ vectors: Float32Array; width: number }>;
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
