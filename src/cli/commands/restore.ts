import type { Command } from "commander";
import { withHindsight } from "../context.js";
import { printResult } from "../output.js";

export function registerRestore(program: Command): void {
  program
    .command("restore")
    .description(
      "bring an archived memory back from cold storage (undoes soft forgetting and decay)",
    )
    .argument("<id>", "memory id")
    .option("--json", "print the result as JSON")
    .action(async (id: string, options: { json?: boolean }, command: Command) => {
      await withHindsight(command, options, { memory_id: "<id>" }, async (memory) => {
        const result = await memory.restore({ memory_id: id });
        printResult(
          result,
          options,
          () => `${result.layer} memory ${result.id}: ${result.previous_status} → active`,
        );
      });
    });
}
