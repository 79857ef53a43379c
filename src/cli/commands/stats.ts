import type { Command } from "commander";
import type { LlmStats } from "../../core/types.js";
import { withHindsight } from "../context.js";
import { printResult } from "../output.js";

function describeLlm(llm: LlmStats): string {
  if (llm.provider === "none") return "none (extractive fallbacks)";
  const fallbacks = Object.values(llm.fallbacks).reduce((sum, count) => sum + count, 0);
  return (
    `${llm.provider} ${llm.model} (summaries: ${llm.summary_model})  requests ${llm.requests}` +
    `  failures ${llm.failures}  tokens ${llm.prompt_tokens}+${llm.completion_tokens}` +
    `  fallbacks ${fallbacks}`
  );
}

/**
 * A line on the language model's circuit breaker, when it matters: a closed breaker that never
 * opened is not news.
 */
function breakerLines(breaker: LlmStats["breaker"]): string[] {
  if (!breaker || breaker.state === "disabled") return [];
  if (breaker.state === "closed" && breaker.opens === 0) return [];
  const state =
    breaker.state === "open"
      ? `open until ${breaker.open_until}: the model is not called, features fall back`
      : breaker.state === "half_open"
        ? "half-open: the next call is a trial"
        : "closed";
  return [
    `breaker   ${state}  opened ${breaker.opens}×  skipped ${breaker.skipped}` +
      `  failed in a row ${breaker.consecutive_failures}`,
  ];
}

export function registerStats(program: Command): void {
  program
    .command("stats")
    .description("count memories per layer and status; show the store and embedder in use")
    .option("--agent <id>", "count only this agent's memories")
    .option("--json", "print the result as JSON")
    .action(async (options: { json?: boolean; agent?: string }, command: Command) => {
      await withHindsight(command, options, { agent_id: "--agent" }, async (memory) => {
        const stats = await memory.stats(
          options.agent === undefined ? {} : { agent_id: options.agent },
        );
        printResult(stats, options, () =>
          [
            `episodic  total ${stats.episodic.total}  active ${stats.episodic.active}  archived ${stats.episodic.archived}`,
            `semantic  total ${stats.semantic.total}  active ${stats.semantic.active}  archived ${stats.semantic.archived}`,
            `store     ${stats.store}`,
            `embedder  ${stats.embedder}`,
            `llm       ${describeLlm(stats.llm)}`,
            ...breakerLines(stats.llm.breaker),
          ].join("\n"),
        );
      });
    });
}
