import type { Command } from "commander";
import type { RecalledMemory } from "../../core/types.js";
import { withHindsight } from "../context.js";
import { printResult } from "../output.js";
import { defined, numeric } from "../parse.js";

const FLAGS = {
  query_text: "<query>",
  memory_layer: "--layer",
  task_type_filter: "--task-type",
  top_k: "--top-k",
  time_range: "--time-range",
  user_id: "--user",
  agent_id: "--agent",
  session_id: "--session",
  min_score: "--min-score",
  explain: "--explain",
  query_time: "--query-time",
  time_zone: "--time-zone",
};

interface RecallOptions {
  layer?: string;
  taskType?: string;
  topK?: string;
  timeRange?: string;
  user?: string;
  agent?: string;
  session?: string;
  minScore?: string;
  includeArchived?: boolean;
  queryTime?: string;
  timeZone?: string;
  explain?: boolean;
  json?: boolean;
}

function describe(result: RecalledMemory): string {
  const head = `${result.score.toFixed(3)}  ${result.layer}  ${result.id}`;
  if (result.layer === "episodic") {
    const when = result.occurred_at.toISOString().slice(0, 16).replace("T", " ");
    return `${head}  ${result.task_type}  ${result.outcome}  ${when}\n    ${result.summary}`;
  }
  const fact = `${head}  confidence ${result.confidence}\n    ${result.key_text}\n    → ${result.value_text}`;
  if (result.shared_group === null) return fact;
  // Shared knowledge says where it came from, so a reader can weigh it.
  const writer = result.agent_id ? ` by ${result.agent_id}` : "";
  const review = result.reviewed_by
    ? `${result.review_status} by ${result.reviewed_by}`
    : result.review_status;
  return `${fact}\n    shared with ${result.shared_group}: from ${result.source} (trust ${result.source_trust})${writer}, ${review}`;
}

function explain(result: RecalledMemory): string {
  const e = result.explanation;
  if (!e) return "";
  const f = (value: number) => value.toFixed(3);
  return (
    `\n    why: ${e.fusion}  cosine ${f(e.vector_similarity)} (#${e.ranks.vector})  ` +
    `bm25 ${f(e.bm25)} (#${e.ranks.keyword})  ` +
    (e.feedback > 0 ? `feedback ${f(e.feedback)}  ` : "") +
    `freshness ${f(e.freshness)}  ` +
    `frequency ${f(e.frequency)}  outcome ×${e.outcome_weight}` +
    (e.vector_coverage < 1 ? `  embedder covers ${f(e.vector_coverage)} of the query` : "") +
    (e.keyword_trust < 1 ? `  keywords trusted ${f(e.keyword_trust)}` : "")
  );
}

export function registerRecall(program: Command): void {
  program
    .command("recall")
    .description("search memories relevant to a query, best first")
    .argument("<query>", "natural-language description of the task or question")
    .option("--layer <layer>", "episodic | semantic | all", "episodic")
    .option("--task-type <type>", "only memories of this task type")
    .option("--top-k <n>", "how many results, 1..20", "5")
    .option("--time-range <from~to>", "event-time window, e.g. 2024-01-01~2024-01-31")
    .option("--user <id>", "only memories of this user")
    .option("--agent <id>", "only memories of this agent")
    .option("--session <id>", "only memories of this session")
    .option("--min-score <0..1>", "score floor; default the configured one")
    .option(
      "--query-time <iso>",
      "when the query is asked, for 'yesterday' or '上周三'; default now",
    )
    .option("--time-zone <zone>", "IANA time zone of those days, e.g. Asia/Shanghai; default UTC")
    .option("--include-archived", "also search archived memories")
    .option("--explain", "show each result's raw ranking signals and ranks")
    .option("--json", "print the result as JSON")
    .action(async (query: string, options: RecallOptions, command: Command) => {
      await withHindsight(command, options, FLAGS, async (memory) => {
        const result = await memory.recall(
          defined({
            query_text: query,
            memory_layer: options.layer,
            task_type_filter: options.taskType,
            top_k: numeric(options.topK),
            time_range: options.timeRange,
            user_id: options.user,
            agent_id: options.agent,
            session_id: options.session,
            min_score: numeric(options.minScore),
            include_archived: options.includeArchived,
            query_time: options.queryTime,
            time_zone: options.timeZone,
            explain: options.explain,
          }),
        );
        printResult(result, options, () =>
          result.results.length === 0
            ? "no memories above the score floor"
            : result.results.map((r) => describe(r) + explain(r)).join("\n"),
        );
      });
    });
}
