/** Working memory: append to a session, read it within budget, compress it, end it. */

import {
  WorkingAppendInput,
  WorkingAppendOutput,
  WorkingCompressInput,
  WorkingContextOutput,
  WorkingEndInput,
  WorkingEndOutput,
  WorkingGetInput,
  WorkingListInput,
  WorkingSessionsOutput,
} from "../core/working/schemas.js";
import type { WorkingContext, WorkingSessionList } from "../core/working/types.js";
import { defineOperations } from "./spec.js";

const TAG = "working memory";
const session = { session: "session_id" };
const sessionFlag = { flag: "--session <id>", help: "session id" };
const agentFlag = { flag: "--agent <id>", help: "the agent whose session it is" };
const contextText = (result: WorkingContext) =>
  `${result.context}\n(${result.tokens}/${result.budget} tokens)`;

function sessionsText({ sessions, total }: WorkingSessionList): string {
  if (sessions.length === 0) return "no live working-memory sessions";
  const lines = sessions.map((entry) => {
    const owner = entry.agent_id === null ? "" : ` (agent ${entry.agent_id})`;
    const last = entry.last_activity_at?.toISOString() ?? "-";
    const goal = entry.goal ? `  goal: ${entry.goal}` : "";
    return `${entry.session}${owner}  ${entry.tokens}/${entry.budget} tokens, ${entry.items} items, last ${last}${goal}`;
  });
  const more = total > sessions.length ? [`(${sessions.length} of ${total} sessions)`] : [];
  return [...lines, ...more].join("\n");
}

