// The local embedding model on its own thread (model-thread.ts says why). Plain JavaScript:
// Node runs this file itself, from dist/ and under the test runner alike, and resolves the
// optional @huggingface/transformers package from here as local.ts would.
//
// workerData: { source, local?: { parent, name }, dtype?, sessionOptions?, pooling, normalize,
//   batchSize }.
// In:  { id, texts }.
// Out: { id, vectors, width } with every text's vector in one Float32Array, transferred;
//   { id, error: { stage, message } }, where stage is "import" (the package is missing),
//   "load" (the model is) or "run" — a load failure is also sent once with id 0.
import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { loadUnigramTokenizer } from "./unigram-tokenizer.mjs";

const { source, local, dtype, sessionOptions, pooling, normalize, batchSize } = workerData;
const PACKAGE = "@huggingface/transformers";

class StageError extends Error {
  constructor(stage, cause) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.stage = stage;
  }
}

async function load() {
  const transformers = await import(PACKAGE).catch((error) => {
    throw new StageError("import", error);
  });
  const { env, pipeline, AutoModel, AutoTokenizer, FeatureExtractionPipeline } = transformers;
  try {
    if (local === undefined) {
      env.allowRemoteModels = true;
      return await pipeline("feature-extraction", source);
    }
    // transformers.js joins localModelPath and the model id, so the directory goes in two parts.
    env.allowRemoteModels = false;
    env.allowLocalModels = true;
    env.localModelPath = local.parent;
    const options = { dtype, session_options: sessionOptions };
    // What pipeline() does, but with a Unigram tokenizer loaded without its trie (~1 s less).
    const [tokenizer, model] = await Promise.all([
      loadUnigramTokenizer(transformers, path.join(local.parent, local.name)).then(
        (unigram) => unigram ?? AutoTokenizer.from_pretrained(local.name),
      ),
      AutoModel.from_pretrained(local.name, options),
    ]);
    return new FeatureExtractionPipeline({ task: "feature-extraction", model, tokenizer });
  } catch (error) {
    throw new StageError("load", error);
  }
}

const failure = (id, error) => ({
  id,
  error: {
    stage: error instanceof StageError ? error.stage : "run",
    message: error instanceof Error ? error.message : String(error),
  },
});

const loading = load();
loading.catch((error) => parentPort.postMessage(failure(0, error)));

async function embed(texts) {
  const model = await loading;
  let width = 0;
  let vectors;
  for (let start = 0; start < texts.length; start += batchSize) {
    const batch = texts.slice(start, start + batchSize);
    const output = await model(batch, { pooling, normalize });
    const [rows, dims] = output.dims;
    if (rows !== batch.length || dims === undefined || (vectors && dims !== width)) {
      throw new Error(`returned shape [${output.dims.join(", ")}] for ${batch.length} texts`);
    }
    if (vectors === undefined) {
      width = dims;
      vectors = new Float32Array(texts.length * width);
    }
    vectors.set(output.data.subarray(0, rows * width), start * width);
  }
  return { vectors, width };
}

parentPort.on("message", ({ id, texts }) => {
  embed(texts).then(
    ({ vectors, width }) => parentPort.postMessage({ id, vectors, width }, [vectors.buffer]),
    (error) => parentPort.postMessage(failure(id, error)),
  );
});
