import type { Command } from "commander";
import { withHindsight } from "../context.js";
import { printResult } from "../output.js";
import { csv, defined, jsonObject, numeric } from "../parse.js";

const FLAGS = {
  key_text: "--key",
  value_text: "--value",
  task_type: "--task-type",
  confidence: "--confidence",
  tags: "--tags",
  metadata: "--metadata",
  source: "--source",
  subject: "--subject",
  user_id: "--user",
  agent_id: "--agent",
  session_id: "--session",
  source_episode_ids: "--sources",
  shared_group: "--shared-group",
};

interface StoreFactOptions {
  key?: string;
  value?: string;
  taskType?: string;
  confidence?: string;
  tags?: string;
  metadata?: string;
  source?: string;
  subject?: string;
  user?: string;
  agent?: string;
  session?: string;
  sources?: string;
  sharedGroup?: string;
  json?: boolean;
}

export function registerStoreFact(program: Command): void {
  program
    .command("store-fact")
    .description("store a rule or fact as a semantic memory")
    .option("--key <text>", "the rule or fact, one sentence")
    .option("--value <text>", "the advice or detail")
    .option("--task-type <type>", "kind of task it applies to")
    .option("--confidence <0..1>", "confidence; default 1")
    .option("--tags <a,b>", "comma-separated tags")
    .option("--metadata <json>", "a JSON object of extra facts")
    .option("--source <source>", "where the knowledge came from")
    .option("--subject <subject>", "whose knowledge it is (user, agent or entity)")
    .option("--user <id>", "user id scope")
    .option("--agent <id>", "agent id scope")
    .option("--session <id>", "session id scope (conversation or task run)")
    .option("--sources <ids>", "comma-separated ids of the episodic memories it was drawn from")
    .option(
      "--shared-group <group>",
      "share it with this group of agents (needs --source; low-trust sources are quarantined)",
    )
    .option("--json", "print the result as JSON")
    .action(async (options: StoreFactOptions, command: Command) => {
      await withHindsight(command, options, FLAGS, async (memory) => {
        const result = await memory.storeSemantic(
          defined({
            key_text: options.key,
            value_text: options.value,
            task_type: options.taskType,
            confidence: numeric(options.confidence),
            tags: csv(options.tags),
            metadata: jsonObject("metadata", options.metadata),
            source: options.source,
            subject: options.subject,
            user_id: options.user,
            agent_id: options.agent,
            session_id: options.session,
            source_episode_ids: csv(options.sources),
            shared_group: options.sharedGroup,
          }),
        );
        printResult(result, options, () => {
          const lines = [result.id];
          if (result.merged_into) {
            lines.push("merged into this existing memory, which said nearly the same");
          }
          if (result.superseded) lines.push(`supersedes ${result.superseded.join(", ")}`);
          if (result.review_status === "quarantined") {
            lines.push(
              `quarantined: only its writer recalls it until confirmed (hindsight share confirm ${result.id} --by <reviewer>)`,
            );
          } else if (result.shared_group) {
            lines.push(`shared with ${result.shared_group}`);
          }
          return lines.join("\n");
        });
      });
    });
}
