// The local embedding model on its own thread (model-thread.ts says why). Plain JavaScript:
// Node runs this file itself, from dist/ and under the test runner alike, and resolves the
// runtime packages from here as local.ts would: onnxruntime-node and @huggingface/tokenizers
// for a model directory (onnx-pipeline.mjs), @huggingface/transformers for a Hub name.
//
// workerData: { source, modelDir?, modelFile?, sessionOptions?, pooling, normalize, batchSize }.
// In:  { id, texts }.
// Out: { id, vectors, width } with every text's vector in one Float32Array, transferred;
//   { id, error: { stage, message } }, where stage is "import" (the package is missing),
//   "load" (the model is) or "run" — a load failure is also sent once with id 0.
import { parentPort, workerData } from "node:worker_threads";

const { source, modelDir, modelFile, sessionOptions, pooling, normalize, batchSize } = workerData;
const PACKAGE = "@huggingface/transformers";

class StageError extends Error {
  constructor(stage, cause) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.stage = stage;
  }
}

/**
 * The model as a function from a batch of texts to `{ vectors, width }`: a local directory
 * through onnx-pipeline.mjs (no transformers.js: ~0.2 s less to start), a Hub name through
 * transformers.js's pipeline, which downloads it.
 */
async function load() {
  if (modelDir !== undefined) {
    const { openOnnxPipeline } = await import("./onnx-pipeline.mjs");
    const options = { pooling, normalize };
    try {
      const embed = await openOnnxPipeline(modelDir, { modelFile, sessionOptions });
      return (batch) => embed(batch, options);
    } catch (error) {
      if (error?.code === "ERR_MODULE_NOT_FOUND") throw new StageError("import", error);
      throw new StageError("load", error);
    }
  }
  const { env, pipeline } = await import(PACKAGE).catch((error) => {
    throw new StageError("import", error);
  });
  let model;
  try {
    env.allowRemoteModels = true;
    model = await pipeline("feature-extraction", source);
  } catch (error) {
    throw new StageError("load", error);
  }
  return async (batch) => {
    const output = await model(batch, { pooling, normalize });
    const [, width] = output.dims;
    return { vectors: output.data, width };
  };
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
  const run = await loading;
  let width = 0;
  let vectors;
  for (let start = 0; start < texts.length; start += batchSize) {
    const batch = texts.slice(start, start + batchSize);
    const output = await run(batch);
    if (
      output.width === undefined ||
      output.vectors.length !== batch.length * output.width ||
      (vectors && output.width !== width)
    ) {
      throw new Error(
        `returned ${output.vectors.length} values of width ${output.width} for ${batch.length} texts`,
      );
    }
    if (vectors === undefined) {
      width = output.width;
      vectors = new Float32Array(texts.length * width);
    }
    vectors.set(output.vectors.subarray(0, batch.length * width), start * width);
  }
  return { vectors, width };
}

parentPort.on("message", ({ id, texts }) => {
  embed(texts).then(
    ({ vectors, width }) => parentPort.postMessage({ id, vectors, width }, [vectors.buffer]),
    (error) => parentPort.postMessage(failure(id, error)),
  );
});
