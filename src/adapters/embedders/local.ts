/**
 * Local embedder: a sentence-embedding ONNX model run on a thread of this process
 * (model-thread.ts): a model directory by onnxruntime-node with the model's own tokenizer
 * (onnx-pipeline.mjs; the same vectors as transformers.js's pipeline, which it replaced), a Hub
 * model name by `@huggingface/transformers`. The thread loads the model on the first
 * embedding, or earlier on `prepare`.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { ErrorCode, HindsightError } from "../../core/errors.js";
import type { Embedder, EmbedPurpose, Logger, SimilarityScale } from "../../core/ports.js";
import { type Script, scriptShares } from "../../text/scripts.js";
import { ModelThread } from "./model-thread.js";

export interface LocalEmbedderOptions {
  /** Local model directory (config.json, tokenizer.json, onnx/model*.onnx); loaded offline. */
  modelDir?: string;
  /** Hugging Face Hub model name, used only without modelDir and with allowRemote. */
  model?: string;
  pooling?: "mean" | "cls";
  /** The Embedder port promises unit vectors; turn off only for models that normalise themselves. */
  normalize?: boolean;
  batchSize?: number;
  allowRemote?: boolean;
  /**
   * The scripts the model represents (`Embedder.scripts`), or "all". Absent: the `scripts` of
   * the directory's `hindsight-model.json`, else what is known of the model by name
   * (`KNOWN_MODEL_SCRIPTS`), else every script.
   */
  scripts?: readonly string[] | "all";
  /**
   * false: ignore the directory's calibration (centroids and similarity scale), for measuring
   * a model as it comes (scripts/calibrate-model.mjs). Default true.
   */
  calibrate?: boolean;
}

/**
 * Text put before queries and before documents, for models trained with them (e5: "query: " /
 * "passage: "): the `prefixes` of `hindsight-model.json`.
 */
interface Prefixes {
  query: string;
  passage: string;
}

/**
 * Scripts of models known to cover only some, by the name `npm run fetch:model` records in
 * `hindsight-model.json` (`model`) or the Hub name. all-MiniLM-L6-v2's vocabulary is
 * bert-base-uncased's: most Chinese characters are `[UNK]` (docs/embedding-models.md).
 */
export const KNOWN_MODEL_SCRIPTS: Readonly<Record<string, readonly string[]>> = {
  "all-minilm-l6-v2-int8": ["Latin"],
  "sentence-transformers/all-MiniLM-L6-v2": ["Latin"],
  "Xenova/all-MiniLM-L6-v2": ["Latin"],
};

/** What the embedder reads from the `hindsight-model.json` written by fetch:model. */
interface Manifest {
  model?: unknown;
  scripts?: unknown;
  prefixes?: unknown;
  /** A file of the directory with the model's calibration (`Calibration`). */
  calibration?: unknown;
}

/**
 * Measured once per model by scripts/calibrate-model.mjs and shipped with it:
 * - `centroids`: the mean vector of typical memory text in each script. Multilingual models
 *   keep a strong language direction (e5: any Chinese text is closer to any Chinese text than
 *   to its own English translation); subtracting the text's own language mean before
 *   normalising removes it, so a Chinese query finds the English memory it is about
 *   (docs/embedding-models.md, "Centring").
 * - `similarity`: the cosine scale of the centred vectors (`Embedder.similarity`).
 * A new calibration makes other vectors: `version` goes into the embedder id.
 */
interface Calibration {
  version: number;
  centroids: Partial<Record<Script, number[]>>;
  similarity: SimilarityScale;
}

/** The directory's `hindsight-model.json`, or nothing when it has none. */
async function readManifest(modelDir: string): Promise<Manifest> {
  try {
    return JSON.parse(
      await readFile(path.join(modelDir, "hindsight-model.json"), "utf8"),
    ) as Manifest;
  } catch {
    return {};
  }
}

function isPrefixes(value: unknown): value is Prefixes {
  const v = value as Partial<Prefixes> | null;
  return typeof v?.query === "string" && typeof v.passage === "string";
}

