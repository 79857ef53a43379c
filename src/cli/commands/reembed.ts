import type { Command } from "commander";
import { stderrLogger } from "../../adapters/logger.js";
import type { ReembedResult } from "../../adapters/storage/reembed.js";
import { configFromEnv } from "../../config/env.js";
import { validate } from "../../core/validate.js";
import { type GlobalFlags, logLevel } from "../context.js";
import { printResult, reportError } from "../output.js";
import { defined, numeric } from "../parse.js";

const FLAGS = { batch_size: "--batch-size", dry_run: "--dry-run" };

interface ReembedOptions {
  batchSize?: string;
  dryRun?: boolean;
  json?: boolean;
}

const named = (embedder: { id: string; dimensions: number }) =>
  `'${embedder.id}' (${embedder.dimensions} dimensions)`;

function describe(result: ReembedResult): string {
  const memories = `${result.episodic} episodic and ${result.semantic} semantic memories`;
  const resumed = result.resumed ? ", resuming an interrupted run" : "";
  switch (result.status) {
    case "nothing_to_do":
      return `nothing to do: the store already uses embedder ${named(result.to)}`;
    case "dry_run":
      return `dry run: would re-embed ${memories} from ${named(result.from)} to ${named(result.to)}${resumed}; nothing was written`;
    case "reembedded":
      return `re-embedded ${memories} from ${named(result.from)} to ${named(result.to)} in ${result.seconds.toFixed(1)} s${resumed}; the store now uses ${named(result.to)}`;
  }
}

/**
 * Not a MemoryApi operation like the others: no server can open a store built for another
 * embedder, so re-embedding is the operator's offline step, run here or from the library.
 */
export function registerReembed(program: Command): void {
  program
    .command("reembed")
    .description(
      "re-embed every memory with the configured embedder (HINDSIGHT_EMBEDDER) after changing it; " +
        "resumable, switches over in one transaction at the end",
    )
    .option("--batch-size <n>", "memories embedded and committed at a time (default 128)")
    .option(
      "--dry-run",
      "say what would be re-embedded, from which embedder to which; write nothing",
    )
    .option("--json", "print the result as JSON")
    .action(async (options: ReembedOptions, command: Command) => {
      try {
        // Loaded when the command runs: no other command pays for re-embedding's modules.
        const [{ ReembedInput, reembed }, { createProgress }] = await Promise.all([
          import("../../open/reembed.js"),
          import("../../eval/progress.js"),
        ]);
        // Flags first, so a bad one is reported before anything is opened.
        const input = validate(
          ReembedInput,
          defined({ batch_size: numeric(options.batchSize), dry_run: options.dryRun }),
        );
        const flags = command.optsWithGlobals<GlobalFlags>();
        const level = logLevel(flags);
        const result = await reembed(configFromEnv(process.env, flags), input, {
          logger: stderrLogger(level),
          progress: (total) =>
            createProgress({ label: "re-embedding", total, enabled: level !== "silent" }),
        });
        printResult(result, options, () => describe(result));
      } catch (error) {
        process.exitCode = reportError(error, options, FLAGS);
      }
    });
}
