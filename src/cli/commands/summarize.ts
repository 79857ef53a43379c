import type { Command } from "commander";
import type { SummaryResult } from "../../core/summarize.js";
import { withHindsight } from "../context.js";
import { printResult } from "../output.js";
import { csv, defined, numeric } from "../parse.js";

const FLAGS = {
  query_text: "[query]",
  memory_ids: "--ids",
  max_tokens: "--max-tokens",
};

interface SummarizeOptions {
  ids?: string;
  maxTokens?: string;
  json?: boolean;
}

function describe(result: SummaryResult): string {
  if (result.memory_ids.length === 0) return "No memories to summarise.";
  const how = result.method === "llm" ? `llm:${result.model}` : "extractive";
  const lines = [
    result.summary,
    "",
    `(${result.tokens}/${result.max_tokens} tokens, ${how}, ${result.memory_ids.length} memories)`,
  ];
  if (result.note) lines.push(`note: ${result.note}`);
  return lines.join("\n");
}

export function registerSummarize(program: Command): void {
  program
    .command("summarize")
    .alias("summarise")
    .description("compress memories, given by id or recalled for a query, within a token budget")
    .argument("[query]", "summarise the memories recalled for this query")
    .option("--ids <a,b>", "comma-separated memory ids to summarise instead of a query")
    .option("--max-tokens <n>", "length budget in tokens (cl100k), default 200")
    .option("--json", "print the result as JSON")
    .action(async (query: string | undefined, options: SummarizeOptions, command: Command) => {
      await withHindsight(command, options, FLAGS, async (memory) => {
        const result = await memory.summarize(
          defined({
            query_text: query,
            memory_ids: csv(options.ids),
            max_tokens: numeric(options.maxTokens),
          }),
        );
        printResult(result, options, () => describe(result));
      });
    });
}