function isSimilarityScale(value: unknown): value is SimilarityScale {
  const v = value as Partial<SimilarityScale> | null;
  return (
    typeof v?.unrelated === "number" &&
    typeof v.related === "number" &&
    v.unrelated >= -1 &&
    v.related <= 1 &&
    v.related > v.unrelated
  );
}

const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === "string");

/**
 * See `LocalEmbedderOptions.scripts`; undefined means every script. `manifest` is the model
 * directory's, when there is one.
 */
function resolveScripts(
  options: Pick<LocalEmbedderOptions, "model" | "scripts">,
  manifest: Manifest | undefined,
): readonly string[] | undefined {
  if (options.scripts !== undefined) return options.scripts === "all" ? undefined : options.scripts;
  if (manifest !== undefined) {
    if (manifest.scripts === "all") return undefined;
    if (isStringList(manifest.scripts)) return manifest.scripts;
    if (typeof manifest.model === "string" && KNOWN_MODEL_SCRIPTS[manifest.model]) {
      return KNOWN_MODEL_SCRIPTS[manifest.model];
    }
    return undefined;
  }
  return options.model ? KNOWN_MODEL_SCRIPTS[options.model] : undefined;
}

/**
 * A model directory runs on onnxruntime-node and @huggingface/tokenizers, a Hub name on
 * @huggingface/transformers: all three are hindsight's own dependencies, so a missing one means
 * an incomplete install (Node's message names the package).
 */
const REINSTALL = "ONNXRUNTIME_NODE_INSTALL=skip npm install";
const DEFAULT_BATCH_SIZE = 32;
/**
 * onnxruntime's worker threads spin after each run, waiting for the next: measured here, 50
 * query embeddings 20 ms apart kept 1.3 cores busy (2.1 s of CPU in 1.6 s) against 0.6 with
 * spinning off, for 1.3 ms more per embedding. The database runs beside the model — PGlite in
 * this very process, PostgreSQL on the same machine — and a spinning thread took its CPU: the raw
 * vector query ran 4× slower in the benchmark (docs/benchmarks.md).
 */
const SESSION_OPTIONS = { extra: { session: { intra_op: { allow_spinning: "0" } } } };
/** Weight files in `onnx/`, in preference order (transformers.js's names for its dtypes). */
const ONNX_FILES = [
  "model.onnx",
  "model_fp16.onnx",
  "model_quantized.onnx",
  "model_int8.onnx",
  "model_uint8.onnx",
  "model_q4.onnx",
  "model_q4f16.onnx",
  "model_bnb4.onnx",
];

function configError(message: string, cause?: unknown): HindsightError {
  return new HindsightError(ErrorCode.CONFIG_INVALID, `local embedder: ${message}`, { cause });
}

/** Reads the vector size from config.json so ONNX need not be loaded at start-up. */
async function readDimensions(modelDir: string): Promise<number> {
  const info = await stat(modelDir).catch(() => undefined);
  if (!info?.isDirectory()) throw configError(`model directory ${modelDir} does not exist`);
  const configPath = path.join(modelDir, "config.json");
  let config: Record<string, unknown>;
  try {
    config = JSON.parse(await readFile(configPath, "utf8")) as Record<string, unknown>;
  } catch (error) {
    throw configError(`cannot read model config ${configPath}`, error);
  }
  const dims = config.hidden_size ?? config.dim ?? config.d_model;
  if (typeof dims !== "number" || !Number.isInteger(dims) || dims <= 0) {
    throw configError(`${configPath} has no hidden_size, dim or d_model`);
  }
  return dims;
}

/**
 * The pooling a sentence-transformers model was trained with, from its `1_Pooling/config.json`
 * (BGE-style models use the CLS token); mean pooling when the file is absent.
 */
async function readPooling(modelDir: string): Promise<"mean" | "cls"> {
  try {
    const config = JSON.parse(
      await readFile(path.join(modelDir, "1_Pooling", "config.json"), "utf8"),
    ) as {
      pooling_mode_cls_token?: boolean;
    };
    return config.pooling_mode_cls_token ? "cls" : "mean";
  } catch {
    return "mean";
  }
}

