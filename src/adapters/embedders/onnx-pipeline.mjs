// Sentence embeddings from a local model directory with onnxruntime-node and the model's own
// tokenizer, without transformers.js. Plain JavaScript, imported by model-worker.mjs.
//
// transformers.js is a 36 000-line module that also imports sharp (an image library) and
// onnxruntime-web's bundle: ~0.2 s of a cold command's start before the model is even opened.
// What its feature-extraction pipeline does for a text model is small — tokenize with padding
// and truncation, run the graph, pool, normalise — and is done here the same way, step for
// step (same padding side and id, same truncation, the same float32 rounding in pooling and
// normalising), so the vectors are the pipeline's (test/onnx-pipeline.test.ts compares them on
// both fetched models). A Hub model name still goes through transformers.js.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { loadUnigramTokenizer } from "./unigram-tokenizer.mjs";

async function readJson(file) {
  return JSON.parse(await readFile(file, "utf8"));
}

/** A token named in tokenizer_config.json: a string or an AddedToken-like `{ content }`. */
function tokenName(value) {
  return typeof value === "string" ? value : value?.content;
}

/**
 * The pipeline's tokenizer step for one batch of encoded texts: ids and attention mask, each
 * text truncated to the model's maximum length and the batch padded on the right to its
 * longest, as PreTrainedTokenizer does with `padding: true, truncation: true`.
 */
function padBatch(encoded, padId, modelMaxLength) {
  let longest = 0;
  for (const { ids } of encoded) longest = Math.max(longest, ids.length);
  const width = Math.min(longest, modelMaxLength);
  const ids = new BigInt64Array(encoded.length * width).fill(BigInt(padId));
  const mask = new BigInt64Array(encoded.length * width);
  encoded.forEach((item, row) => {
    const length = Math.min(item.ids.length, width);
    for (let column = 0; column < length; column++) {
      ids[row * width + column] = BigInt(item.ids[column]);
      mask[row * width + column] = BigInt(item.attention_mask[column]);
    }
  });
  return { ids, mask, width };
}

/**
 * The texts' positions grouped into batches of `batchSize` texts of similar length. A batch is
 * padded to its longest text and attention grows with the square of that width, so a batch
 * of texts in the order given — a one-word reply beside a paragraph — spends most of its work
 * on padding: on conversation turns, batches in length order embedded 1.7-1.8× as many texts
 * a second (docs/benchmarks.md). Texts that fit one batch stay in their order (nothing to
 * gain); ties keep it too, so the batches are the same for the same texts on every run.
 */
export function lengthBatches(lengths, batchSize) {
  const positions = lengths.map((_, index) => index);
  if (lengths.length > batchSize) {
    positions.sort((a, b) => lengths[a] - lengths[b] || a - b);
  }
  const batches = [];
  for (let start = 0; start < positions.length; start += batchSize) {
    batches.push(positions.slice(start, start + batchSize));
  }
  return batches;
}

/**
 * Pools one text's token vectors (mean over the attention mask, or the first token) and
 * normalises the result, rounding to float32 where transformers.js's tensors do.
 */
function poolRow(hidden, mask, row, width, dims, pooling, normalize, out, outOffset) {
  const base = row * width * dims;
  for (let k = 0; k < dims; k++) {
    if (pooling === "cls") {
      out[outOffset + k] = hidden[base + k];
      continue;
    }
    let sum = 0;
    let count = 0;
    for (let j = 0; j < width; j++) {
      const attention = Number(mask[row * width + j]);
      count += attention;
      sum += hidden[base + j * dims + k] * attention;
    }
    out[outOffset + k] = sum / count;
  }
  if (!normalize) return;
  let squares = 0;
  for (let k = 0; k < dims; k++) squares = Math.fround(squares + out[outOffset + k] ** 2);
  const norm = Math.fround(squares ** (1 / 2));
  for (let k = 0; k < dims; k++) out[outOffset + k] /= norm;
}

/**
 * Opens a local model directory: its ONNX graph (`modelFile`, relative to the directory) and
 * its tokenizer. Returns `embed(texts, { pooling, normalize, batchSize })` giving one
 * Float32Array of `texts.length × width` and the width.
 */
export async function openOnnxPipeline(
  modelDir,
  { modelFile = "onnx/model.onnx", sessionOptions = {} } = {},
) {
  const [ort, tokenizers] = await Promise.all([
    import("onnxruntime-node"),
    import("@huggingface/tokenizers"),
  ]);
  const config = await readJson(path.join(modelDir, "tokenizer_config.json"));
  // onnxruntime opens a graph synchronously on this thread; the tokenizer's files are read by
  // the file system's threads meanwhile.
  const [session, tokenizer] = await Promise.all([
    ort.InferenceSession.create(path.join(modelDir, modelFile), {
      executionProviders: ["cpu"],
      ...sessionOptions,
    }),
    loadUnigramTokenizer(tokenizers, modelDir, config).then(
      async (unigram) =>
        unigram ??
        new tokenizers.Tokenizer(await readJson(path.join(modelDir, "tokenizer.json")), config),
    ),
  ]);
  const padId = tokenizer.token_to_id(tokenName(config.pad_token) ?? tokenName(config.eos_token));
  if (padId === undefined) throw new Error(`${modelDir}: the tokenizer has no padding token`);
  const modelMaxLength = config.model_max_length ?? Number.POSITIVE_INFINITY;
  const output = session.outputNames.includes("last_hidden_state")
    ? "last_hidden_state"
    : session.outputNames[0];

  const run = async (batch) => {
    const { ids, mask, width } = padBatch(batch, padId, modelMaxLength);
    const shape = [batch.length, width];
    const feeds = {};
    for (const name of session.inputNames) {
      if (name === "input_ids") feeds[name] = new ort.Tensor("int64", ids, shape);
      else if (name === "attention_mask") feeds[name] = new ort.Tensor("int64", mask, shape);
      // One sequence per text: every token is of type 0.
      else if (name === "token_type_ids") {
        feeds[name] = new ort.Tensor("int64", new BigInt64Array(ids.length), shape);
      } else throw new Error(`${modelDir}: the graph wants an input ${name}`);
    }
    const hidden = (await session.run(feeds))[output];
    const [rows, tokens, dims] = hidden.dims;
    if (rows !== batch.length || tokens !== width || dims === undefined) {
      throw new Error(`returned shape [${hidden.dims.join(", ")}] for ${batch.length} texts`);
    }
    return { hidden: hidden.data, mask, width, dims };
  };

  /**
   * Every text's vector, in the order given, in one Float32Array; the model runs on at most
   * `batchSize` texts at a time, grouped by length (`lengthBatches`).
   */
  return async function embed(
    texts,
    { pooling = "mean", normalize = true, batchSize = texts.length } = {},
  ) {
    const encoded = texts.map((text) => tokenizer.encode(text, { add_special_tokens: true }));
    const lengths = encoded.map(({ ids }) => Math.min(ids.length, modelMaxLength));
    let vectors = new Float32Array(0);
    let width = 0;
    for (const positions of lengthBatches(lengths, Math.max(1, batchSize))) {
      const batch = await run(positions.map((position) => encoded[position]));
      if (width === 0) {
        width = batch.dims;
        vectors = new Float32Array(texts.length * width);
      }
      positions.forEach((position, row) => {
        poolRow(
          batch.hidden,
          batch.mask,
          row,
          batch.width,
          width,
          pooling,
          normalize,
          vectors,
          position * width,
        );
      });
    }
    return { vectors, width };
  };
}
