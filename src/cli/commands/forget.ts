import type { Command } from "commander";
import { withHindsight } from "../context.js";
import { printResult } from "../output.js";

interface ForgetOptions {
  hard?: boolean;
  json?: boolean;
}

export function registerForget(program: Command): void {
  program
    .command("forget")
    .description("archive a memory (left out of recall, reversible), or delete it with --hard")
    .argument("<id>", "memory id")
    .option("--hard", "delete permanently instead of archiving")
    .option("--json", "print the result as JSON")
    .action(async (id: string, options: ForgetOptions, command: Command) => {
      await withHindsight(
        command,
        options,
        { memory_id: "<id>", mode: "--hard" },
        async (memory) => {
          const result = await memory.forget({
            memory_id: id,
            mode: options.hard ? "hard" : "soft",
          });
          printResult(
            result,
            options,
            () => `${result.status} ${result.layer} memory ${result.id}`,
          );
        },
      );
    });
}
