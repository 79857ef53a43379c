import type { Command } from "commander";
import type { WorkingContext } from "../../core/working/types.js";
import { withHindsight } from "../context.js";
import { printResult } from "../output.js";
import { csv, defined, numeric } from "../parse.js";

const FLAGS = {
  session_id: "--session",
  role: "--role",
  kind: "--kind",
  content: "--content",
  id: "--id",
  budget: "--budget",
  task_type: "--task-type",
  outcome: "--outcome",
  tags: "--tags",
  user_id: "--user",
  agent_id: "--agent",
};

interface WorkingOptions {
  session?: string;
  role?: string;
  kind?: string;
  content?: string;
  id?: string;
  budget?: string;
  taskType?: string;
  outcome?: string;
  tags?: string;
  user?: string;
  agent?: string;
  json?: boolean;
}

const contextText = (result: WorkingContext) =>
  `${result.context}\n(${result.tokens}/${result.budget} tokens)`;

export function registerWorking(program: Command): void {
  const working = program
    .command("working")
    .description("working memory: the current task's context under a token budget");

  working
    .command("append")
    .description("add an item to a session; compresses the session when it outgrows its budget")
    .option("--session <id>", "session id")
    .option("--role <role>", "user | assistant | tool | system")
    .option("--kind <kind>", "goal | instruction | message | tool_call | result | note", "message")
    .option("--content <text>", "the item's text")
    .option("--id <uuid>", "item id: appending the same id again adds nothing")
    .option("--budget <n>", "set the session's token budget (default 4000)")
    .option("--agent <id>", "the agent whose session it is (each agent's sessions are its own)")
    .option("--json", "print the result as JSON")
    .action(async (options: WorkingOptions, command: Command) => {
      await withHindsight(command, options, FLAGS, async (memory) => {
        const result = await memory.workingAppend(
          defined({
            session_id: options.session,
            role: options.role,
            kind: options.kind,
            content: options.content,
            id: options.id,
            budget: numeric(options.budget),
            agent_id: options.agent,
          }),
        );
        printResult(
          result,
          options,
          () =>
            `appended #${result.seq} to ${result.session} (${result.tokens}/${result.budget} tokens${result.compressed ? ", compressed" : ""})`,
        );
      });
    });

  working
    .command("get")
    .description("print the session's context within its budget, ready to paste into a prompt")
    .option("--session <id>", "session id")
    .option("--budget <n>", "set the session's token budget first")
    .option("--agent <id>", "the agent whose session it is")
    .option("--json", "print the result as JSON")
    .action(async (options: WorkingOptions, command: Command) => {
      await withHindsight(command, options, FLAGS, async (memory) => {
        const result = await memory.workingGet(
          defined({
            session_id: options.session,
            budget: numeric(options.budget),
            agent_id: options.agent,
          }),
        );
        printResult(result, options, () => contextText(result));
      });
    });

  working
    .command("compress")
    .description(
      "fold everything but the goal, latest instruction and open tool calls into the summary",
    )
    .option("--session <id>", "session id")
    .option("--agent <id>", "the agent whose session it is")
    .option("--json", "print the result as JSON")
    .action(async (options: WorkingOptions, command: Command) => {
      await withHindsight(command, options, FLAGS, async (memory) => {
        const result = await memory.workingCompress(
          defined({ session_id: options.session, agent_id: options.agent }),
        );
        printResult(result, options, () => contextText(result));
      });
    });

  working
    .command("end")
    .description("promote the session to an episodic memory and clear it")
    .option("--session <id>", "session id")
    .option("--task-type <type>", "kind of task, e.g. deploy")
    .option("--outcome <outcome>", "success | failure | partial")
    .option("--tags <a,b>", "comma-separated tags for the episodic memory")
    .option("--user <id>", "user id scope")
    .option("--agent <id>", "the agent whose session it is; the episode's agent id")
    .option("--json", "print the result as JSON")
    .action(async (options: WorkingOptions, command: Command) => {
      await withHindsight(command, options, FLAGS, async (memory) => {
        const result = await memory.workingEnd(
          defined({
            session_id: options.session,
            task_type: options.taskType,
            outcome: options.outcome,
            tags: csv(options.tags),
            user_id: options.user,
            agent_id: options.agent,
          }),
        );
        printResult(
          result,
          options,
          () => `episodic memory ${result.episodic_id}: ${result.summary}`,
        );
      });
    });
}
