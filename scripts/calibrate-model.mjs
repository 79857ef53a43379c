#!/usr/bin/env node
/**
 * Measures a local embedding model's calibration and writes it to
 * scripts/calibration/<model>.json (committed; `fetch-model` copies it into the model's
 * directory as hindsight-calibration.json). Run from the repository root after `npm run build`:
 *
 *   node scripts/calibrate-model.mjs .cache/models/multilingual-e5-small-q4
 *
 * 1. Centroids: the mean vector of each language of scripts/calibration/corpus.jsonl (typical
 *    memory text written for this purpose: chat turns, task records, facts, notes, questions,
 *    prose; English → Latin, Chinese → Han), embedded as documents, uncentred.
 * 2. Similarity scale: with those centroids applied, the mean cosine of each query of the
 *    regression set (test/fixtures/regression-set.json) to the memories it expects (`related`)
 *    and to all the others (`unrelated`).
 * Neither step reads evaluation data. The result is rounded (4 decimals) so that it is stable
 * across runs and machines; `version` must be raised whenever the centroids change, since the
 * stored vectors change with them (it becomes part of the embedder id).
 */
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const load = (module) => import(pathToFileURL(path.join(ROOT, "dist", module)).href);
const { createLocalEmbedder } = await load("adapters/embedders/local.js");
const { embeddingText } = await load("core/memories/embedding-text.js");

const [modelArg, versionArg = "1"] = process.argv.slice(2);
if (!modelArg) {
  process.stderr.write("usage: node scripts/calibrate-model.mjs MODEL_DIR [VERSION]\n");
  process.exit(2);
}
const modelDir = path.resolve(modelArg);
const manifest = JSON.parse(await readFile(path.join(modelDir, "hindsight-model.json"), "utf8"));
const SCRIPT_OF_LANG = { en: "Latin", zh: "Han" };
const round = (value) => Math.round(value * 1e4) / 1e4;
const log = (message) => process.stderr.write(`calibrate-model: ${message}\n`);

const corpus = (await readFile(path.join(ROOT, "scripts", "calibration", "corpus.jsonl"), "utf8"))
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line));

// 1. Centroids of the model as it comes.
const raw = await createLocalEmbedder({ modelDir, calibrate: false });
const centroids = {};
for (const [lang, script] of Object.entries(SCRIPT_OF_LANG)) {
  const texts = corpus.filter((line) => line.lang === lang).map((line) => line.text);
  const vectors = await raw.embed(texts, "document");
  centroids[script] = Array.from({ length: raw.dimensions }, (_, j) =>
    round(vectors.reduce((sum, vector) => sum + vector[j], 0) / vectors.length),
  );
  log(`${script}: centroid of ${texts.length} ${lang} texts`);
}
await raw.close();

// 2. The similarity scale of the centred vectors: a copy of the model directory whose
// calibration holds the centroids (and a neutral scale, not used here).
const scratch = await mkdtemp(path.join(tmpdir(), "hindsight-calibrate-"));
const copy = path.join(scratch, path.basename(modelDir));
try {
  await mkdir(copy);
  for (const entry of await readdir(modelDir)) {
    if (entry === "hindsight-model.json" || entry === "hindsight-calibration.json") continue;
    await symlink(path.join(modelDir, entry), path.join(copy, entry));
  }
  const draft = {
    version: Number(versionArg),
    centroids,
    similarity: { unrelated: 0, related: 1 },
  };
  await writeFile(path.join(copy, "hindsight-calibration.json"), JSON.stringify(draft));
  await writeFile(
    path.join(copy, "hindsight-model.json"),
    JSON.stringify({ ...manifest, calibration: "hindsight-calibration.json" }),
  );
  const centred = await createLocalEmbedder({ modelDir: copy });
  const set = JSON.parse(
    await readFile(path.join(ROOT, "test", "fixtures", "regression-set.json"), "utf8"),
  );
  const memoryText = (m) =>
    m.layer === "semantic"
      ? embeddingText("semantic", { key_text: m.key_text, value_text: m.value_text })
      : embeddingText("episodic", { task_type: m.task_type, summary: m.summary });
  const memories = await centred.embed(set.memories.map(memoryText), "document");
  const queries = await centred.embed(
    set.queries.map((q) => q.query_text),
    "query",
  );
  await centred.close();
  const related = [];
  const unrelated = [];
  set.queries.forEach((query, i) => {
    set.memories.forEach((memory, j) => {
      let cosine = 0;
      for (let k = 0; k < queries[i].length; k++) cosine += queries[i][k] * memories[j][k];
      (query.expected.includes(memory.key) ? related : unrelated).push(cosine);
    });
  });
  const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const similarity = { unrelated: round(mean(unrelated)), related: round(mean(related)) };
  log(`similarity scale of the centred vectors: ${JSON.stringify(similarity)}`);
  const out = path.join(ROOT, "scripts", "calibration", `${manifest.model}.json`);
  const calibration = {
    model: manifest.model,
    version: Number(versionArg),
    measured_by: "scripts/calibrate-model.mjs",
    similarity,
    centroids,
  };
  await writeFile(out, `${JSON.stringify(calibration)}\n`);
  log(`wrote ${path.relative(ROOT, out)}`);
} finally {
  await rm(scratch, { recursive: true, force: true });
}