/** The weights present (onnx/…, relative to the directory), since model.onnx may be absent. */
async function detectModelFile(modelDir: string): Promise<string | undefined> {
  const files = await readdir(path.join(modelDir, "onnx")).catch(() => [] as string[]);
  const file = ONNX_FILES.find((name) => files.includes(name));
  return file === undefined ? undefined : path.join("onnx", file);
}

async function readCalibration(
  modelDir: string,
  file: unknown,
  dims: number,
): Promise<Calibration | undefined> {
  if (typeof file !== "string") return undefined;
  const where = path.join(modelDir, file);
  let value: Partial<Calibration>;
  try {
    value = JSON.parse(await readFile(where, "utf8")) as Partial<Calibration>;
  } catch (error) {
    throw configError(`cannot read the model's calibration ${where}`, error);
  }
  const centroids = Object.values(value.centroids ?? {});
  if (
    !Number.isInteger(value.version) ||
    !isSimilarityScale(value.similarity) ||
    centroids.length === 0 ||
    centroids.some((centroid) => !Array.isArray(centroid) || centroid.length !== dims)
  ) {
    throw configError(`${where} is not a calibration of ${dims}-dimension vectors`);
  }
  return value as Calibration;
}

/**
 * Subtracts the text's language mean — each script's centroid weighted by its share of the
 * text's words; scripts without one take the average centroid — and normalises again.
 */
function centring(calibration: Calibration): (vector: Float32Array, text: string) => Float32Array {
  const known = Object.entries(calibration.centroids) as [Script, number[]][];
  const average = known[0]![1].map(
    (_, j) => known.reduce((sum, [, centroid]) => sum + centroid[j]!, 0) / known.length,
  );
  return (vector, text) => {
    const shares = scriptShares(text);
    const out = Float32Array.from(vector);
    const weights = shares.size === 0 ? new Map<Script, number>([["Other", 1]]) : shares;
    for (const [script, share] of weights) {
      const centroid = calibration.centroids[script] ?? average;
      for (let j = 0; j < out.length; j++) out[j]! -= share * centroid[j]!;
    }
    let norm = 0;
    for (const value of out) norm += value * value;
    norm = Math.sqrt(norm);
    if (norm > 0) for (let j = 0; j < out.length; j++) out[j]! /= norm;
    return out;
  };
}

/** The mean of two vectors, scaled back to unit length when the model's vectors are. */
export function midpoint(a: Float32Array, b: Float32Array, unit: boolean): Float32Array {
  const out = new Float32Array(a.length);
  let norm = 0;
  for (let j = 0; j < a.length; j++) {
    out[j] = (a[j]! + b[j]!) / 2;
    norm += out[j]! * out[j]!;
  }
  norm = Math.sqrt(norm);
  if (unit && norm > 0) for (let j = 0; j < out.length; j++) out[j]! /= norm;
  return out;
}

