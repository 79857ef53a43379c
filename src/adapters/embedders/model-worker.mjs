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
import { parentPort, workerData } from "node:worker_threads";

const { source, local, dtype, sessionOptions, pooling, normalize, batchSize } = workerData;
const PACKAGE = "@huggingface/transformers";

class StageError extends Error {
  constructor(stage, cause) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.stage = stage;
  }
}

async function load() {
  const { env, pipeline } = await import(PACKAGE).catch((error) => {
    throw new StageError("import", error);
  });
  try {
    if (local === undefined) {
      env.allowRemoteModels = true;
      return await pipeline("feature-extraction", source);
    }
    // transformers.js joins localModelPath and the model id, so the directory goes in two parts.
    env.allowRemoteModels = false;
    env.allowLocalModels = true;
    env.localModelPath = local.parent;
    return await pipeline("feature-extraction", local.name, {
      dtype,
      session_options: sessionOptions,
    });
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
