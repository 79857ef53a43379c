import type { Command } from "commander";
import { withHindsight } from "../context.js";
import { printResult } from "../output.js";
import { defined } from "../parse.js";

interface MaintainOptions {
  now?: string;
  json?: boolean;
}

export function registerMaintain(program: Command): void {
  program
    .command("maintain")
    .description(
      "apply decay: archive memories that faded (cold storage, never deleted), reactivate those recalled again",
    )
    .option("--now <iso>", "run as if it were this moment, to simulate time")
    .option("--json", "print the result as JSON")
    .action(async (options: MaintainOptions, command: Command) => {
      await withHindsight(command, options, { now: "--now" }, async (memory) => {
        const result = await memory.maintain(defined({ now: options.now }));
        printResult(result, options, () =>
          [
            `scored ${result.scored}  archived ${result.archived}  reactivated ${result.reactivated}  confidence lowered ${result.confidence_lowered}`,
            `episodic  scored ${result.episodic.scored}  archived ${result.episodic.archived}  reactivated ${result.episodic.reactivated}`,
            `semantic  scored ${result.semantic.scored}  archived ${result.semantic.archived}  reactivated ${result.semantic.reactivated}`,
          ].join("\n"),
        );
      });
    });
}
