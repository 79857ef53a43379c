import type { Command } from "commander";
import { withHindsight } from "../context.js";
import { printResult } from "../output.js";

export function registerStats(program: Command): void {
  program
    .command("stats")
    .description("count memories per layer and status; show the store and embedder in use")
    .option("--json", "print the result as JSON")
    .action(async (options: { json?: boolean }, command: Command) => {
      await withHindsight(command, options, {}, async (memory) => {
        const stats = await memory.stats();
        printResult(stats, options, () =>
          [
            `episodic  total ${stats.episodic.total}  active ${stats.episodic.active}  archived ${stats.episodic.archived}`,
            `semantic  total ${stats.semantic.total}  active ${stats.semantic.active}  archived ${stats.semantic.archived}`,
            `store     ${stats.store}`,
            `embedder  ${stats.embedder}`,
          ].join("\n"),
        );
      });
    });
}
