import type { Command } from "commander";
import { withHindsight } from "../context.js";
import { printResult } from "../output.js";
import { defined } from "../parse.js";

interface ConsolidateOptions {
  taskType?: string;
  now?: string;
  json?: boolean;
}

export function registerConsolidate(program: Command): void {
  program
    .command("consolidate")
    .description("draw rules and advice (semantic memory) from task types with enough new episodes")
    .option("--task-type <type>", "only this task type")
    .option("--now <iso>", "run as if it were this moment, to simulate time")
    .option("--json", "print the result as JSON")
    .action(async (options: ConsolidateOptions, command: Command) => {
      await withHindsight(
        command,
        options,
        { task_type: "--task-type", now: "--now" },
        async (memory) => {
          const result = await memory.consolidate(
            defined({ task_type: options.taskType, now: options.now }),
          );
          printResult(result, options, () => {
            if (result.groups.length === 0) return "nothing to consolidate";
            const lines = result.groups.map(
              (g) => `${g.task_type}: ${g.episodes} episodes (${g.method})`,
            );
            for (const [label, list] of [
              ["created", result.created],
              ["updated", result.updated],
            ] as const) {
              for (const m of list) {
                lines.push(
                  `${label} ${m.id}  from ${m.sources.length} episodes\n    ${m.key}\n    → ${m.value}`,
                );
              }
            }
            if (result.superseded.length > 0)
              lines.push(`superseded ${result.superseded.join(", ")}`);
            return lines.join("\n");
          });
        },
      );
    });
}