export async function createLocalEmbedder(
  options: LocalEmbedderOptions,
  deps: { logger?: Logger } = {},
): Promise<Embedder> {
  const { normalize = true, batchSize = DEFAULT_BATCH_SIZE } = options;
  const logger = deps.logger;
  if (!Number.isInteger(batchSize) || batchSize <= 0) {
    throw configError(`batchSize must be a positive integer, got ${batchSize}`);
  }
  const modelDir = options.modelDir === undefined ? undefined : path.resolve(options.modelDir);
  if (modelDir === undefined && !options.model) throw configError("give modelDir or model");
  if (modelDir === undefined && !options.allowRemote) {
    throw configError(
      `model ${options.model} would be downloaded from the Hugging Face Hub; set allowRemote ` +
        "or give modelDir (a local directory with config.json, tokenizer.json, onnx/)",
    );
  }
  const source = modelDir ?? (options.model as string);
  const pooling = options.pooling ?? (modelDir ? await readPooling(modelDir) : "mean");
  const id = `local:${modelDir === undefined ? source : path.basename(modelDir)}`;
  if (!normalize) logger?.warn("local embedder: normalize is off; vectors may not be unit length");

  const thread = new ModelThread(
    {
      source,
      ...(modelDir === undefined
        ? {}
        : {
            modelDir,
            modelFile: await detectModelFile(modelDir),
            sessionOptions: SESSION_OPTIONS,
          }),
      pooling,
      normalize,
      batchSize,
    },
    (stage, message) => {
      if (stage === "import") {
        return configError(
          `a package the model runs on could not be loaded (${message}); install hindsight's dependencies again: ${REINSTALL}`,
        );
      }
      if (stage === "load") return configError(`cannot load ${source}: ${message}`);
      return new HindsightError(ErrorCode.EMBEDDER_FAILED, `local model ${id} failed: ${message}`);
    },
  );

  async function run(texts: readonly string[], dims?: number): Promise<Float32Array[]> {
    const vectors = await thread.embed(texts);
    const wrong = vectors.find((vector) => dims !== undefined && vector.length !== dims);
    if (vectors.length !== texts.length || wrong) {
      throw new HindsightError(
        ErrorCode.EMBEDDER_FAILED,
        `local model ${id} returned ${vectors.length} vectors of ${wrong?.length ?? dims} dimensions for ${texts.length} texts`,
      );
    }
    return vectors;
  }

  // A hub model has no local config.json to read, so load it now and measure one vector.
  const dimensions =
    modelDir === undefined
      ? (await run(["dimension probe"]))[0]!.length
      : await readDimensions(modelDir);

  const manifest = modelDir === undefined ? undefined : await readManifest(modelDir);
  const scripts = resolveScripts(options, manifest);
  const prefixes = isPrefixes(manifest?.prefixes) ? manifest.prefixes : undefined;
  const calibration =
    modelDir === undefined || options.calibrate === false
      ? undefined
      : await readCalibration(modelDir, manifest?.calibration, dimensions);
  const similarity = calibration?.similarity;
  const centre = calibration ? centring(calibration) : undefined;
  const centred = (vectors: Float32Array[], texts: readonly string[]) =>
    centre ? vectors.map((vector, index) => centre(vector, texts[index]!)) : vectors;
  const embedWith = async (prefix: string, texts: readonly string[]) =>
    centred(
      await run(
        texts.map((text) => prefix + text),
        dimensions,
      ),
      texts,
    );
  // A model trained with prefixes reads `query: ` as "what answers this" and `passage: ` as
  // "text like this". A memory is asked for both ways: by a question, and in other words than
  // its own ("the storefront called the staging backend" for "the release pointed at
  // pre-production"). So a query is embedded both ways, in one batch, and the two vectors are
  // averaged (docs/evaluation.md: the paraphrase set's R@5 0.890 → 0.913, across languages
  // most; LoCoMo and MemDaily within a question or two). It costs a second text in the batch:
  // ~13 ms instead of ~8 to embed a query on 2 cores.
  const embed = async (texts: readonly string[], purpose: EmbedPurpose) => {
    if (!prefixes) return embedWith("", texts);
    if (purpose === "document") return embedWith(prefixes.passage, texts);
    // Both forms in one run of the model: [query forms…, passage forms…].
    const forms = [
      ...texts.map((text) => prefixes.query + text),
      ...texts.map((text) => prefixes.passage + text),
    ];
    const vectors = centred(await run(forms, dimensions), [...texts, ...texts]);
    return texts.map((_, index) =>
      midpoint(vectors[index]!, vectors[texts.length + index]!, normalize),
    );
  };

  return {
    id: calibration && calibration.version > 1 ? `${id}@${calibration.version}` : id,
    dimensions,
    ...(scripts === undefined ? {} : { scripts }),
    ...(similarity === undefined ? {} : { similarity }),
    embed: async (texts, purpose = "document") => (texts.length === 0 ? [] : embed(texts, purpose)),
    prepare: () => thread.start(),
    close: () => thread.close(),
  };
}
