import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalEmbedder, midpoint } from "./local.js";

const transformersSpecifier: string = "@huggingface/transformers";
const transformersInstalled = await import(transformersSpecifier).then(
  () => true,
  () => false,
);
const modelDir = process.env.HINDSIGHT_TEST_MODEL_DIR;

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "hindsight-local-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function fakeModelDir(name: string, config?: unknown): Promise<string> {
  const dir = await mkdtemp(path.join(root, name));
  if (config !== undefined) await writeFile(path.join(dir, "config.json"), JSON.stringify(config));
  return dir;
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}

describe("midpoint", () => {
  it("averages two vectors, back to unit length when asked", () => {
    const a = Float32Array.from([1, 0, 0]);
    const b = Float32Array.from([0, 1, 0]);
    expect(Array.from(midpoint(a, b, false))).toEqual([0.5, 0.5, 0]);
    const unit = midpoint(a, b, true);
    expect(unit[0]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(unit[1]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(unit[2]).toBe(0);
  });
});

describe("local embedder", () => {
  it("rejects a missing model directory, naming it", async () => {
    const missing = path.join(root, "does-not-exist");
    await expect(createLocalEmbedder({ modelDir: missing })).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      message: expect.stringContaining(missing),
    });
  });

  it("rejects a directory without config.json, naming the file", async () => {
    const dir = await fakeModelDir("empty-");
    await expect(createLocalEmbedder({ modelDir: dir })).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      message: expect.stringContaining(path.join(dir, "config.json")),
    });
  });

  it("rejects a config.json without a vector size", async () => {
    const dir = await fakeModelDir("nosize-", { model_type: "bert" });
    await expect(createLocalEmbedder({ modelDir: dir })).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      message: expect.stringContaining("hidden_size"),
    });
  });

  it("refuses a hub model unless remote downloads are allowed", async () => {
    await expect(createLocalEmbedder({ model: "Xenova/all-MiniLM-L6-v2" })).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      message: expect.stringContaining("allowRemote"),
    });
    await expect(createLocalEmbedder({})).rejects.toMatchObject({ code: "CONFIG_INVALID" });
  });

  it("reads id and dimensions from the directory without loading the model", async () => {
    const dir = await fakeModelDir("minilm-", { hidden_size: 384 });
    const embedder = await createLocalEmbedder({ modelDir: dir });
    expect(embedder.id).toBe(`local:${path.basename(dir)}`);
    expect(embedder.dimensions).toBe(384);
    expect(await embedder.embed([])).toEqual([]);
  });

  it("knows which scripts a model covers: option, manifest, known model, else all", async () => {
    const plain = await fakeModelDir("plain-", { hidden_size: 8 });
    expect((await createLocalEmbedder({ modelDir: plain })).scripts).toBeUndefined();
    expect((await createLocalEmbedder({ modelDir: plain, scripts: ["Han"] })).scripts).toEqual([
      "Han",
    ]);

    const known = await fakeModelDir("known-", { hidden_size: 8 });
    await writeFile(
      path.join(known, "hindsight-model.json"),
      JSON.stringify({ model: "all-minilm-l6-v2-int8" }),
    );
    expect((await createLocalEmbedder({ modelDir: known })).scripts).toEqual(["Latin"]);
    expect(
      (await createLocalEmbedder({ modelDir: known, scripts: "all" })).scripts,
    ).toBeUndefined();

    const declared = await fakeModelDir("declared-", { hidden_size: 8 });
    await writeFile(
      path.join(declared, "hindsight-model.json"),
      JSON.stringify({ model: "all-minilm-l6-v2-int8", scripts: ["Latin", "Han"] }),
    );
    expect((await createLocalEmbedder({ modelDir: declared })).scripts).toEqual(["Latin", "Han"]);
  });

  it.skipIf(transformersInstalled)(
    "explains how to install @huggingface/transformers when it is missing",
    async () => {
      const dir = await fakeModelDir("fake-", { hidden_size: 8 });
      const embedder = await createLocalEmbedder({ modelDir: dir });
      await expect(embedder.embed(["hello"])).rejects.toMatchObject({
        code: "CONFIG_INVALID",
        message: expect.stringContaining(
          "ONNXRUNTIME_NODE_INSTALL=skip npm install @huggingface/transformers@4.3.2",
        ),
      });
    },
  );

  it.runIf(transformersInstalled)(
    "fails every call on a model that does not load, and tries the load again on the next",
    async () => {
      // A config.json and no weights: the directory passes start-up, the model's thread fails.
      const dir = await fakeModelDir("noweights-", { hidden_size: 8 });
      const embedder = await createLocalEmbedder({ modelDir: dir });
      try {
        const cannotLoad = {
          code: "CONFIG_INVALID",
          message: expect.stringContaining(`cannot load ${dir}`),
        };
        // Two calls waiting on the same load both get its error.
        const first = embedder.embed(["one"]);
        const second = embedder.embed(["two"]);
        await expect(first).rejects.toMatchObject(cannotLoad);
        await expect(second).rejects.toMatchObject(cannotLoad);
        // The failed thread is gone; the next call starts a new one (the model may be fetched
        // by now) rather than waiting forever on the dead one.
        await expect(embedder.embed(["three"])).rejects.toMatchObject(cannotLoad);
      } finally {
        await embedder.close?.();
      }
    },
  );

  it.skipIf(modelDir === undefined)(
    "embeds with a real model from HINDSIGHT_TEST_MODEL_DIR",
    async () => {
      const embedder = await createLocalEmbedder({ modelDir: modelDir! });
      try {
        const [cat, kitten, tax] = await embedder.embed([
          "The cat is sleeping on the sofa.",
          "A kitten naps on the couch.",
          "Quarterly tax returns are due in April.",
        ]);
        for (const vector of [cat!, kitten!, tax!]) {
          expect(vector).toHaveLength(embedder.dimensions);
          expect(cosine(vector, vector)).toBeCloseTo(1, 4);
        }
        expect(cosine(cat!, kitten!)).toBeGreaterThan(cosine(cat!, tax!));
      } finally {
        await embedder.close?.();
      }
    },
    120_000,
  );
});