export const workingOperations = defineOperations({
  workingAppend: {
    summary: "Append an item to a working-memory session",
    description:
      "Creates the session on first use. When the item takes the session over its token budget, " +
      "everything but the goal, the latest instruction and open tool calls is compressed.",
    input: WorkingAppendInput,
    output: WorkingAppendOutput,
    effect: "write",
    // Sessions belong to their agent: the key's agent addresses its own sessions only.
    agent: { kind: "as-agent" },
    http: [
      {
        method: "post",
        path: "/v1/working/{session}/items",
        tag: TAG,
        params: session,
        status: 201,
        returns: "Appended; its sequence number.",
        errors: [400, 413, 503],
      },
    ],
    mcp: {
      name: "working_memory_append",
      title: "Append to working memory",
      description:
        "Record what is happening in the current task, item by item, in a working-memory session " +
        "(session_id: your conversation or task run). Call it as the task goes: the goal once (kind goal), each new " +
        "user request (instruction), tool calls in progress (tool_call) and their results (result), " +
        "and notes on progress or plans (note). When the session outgrows its token budget (default " +
        "4000), older items are compressed into a summary of goal, steps done, where you are stuck " +
        "and next step; the goal, the latest instruction and open tool calls stay word for word. " +
        "记录当前任务的工作记忆：目标、指令、工具调用与结果；超出预算时自动压缩。",
      // Each call adds an item (unless the same item id is given again).
      idempotent: false,
      text: (result) =>
        `Appended item #${result.seq} to ${result.session} (${result.tokens}/${result.budget} tokens${result.compressed ? "; older items compressed" : ""}).`,
    },
    cli: [
      {
        command: "working append",
        description: "add an item to a session; compresses the session when it outgrows its budget",
        options: {
          session_id: sessionFlag,
          role: { flag: "--role <role>", help: "user | assistant | tool | system" },
          kind: {
            flag: "--kind <kind>",
            help: "goal | instruction | message | tool_call | result | note",
            default: "message",
          },
          content: { flag: "--content <text>", help: "the item's text" },
          id: { flag: "--id <uuid>", help: "item id: appending the same id again adds nothing" },
          budget: { flag: "--budget <n>", help: "set the session's token budget (default 4000)" },
          agent_id: {
            flag: "--agent <id>",
            help: "the agent whose session it is (each agent's sessions are its own)",
          },
        },
        human: (result) =>
          `appended #${result.seq} to ${result.session} (${result.tokens}/${result.budget} tokens${result.compressed ? ", compressed" : ""})`,
      },
    ],
  },

  workingGet: {
    summary: "The session's context within its token budget, ready to paste into a prompt",
    input: WorkingGetInput,
    output: WorkingContextOutput,
    // A budget given becomes the session's and may compress it; what it held stays summarised.
    effect: "write",
    agent: { kind: "as-agent" },
    http: [
      {
        method: "get",
        path: "/v1/working/{session}",
        tag: TAG,
        description:
          "Reads only. To give the session another budget (which may compress it), POST it to /v1/working/{session}/budget.",
        params: session,
        // A GET never writes (it is also what a cross-site page can make a browser send).
        query: ["agent_id"],
        status: 200,
        returns: "The session.",
        errors: [400, 404, 503],
      },
      {
        method: "post",
        path: "/v1/working/{session}/budget",
        operationId: "workingSetBudget",
        summary: "Give the session a token budget; answers its context within it",
        description:
          "The budget becomes the session's own; when the session is over it, everything but the " +
          "goal, the latest instruction and open tool calls is compressed.",
        tag: TAG,
        params: session,
        requires: ["budget"],
        status: 200,
        returns: "The session within its new budget.",
        errors: [400, 404, 503],
      },
    ],
    mcp: {
      name: "working_memory_get",
      title: "Get working memory",
      description:
        "Get the current task's working memory within its token budget: the summary of earlier " +
        "work (goal, done, blocked, next) and the items kept word for word, assembled as text to " +
        "put into your context. Call it when you resume a task or lost track of what was done. " +
        "A budget given here becomes the session's. A session that never started, ended or " +
        "expired (24 h after its last write by default) is NOT_FOUND. 获取当前任务的工作记忆（预算内）。",
      // A smaller budget may compress the session, but asking again changes nothing more.
      idempotent: true,
      text: (context) => context.context,
    },
    cli: [
      {
        command: "working get",
        description: "print the session's context within its budget, ready to paste into a prompt",
        options: {
          session_id: sessionFlag,
          budget: { flag: "--budget <n>", help: "set the session's token budget first" },
          agent_id: agentFlag,
        },
        human: contextText,
      },
    ],
  },

  workingCompress: {
    summary: "Compress the session now into its four-part summary",
    input: WorkingCompressInput,
    output: WorkingContextOutput,
    effect: "write",
    agent: { kind: "as-agent" },
    http: [
      {
        method: "post",
        path: "/v1/working/{session}/compress",
        tag: TAG,
        params: session,
        query: ["agent_id"],
        body: false,
        status: 200,
        returns: "The compressed session.",
        errors: [400, 404, 503],
      },
    ],
    // memory_summarize with session_id is the tool for it.
    mcp: null,
    cli: [
      {
        command: "working compress",
        description:
          "fold everything but the goal, latest instruction and open tool calls into the summary",
        options: { session_id: sessionFlag, agent_id: agentFlag },
        human: contextText,
      },
    ],
  },

  workingEnd: {
    summary: "End the session: promote it to an episodic memory and clear it",
    input: WorkingEndInput,
    output: WorkingEndOutput,
    effect: "destructive",
    embeds: true,
    agent: { kind: "as-agent" },
    http: [
      {
        method: "post",
        path: "/v1/working/{session}/end",
        tag: TAG,
        params: session,
        status: 201,
        returns: "The episodic memory it became.",
        errors: [400, 404, 413, 503],
      },
    ],
    mcp: {
      name: "working_memory_end",
      title: "End a working-memory session",
      description:
        "Finish the current task: its working-memory session becomes an episodic memory (task_type, " +
        "outcome, an 80-character summary of goal, key action and result; the session's items in " +
        "its metadata) that later tasks can recall, and the session is cleared. Call it when the " +
        "task succeeds, fails or is abandoned. 结束会话：转存为情景记忆并清空工作记忆。",
      idempotent: false,
      text: (result) =>
        `Stored the session as episodic memory ${result.episodic_id}: ${result.summary}`,
    },
    cli: [
      {
        command: "working end",
        description: "promote the session to an episodic memory and clear it",
        options: {
          session_id: sessionFlag,
          task_type: { flag: "--task-type <type>", help: "kind of task, e.g. deploy" },
          outcome: { flag: "--outcome <outcome>", help: "success | failure | partial" },
          tags: { flag: "--tags <a,b>", help: "comma-separated tags for the episodic memory" },
          user_id: { flag: "--user <id>", help: "user id scope" },
          agent_id: {
            flag: "--agent <id>",
            help: "the agent whose session it is; the episode's agent id",
          },
        },
        human: (result) => `episodic memory ${result.episodic_id}: ${result.summary}`,
      },
    ],
  },

  workingList: {
    summary: "The live working-memory sessions, most recently written first",
    description:
      "Each session with its budget use (tokens of its assembled context against its budget), " +
      "its goal, its four-part summary and when it expires. With agent_id, that agent's sessions only.",
    input: WorkingListInput,
    output: WorkingSessionsOutput,
    effect: "read",
    // An agent-bound key lists its own agent's sessions, as it reads only its own.
    agent: { kind: "as-agent" },
    http: [
      {
        method: "get",
        path: "/v1/working",
        tag: TAG,
        query: ["agent_id", "limit"],
        status: 200,
        returns: "The sessions.",
        errors: [400, 503],
      },
    ],
    // An agent addresses its session by the id it chose; listing is for the people watching.
    mcp: null,
    cli: [
      {
        command: "working list",
        description: "the live sessions, most recently written first, with their budget use",
        options: {
          agent_id: { flag: "--agent <id>", help: "only this agent's sessions" },
          limit: { flag: "--limit <n>", help: "how many (1-200)", default: "50" },
        },
        human: sessionsText,
      },
    ],
  },
});
