/**
 * Working-memory input and output schemas, shared by the library, CLI, REST and MCP.
 */
import { z } from "zod";
import { text } from "../text-schema.js";
import { OUTCOMES } from "../types.js";
import { ITEM_KINDS, ITEM_ROLES } from "./types.js";

export const WORKING_LIMITS = {
  sessionChars: 128,
  contentChars: 32_000,
  minBudget: 500,
  maxBudget: 200_000,
  /** The four summary parts together, as the design asks. */
  summaryChars: 200,
  /** An ended session's episodic summary: goal, key action and result. */
  episodicSummaryChars: 80,
} as const;

export const SessionId = z
  .string()
  .min(1, "must not be empty")
  .max(WORKING_LIMITS.sessionChars)
  .regex(/^[\w.:@-]+$/u, "may hold only letters, digits and . _ : @ -")
  .describe("The working-memory session, e.g. a conversation or task run id.");

/** Sessions belong to their agent: two agents' sessions of the same id are two sessions. */
const AgentId = text(256).describe(
  "The agent whose session it is: each agent's sessions are its own, even under the same id (an agent-bound API key sets it).",
);

export const Budget = z
  .number()
  .int()
  .min(WORKING_LIMITS.minBudget)
  .max(WORKING_LIMITS.maxBudget)
  .describe(
    "Token budget (cl100k) of this session's context; sets the session's override. Default 4000.",
  );

export const WorkingAppendInput = z.strictObject({
  session_id: SessionId,
  id: z
    .uuid()
    .optional()
    .describe(
      "Optional item id (UUID); appending the same id again adds nothing, so retries are safe.",
    ),
  kind: z
    .enum(ITEM_KINDS)
    .default("message")
    .describe(
      "goal: what the session is for; instruction: the user's latest request; message; " +
        "tool_call: a call in progress (kept until a result follows); result; note.",
    ),
  role: z.enum(ITEM_ROLES).describe("Who produced the item: user, assistant, tool or system."),
  content: text(WORKING_LIMITS.contentChars).describe(
    "The item's text: the message, the tool call with its arguments, the result…",
  ),
  budget: Budget.optional(),
  agent_id: AgentId.optional(),
});
export type WorkingAppendInput = z.input<typeof WorkingAppendInput>;

export const WorkingGetInput = z.strictObject({
  session_id: SessionId,
  budget: Budget.optional(),
  agent_id: AgentId.optional(),
});
export type WorkingGetInput = z.input<typeof WorkingGetInput>;

export const WorkingCompressInput = WorkingGetInput;
export type WorkingCompressInput = WorkingGetInput;

export const WorkingEndInput = z.strictObject({
  session_id: SessionId,
  task_type: text(128).describe(
    "Kind of task the session was, e.g. 'deploy' (the episodic memory's task_type).",
  ),
  outcome: z.enum(OUTCOMES).describe("How the task ended: success, failure or partial."),
  tags: z.array(text(64)).max(32).optional(),
  user_id: text(256).optional(),
  agent_id: AgentId.optional().describe(
    "The agent whose session it is; also the ended episode's agent_id.",
  ),
});
export type WorkingEndInput = z.input<typeof WorkingEndInput>;

export const WorkingListInput = z.strictObject({
  agent_id: AgentId.optional().describe(
    "Only this agent's sessions (an agent-bound API key sets it); without it, every session.",
  ),
  limit: z
    .number()
    .int()
    .min(1)
    .max(200)
    .default(50)
    .describe("How many sessions, most recently written first (1-200, default 50)."),
});
export type WorkingListInput = z.input<typeof WorkingListInput>;

const Instant = z.string().describe("ISO 8601 date-time");

export const WorkingItemOutput = z.object({
  seq: z.number().int(),
  id: z.uuid(),
  kind: z.enum(ITEM_KINDS),
  role: z.enum(ITEM_ROLES),
  content: z.string(),
  created_at: Instant,
});

export const WorkingSummaryOutput = z
  .object({
    goal: z.string().describe("The session's original goal."),
    done: z.string().describe("Key steps already done."),
    blocked: z.string().describe("Where the work is stuck, if anywhere."),
    next: z.string().describe("What comes next."),
    method: z.enum(["llm", "deterministic"]),
    items_summarized: z.number().int().describe("How many items the summary stands for."),
    updated_at: Instant,
  })
  .describe("Four-part summary (at most 200 characters) of the items compressed away.");

export const WorkingContextOutput = z.object({
  session: z.string(),
  tokens: z.number().int().describe("Tokens (cl100k) of `context`; never above budget."),
  budget: z.number().int(),
  summary: WorkingSummaryOutput.nullable(),
  items: z.array(WorkingItemOutput).describe("Items kept verbatim, oldest first."),
  context: z.string().describe("The assembled session, ready to paste into a prompt."),
});

export const WorkingAppendOutput = z.object({
  session: z.string(),
  seq: z.number().int(),
  tokens: z.number().int(),
  budget: z.number().int(),
  compressed: z.boolean().describe("Whether this append pushed the session over budget."),
});

export const WorkingEndOutput = z.object({
  episodic_id: z.uuid(),
  summary: z.string().describe("The episodic memory's summary: goal, key action, result."),
  method: z.enum(["llm", "deterministic"]),
});

export const WorkingSessionsOutput = z.object({
  sessions: z
    .array(
      z.object({
        session: z.string(),
        agent_id: z.string().nullable(),
        items: z.number().int().describe("Items kept verbatim."),
        tokens: z.number().int().describe("Tokens (cl100k) of the assembled context."),
        budget: z.number().int(),
        goal: z.string().nullable(),
        summary: WorkingSummaryOutput.nullable(),
        last_activity_at: Instant.nullable(),
        expires_at: Instant,
      }),
    )
    .describe("Live sessions, most recently written first."),
  total: z.number().int().describe("Live sessions in scope."),
});
