import type { Command } from "commander";
import { invalidInput } from "../../core/errors.js";
import { withHindsight } from "../context.js";
import { printResult } from "../output.js";
import { defined } from "../parse.js";

interface FeedbackOptions {
  useful?: boolean;
  notUseful?: boolean;
  reason?: string;
  json?: boolean;
}

const FLAGS = { memory_id: "<id>", useful: "--useful/--not-useful", reason: "--reason" };

export function registerFeedback(program: Command): void {
  program
    .command("feedback")
    .description("report whether a recalled memory was useful: its confidence rises or falls")
    .argument("<id>", "memory id")
    .option("--useful", "it helped")
    .option("--not-useful", "it was wrong or did not help")
    .option("--reason <text>", "why, kept in the memory's history")
    .option("--json", "print the result as JSON")
    .action(async (id: string, options: FeedbackOptions, command: Command) => {
      await withHindsight(command, options, FLAGS, async (memory) => {
        if (Boolean(options.useful) === Boolean(options.notUseful)) {
          throw invalidInput("useful", "give exactly one of --useful or --not-useful");
        }
        const result = await memory.feedback(
          defined({ memory_id: id, useful: Boolean(options.useful), reason: options.reason }),
        );
        printResult(
          result,
          options,
          () =>
            `${result.layer} memory ${result.id}: confidence ${result.previous_confidence.toFixed(2)} → ${result.confidence.toFixed(2)}, ${result.status}`,
        );
      });
    });
}
