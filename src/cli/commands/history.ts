import type { Command } from "commander";
import { withHindsight } from "../context.js";
import { printResult } from "../output.js";

export function registerHistory(program: Command): void {
  program
    .command("history")
    .description("show what happened to a memory, when and why")
    .argument("<id>", "memory id")
    .option("--json", "print the result as JSON")
    .action(async (id: string, options: { json?: boolean }, command: Command) => {
      await withHindsight(command, options, { memory_id: "<id>" }, async (memory) => {
        const result = await memory.history({ memory_id: id });
        printResult(result, options, () => {
          const lines = [`${result.layer} memory ${result.id} (${result.status})`];
          for (const e of result.events) {
            lines.push(`${e.at.toISOString()}  ${e.event.padEnd(12)} ${e.reason}`);
          }
          if (result.sources.length > 0) lines.push(`drawn from ${result.sources.join(", ")}`);
          if (result.consolidated_into.length > 0)
            lines.push(`consolidated into ${result.consolidated_into.join(", ")}`);
          if (result.superseded_by) lines.push(`superseded by ${result.superseded_by}`);
          if (result.supersedes.length > 0)
            lines.push(`supersedes ${result.supersedes.join(", ")}`);
          return lines.join("\n");
        });
      });
    });
}
