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
 * The model as a function from texts to `{ vectors, width }`, run `batchSize` texts at a time
 * in batches of similar length (onnx-pipeline.mjs's `lengthBatches`): a local directory
 * through onnx-pipeline.mjs (no transformers.js: ~0.2 s less to start), a Hub name through
 * transformers.js's pipeline, which downloads it.
 */
async function load() {
  const { openOnnxPipeline, lengthBatches } = await import("./onnx-pipeline.mjs");
  if (modelDir !== undefined) {
    const options = { pooling, normalize, batchSize };
    try {
      const embed = await openOnnxPipeline(modelDir, { modelFile, sessionOptions });
      return (texts) => embed(texts, options);
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
  // The pipeline tokenizes inside: characters stand in for tokens when grouping by length.
  return async (texts) => {
    let width = 0;
    let vectors = new Float32Array(0);
    for (const positions of lengthBatches(
      texts.map((text) => text.length),
      batchSize,
    )) {
      const batch = positions.map((position) => texts[position]);
      const output = await model(batch, { pooling, normalize });
      const [, batchWidth] = output.dims;
      if (batchWidth === undefined || output.data.length !== batch.length * batchWidth) {
        throw new Error(`returned shape [${output.dims.join(", ")}] for ${batch.length} texts`);
      }
      if (width === 0) {
        width = batchWidth;
        vectors = new Float32Array(texts.length * width);
      } else if (batchWidth !== width) {
        throw new Error(`returned vectors of ${batchWidth} dimensions after ${width}`);
      }
      positions.forEach((position, row) => {
        vectors.set(output.data.subarray(row * width, (row + 1) * width), position * width);
      });
    }
    return { vectors, width };
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
  const { vectors, width } = await run(texts);
  if (!(width > 0) || vectors.length !== texts.length * width) {
    throw new Error(
      `returned ${vectors.length} values of width ${width} for ${texts.length} texts`,
    );
  }
  return { vectors, width };
}

parentPort.on("message", ({ id, texts }) => {
  embed(texts).then(
    ({ vectors, width }) => parentPort.postMessage({ id, vectors, width }, [vectors.buffer]),
    (error) => parentPort.postMessage(failure(id, error)),
  );
});
