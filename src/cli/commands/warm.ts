/**
 * `hindsight warm`: keeps an embedded data directory open, with the embedding model loaded,
 * for the one-shot commands that forward to it, and exits once it has had no call for
 * --idle-exit seconds (see cli/keep-warm, which starts it on its own).
 */
import type { Command } from "commander";

const DEFAULT_IDLE_SECONDS = "900";

export function registerWarm(program: Command): void {
  program
    .command("warm")
    .description(
      "keep the embedded store open and the model loaded for one-shot commands, until idle",
    )
    .option("--idle-exit <seconds>", "exit after this long without a call", DEFAULT_IDLE_SECONDS)
    .action(async (options: { idleExit: string }, command: Command) => {
      const { runWarm } = await import("./warm-run.js");
      await runWarm(options, command);
    });
}
