import type { Command } from "commander";
import { withHindsight } from "../context.js";
import { printResult } from "../output.js";
import { csv, defined, jsonObject, numeric, readStdin } from "../parse.js";

const FLAGS = {
  task_type: "--task-type",
  summary: "--summary",
  interaction: "--interaction",
  context: "--context",
  outcome: "--outcome",
  tags: "--tags",
  metadata: "--metadata",
  source: "--source",
  subject: "--subject",
  occurred_at: "--time",
  user_id: "--user",
  agent_id: "--agent",
  session_id: "--session",
  confidence: "--confidence",
};

interface StoreOptions {
  taskType?: string;
  summary?: string;
  interaction?: string;
  context?: string;
  outcome?: string;
  tags?: string;
  metadata?: string;
  source?: string;
  subject?: string;
  time?: string;
  user?: string;
  agent?: string;
  session?: string;
  confidence?: string;
  json?: boolean;
}

export function registerStore(program: Command): void {
  program
    .command("store")
    .description("store one task interaction as an episodic memory")
    .option("--task-type <type>", "kind of task, e.g. deploy or code_review")
    .option("--summary <text>", "what happened: goal, key action, result")
    .option(
      "--interaction <text>",
      "the raw interaction instead of --summary ('-' reads stdin): the summary is written for it",
    )
    .option(
      "--context <text>",
      "what the summary leaves implicit (e.g. the preceding turns); searched, not returned",
    )
    .option("--outcome <outcome>", "success | failure | partial")
    .option("--tags <a,b>", "comma-separated tags")
    .option("--metadata <json>", "a JSON object of extra facts")
    .option("--source <source>", "conversation, tool or agent that produced it")
    .option("--subject <subject>", "whose memory it is (user, agent or entity)")
    .option("--time <iso>", "when it happened (ISO 8601); default now")
    .option("--user <id>", "user id scope")
    .option("--agent <id>", "agent id scope")
    .option("--session <id>", "session id scope (conversation or task run)")
    .option("--confidence <0..1>", "how sure the writer is")
    .option("--json", "print the result as JSON")
    .action(async (options: StoreOptions, command: Command) => {
      await withHindsight(command, options, FLAGS, async (memory, logger) => {
        const result = await memory.storeEpisodic(
          defined({
            task_type: options.taskType,
            summary: options.summary,
            interaction: options.interaction === "-" ? await readStdin() : options.interaction,
            context: options.context,
            outcome: options.outcome,
            tags: csv(options.tags),
            metadata: jsonObject("metadata", options.metadata),
            source: options.source,
            subject: options.subject,
            occurred_at: options.time,
            user_id: options.user,
            agent_id: options.agent,
            session_id: options.session,
            confidence: numeric(options.confidence),
          }),
        );
        if (result.summary !== undefined) {
          logger.info(`summary (${result.summary_source}): ${result.summary}`);
        }
        printResult(result, options, () => result.id);
      });
    });
}
