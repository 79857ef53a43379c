/**
 * The local embedder against the real models `hindsight fetch-model` (npm run fetch:model)
 * installs: the default, multilingual-e5-small (4-bit, centred and calibrated), and the
 * English-only all-MiniLM-L6-v2. The same cases run on both; e5 must also read Chinese and
 * match across languages. Models come from HINDSIGHT_TEST_MODELS_DIR or the fetch script's
 * default directory. Without them the tests skip, except under CI, where a missing model is
 * an error: CI is where this path must be proven.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashEmbed } from "../src/adapters/embedders/hash.js";
import { createLocalEmbedder, midpoint } from "../src/adapters/embedders/local.js";
import type { Embedder } from "../src/core/ports.js";
import { calibratedSimilarity } from "../src/core/similarity.js";
import { createHindsight, type Hindsight } from "../src/index.js";

const MODELS_DIR =
  process.env.HINDSIGHT_TEST_MODELS_DIR ||
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", ".cache", "models");
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

const MODELS = [
  { name: "multilingual-e5-small-q4", multilingual: true },
  { name: "all-minilm-l6-v2-int8", multilingual: false },
].map((model) => ({ ...model, dir: path.join(MODELS_DIR, model.name) }));

for (const model of MODELS) {
  const present = existsSync(path.join(model.dir, "hindsight-model.json"));

  describe.runIf(!present && inCi)(`${model.name} under CI`, () => {
    it("is fetched before the tests run", () => {
      expect.fail(
        `no ${model.name} in ${MODELS_DIR}; run \`npm run fetch:model -- --model ${model.name}\` ` +
          "before the tests (CI=true makes this an error)",
      );
    });
  });

  describe.skipIf(!present)(`local embedder with ${model.name}`, () => {
    let embedder: Embedder;
    /** Cosine on hindsight's reference scale, as ranking sees it. */
    const similarity = (a: Float32Array, b: Float32Array) =>
      calibratedSimilarity(cosine(a, b), embedder.similarity);

    beforeAll(async () => {
      embedder = await createLocalEmbedder({ modelDir: model.dir });
    });
    afterAll(async () => {
      await embedder?.close?.();
    });

    it("reports 384 dimensions and returns unit vectors of that size", async () => {
      expect(embedder.dimensions).toBe(384);
      expect(embedder.id).toBe(`local:${model.name}`);
      const vectors = await embedder.embed([DEPLOY, RELEASE, "用户偏好用中文回复", "x", ""]);
      expect(vectors).toHaveLength(5);
      for (const vector of vectors) {
        expect(vector).toBeInstanceOf(Float32Array);
        expect(vector).toHaveLength(384);
        expect(norm(vector)).toBeCloseTo(1, 4);
        expect(vector.every(Number.isFinite)).toBe(true);
      }
    });

    it("scores a paraphrase with no shared words above unrelated sentences", async () => {
      const [deploy] = await embedder.embed([DEPLOY], "query");
      const [release, cat, tax] = await embedder.embed([RELEASE, CAT, TAX], "document");
      // On the calibrated scale: MiniLM 0.455 (fp32 reference 0.456), e5 0.268; unrelated
      // pairs of the regression set lie under 0.25 nine times in ten.
      const related = similarity(deploy!, release!);
      expect(related).toBeGreaterThan(0.2);
      expect(related).toBeGreaterThan(similarity(deploy!, cat!) + 0.25);
      expect(related).toBeGreaterThan(similarity(deploy!, tax!) + 0.25);
      // The built-in hash embedder matches shared words only, and these two share none: it
      // hardly tells the paraphrase from the unrelated sentence.
      const hashMargin =
        cosine(hashEmbed(DEPLOY), hashEmbed(RELEASE)) - cosine(hashEmbed(DEPLOY), hashEmbed(CAT));
      expect(hashMargin).toBeLessThan(0.15);
      expect(related - similarity(deploy!, cat!)).toBeGreaterThan(hashMargin + 0.15);
    });

    it("gives the same vector for a text whatever its batch and padding", async () => {
      const long = Array.from({ length: 60 }, (_, i) => `memory item ${i}`).join(", ");
      const [alone] = await embedder.embed([RELEASE]);
      const batched = await embedder.embed([long, RELEASE, CAT]);
      expect(cosine(alone!, batched[1]!)).toBeGreaterThan(0.9999);
      // A batch size smaller than the input exercises the batching loop.
      const small = await createLocalEmbedder({ modelDir: model.dir, batchSize: 2 });
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

    it("leaves the event loop free while the model runs", async () => {
      // The model runs on its own thread: a server answers other requests, and the embedded
      // database writes, while a batch is embedded. Counted in loop turns, not in time.
      const texts = Array.from({ length: 64 }, (_, i) => `${RELEASE} (${i})`);
      let turns = 0;
      let done = false;
      const embedding = embedder.embed(texts).finally(() => {
        done = true;
      });
      while (!done) {
        await new Promise((resolve) => setImmediate(resolve));
        turns += 1;
      }
      expect(await embedding).toHaveLength(64);
      // In-process, onnxruntime held the loop for the whole batch: a handful of turns at most.
      expect(turns).toBeGreaterThan(50);
    });

    it("embeds texts longer than the model's window", async () => {
      const long = Array.from({ length: 700 }, (_, i) => `word${i}`).join(" ");
      const [vector] = await embedder.embed([long]);
      expect(vector).toHaveLength(384);
      expect(norm(vector!)).toBeCloseTo(1, 4);
    });

    describe.runIf(model.multilingual)("in Chinese and across languages", () => {
      it("embeds a query and a document differently (e5's query: / passage: prefixes)", async () => {
        const [query] = await embedder.embed([DEPLOY], "query");
        const [document] = await embedder.embed([DEPLOY], "document");
        expect(cosine(query!, document!)).toBeLessThan(0.999);
        expect(cosine(query!, document!)).toBeGreaterThan(0.8);
      });

      it("embeds a query as the mean of its query: and passage: forms", async () => {
        // The same model read without prefixes, each form's prefix written into the text: an
        // English text, so centring sees the same script either way.
        const plain = await mkdtemp(path.join(tmpdir(), "hindsight-plain-model-"));
        try {
          for (const entry of await readdir(model.dir)) {
            await symlink(path.join(model.dir, entry), path.join(plain, entry));
          }
          const manifest = JSON.parse(
            await readFile(path.join(model.dir, "hindsight-model.json"), "utf8"),
          );
          delete manifest.prefixes;
          await rm(path.join(plain, "hindsight-model.json"));
          await writeFile(path.join(plain, "hindsight-model.json"), JSON.stringify(manifest));
          const unprefixed = await createLocalEmbedder({ modelDir: plain });
          try {
            const [asQuery, asPassage] = await unprefixed.embed([
              `query: ${DEPLOY}`,
              `passage: ${DEPLOY}`,
            ]);
            const [query] = await embedder.embed([DEPLOY], "query");
            const [document] = await embedder.embed([DEPLOY], "document");
            expect(cosine(document!, asPassage!)).toBeGreaterThan(0.9999);
            expect(cosine(query!, midpoint(asQuery!, asPassage!, true))).toBeGreaterThan(0.9999);
            expect(cosine(query!, asQuery!)).toBeLessThan(0.999);
          } finally {
            await unprefixed.close?.();
          }
        } finally {
          await rm(plain, { recursive: true, force: true });
        }
      });

      it("finds a Chinese paraphrase by meaning", async () => {
        const [question] = await embedder.embed(["上个月的账单为什么没发出去？"], "query");
        const documents = await embedder.embed([
          "三月份的发票批量发送失败：税务服务返回 500",
          "猫在沙发上睡了一下午",
          "预发环境部署了搜索服务 v2",
        ]);
        const [billing, cat, deploy] = documents.map((d) => similarity(question!, d));
        expect(billing).toBeGreaterThan(cat! + 0.15);
        expect(billing).toBeGreaterThan(deploy! + 0.15);
      });

      it("ranks the translation of a text above any other text in the text's own language", async () => {
        // Uncentred, e5 puts any two Chinese texts closer than a Chinese text and its English
        // translation; centring removes that language direction.
        const [zh] = await embedder.embed(["部署计费服务失败：端口 8080 已被占用"], "query");
        const [en, zhOther] = await embedder.embed([
          "Deploying the billing service failed: port 8080 was already in use",
          "用户偏好用中文回复，不喜欢冗长的解释",
        ]);
        expect(similarity(zh!, en!)).toBeGreaterThan(similarity(zh!, zhOther!) + 0.2);
      });
    });

    describe("through the library", () => {
      let memory: Hindsight;
      let deployId: string;

      beforeAll(async () => {
        memory = await createHindsight({
          dataDir: "memory://",
          embedder: { kind: "local", modelDir: model.dir },
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
        expect(stats.embedder).toBe(`local:${model.name}`);
        expect(stats.episodic.total).toBe(2);
      });

      it("recalls the paraphrase first, though the query shares no word with it", async () => {
        const { results } = await memory.recall({ query_text: "How do I deploy the service?" });
        expect(results.length).toBeGreaterThan(0);
        expect(results[0]!.id).toBe(deployId);
        // Found by meaning: the vector signal carries the score, not keyword overlap.
        expect(results[0]!.signals.vector).toBeGreaterThan(10 * results[0]!.signals.keyword);
      });

      it.runIf(model.multilingual)("recalls it for a Chinese question too", async () => {
        const { results } = await memory.recall({ query_text: "怎么把应用发布到生产环境？" });
        expect(results[0]?.id).toBe(deployId);
      });
    });
  });
}
