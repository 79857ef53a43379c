/**
 * Input schemas, defined once and shared by the library, CLI, REST and MCP. Descriptions are
 * read by models choosing tool arguments, so they say what a field is for, not just its type.
 */
import { z } from "zod";
import { AUDITED_OPERATIONS } from "./audit.js";
import { parseInstant, parseTimeRange } from "./recall/time/range.js";
import { hasNul, NUL_MESSAGE, text } from "./text-schema.js";
import { LAYERS, OUTCOMES } from "./types.js";
import { SessionId } from "./working/schemas.js";

/** Documented size limits: bigger input is rejected, never truncated silently. */
export const LIMITS = {
  summaryChars: 8_000,
  /** A raw interaction to summarise; kept whole with the memory. */
  interactionChars: 32_000,
  contextChars: 8_000,
  keyChars: 1_000,
  valueChars: 8_000,
  taskTypeChars: 128,
  tagChars: 64,
  tags: 32,
  scopeChars: 256,
  queryChars: 2_000,
  metadataBytes: 16_384,
  metadataDepth: 8,
  topK: 20,
  listPage: 100,
  cursorChars: 512,
} as const;

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const optionalText = (max: number) => text(max).optional();

function depthOf(value: unknown): number {
  if (value === null || typeof value !== "object") return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + children.reduce<number>((max, child) => Math.max(max, depthOf(child)), 0);
}

function containsNul(value: unknown): boolean {
  if (typeof value === "string") return hasNul(value);
  if (value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) return value.some(containsNul);
  return Object.entries(value).some(([key, child]) => hasNul(key) || containsNul(child));
}

export const Metadata = z
  .record(z.string(), z.json())
  .superRefine((value, ctx) => {
    if (containsNul(value)) ctx.addIssue({ code: "custom", message: NUL_MESSAGE });
    if (Buffer.byteLength(JSON.stringify(value)) > LIMITS.metadataBytes) {
      ctx.addIssue({
        code: "custom",
        message: `must be at most ${LIMITS.metadataBytes} bytes as JSON`,
      });
    }
    if (depthOf(value) > LIMITS.metadataDepth) {
      ctx.addIssue({
        code: "custom",
        message: `must nest at most ${LIMITS.metadataDepth} levels deep`,
      });
    }
  })
  .describe("Free-form JSON object with extra facts about the memory (ids, parameters, links).");

export const Tags = z
  .array(text(LIMITS.tagChars))
  .max(LIMITS.tags)
  .describe('Short labels for filtering, e.g. ["deploy", "k8s"].');

/** Tags to filter by: memories holding any of them, or all of them (`tags_match`). */
export const TagFilter = z
  .array(text(LIMITS.tagChars))
  .min(1)
  .max(LIMITS.tags)
  .describe('Only memories with these tags, e.g. ["deploy"]: any of them, or all (tags_match).');

export const TagMatch = z
  .enum(["any", "all"])
  .default("any")
  .describe("any: memories with at least one of the tags; all: memories with every one.");

export const Instant = z
  .string()
  .refine((value) => parseInstant(value) !== undefined, "must be an ISO 8601 date or date-time");

export const TimeRangeText = z
  .string()
  .superRefine((value, ctx) => {
    const parsed = parseTimeRange(value);
    if (typeof parsed === "string") ctx.addIssue({ code: "custom", message: parsed });
  })
  .describe(
    "Event-time window '<from>~<to>' in ISO dates, e.g. '2024-01-01~2024-01-31'; a side may be empty.",
  );

const scope = {
  source: optionalText(LIMITS.scopeChars).describe(
    "What produced the memory: a conversation id, tool or agent name.",
  ),
  subject: optionalText(LIMITS.scopeChars).describe(
    "Whose memory it is: a user, an agent or an entity the memory is about.",
  ),
  user_id: optionalText(LIMITS.scopeChars).describe("The end user this memory belongs to."),
  agent_id: optionalText(LIMITS.scopeChars).describe("The agent this memory belongs to."),
  session_id: optionalText(LIMITS.scopeChars).describe(
    "The session it came from: a conversation or task-run id.",
  ),
};

const clientId = z
  .uuid()
  .optional()
  .describe(
    "Optional id chosen by the caller (UUID). Storing the same id again stores nothing new, so retries are safe.",
  );

/** Where a memory stored from a raw interaction keeps it, in its metadata. */
export const INTERACTION_METADATA_KEY = "hindsight";

export const StoreEpisodicInput = z
  .strictObject({
    id: clientId,
    task_type: text(LIMITS.taskTypeChars).describe(
      "Kind of task, a short stable label such as 'code_review' or 'deploy'.",
    ),
    summary: optionalText(LIMITS.summaryChars).describe(
      "What happened: goal, key action and result, in the user's language. Give this or interaction.",
    ),
    interaction: optionalText(LIMITS.interactionChars).describe(
      "The raw interaction (transcript, log, notes) instead of a summary: a language model " +
        "writes the summary (at most 80 characters, in the interaction's language), or an " +
        "extractive one when none is configured. The text is kept in metadata.hindsight.interaction.",
    ),
    context: optionalText(LIMITS.contextChars).describe(
      "What the summary leaves implicit, e.g. the conversation turns just before it: indexed for " +
        "keyword search at half the weight of the summary's words, not returned.",
    ),
    outcome: z.enum(OUTCOMES).describe("How the task ended: success, failure or partial."),
    tags: Tags.optional(),
    metadata: Metadata.optional(),
    occurred_at: Instant.optional().describe("When it happened (ISO 8601); defaults to now."),
    confidence: z.number().min(0).max(1).optional().describe("How sure the writer is, 0..1."),
    ...scope,
  })
  .superRefine((value, ctx) => {
    const given = [value.summary, value.interaction].filter((part) => part !== undefined).length;
    if (given !== 1) {
      ctx.addIssue({
        code: "custom",
        path: [value.summary === undefined ? "summary" : "interaction"],
        message: "give exactly one of summary or interaction",
      });
    }
    if (
      value.interaction !== undefined &&
      value.metadata?.[INTERACTION_METADATA_KEY] !== undefined
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["metadata", INTERACTION_METADATA_KEY],
        message: "is reserved for the record of the interaction when interaction is given",
      });
    }
  });
export type StoreEpisodicInput = z.infer<typeof StoreEpisodicInput>;

export const StoreSemanticInput = z.strictObject({
  id: clientId,
  key_text: text(LIMITS.keyChars).describe("The rule or fact, one sentence."),
  value_text: text(LIMITS.valueChars).describe("The advice or detail that goes with it."),
  task_type: optionalText(LIMITS.taskTypeChars).describe(
    "Kind of task this knowledge applies to, if any (same labels as episodic task_type).",
  ),
  confidence: z.number().min(0).max(1).optional().describe("Confidence 0..1; defaults to 1."),
  tags: Tags.optional(),
  metadata: Metadata.optional(),
  valid_from: Instant.optional().describe("From when the fact holds (ISO 8601); defaults to now."),
  source_episode_ids: z
    .array(z.uuid())
    .max(1000)
    .optional()
    .describe("Episodic memories this knowledge was drawn from (provenance)."),
  shared_group: optionalText(LIMITS.scopeChars).describe(
    "Share it with this group of agents (granted with `share grant`): requires `source`. " +
      "Writes from a low-trust source are quarantined, recalled only by their writer, until a " +
      "reviewer confirms them.",
  ),
  ...scope,
});
export type StoreSemanticInput = z.infer<typeof StoreSemanticInput>;

/** The recall schema with another top_k ceiling (library-only, for evaluations). */
export function recallInputSchema(maxTopK: number) {
  return z.strictObject({
    query_text: text(LIMITS.queryChars).describe(
      "Natural-language description of the current task or question.",
    ),
    memory_layer: z
      .enum([...LAYERS, "all"])
      .default("episodic")
      .describe("episodic: past task records; semantic: rules and facts; all: both."),
    task_type_filter: optionalText(LIMITS.taskTypeChars).describe(
      "Only memories of this task type.",
    ),
    top_k: z
      .number()
      .int()
      .min(1)
      .max(maxTopK)
      .default(5)
      .describe(`How many results, 1..${maxTopK}.`),
    time_range: TimeRangeText.optional(),
    user_id: optionalText(LIMITS.scopeChars).describe("Only memories of this user."),
    agent_id: optionalText(LIMITS.scopeChars).describe("Only memories of this agent."),
    session_id: optionalText(LIMITS.scopeChars).describe("Only memories of this session."),
    tags: TagFilter.optional(),
    tags_match: TagMatch,
    query_time: Instant.optional().describe(
      "The moment the query is asked, for phrases like 'yesterday' or '上周三' (ISO 8601); defaults to now.",
    ),
    time_zone: z
      .string()
      .refine(isTimeZone, "must be an IANA time zone such as Asia/Shanghai")
      .optional()
      .describe("Time zone whose days 'yesterday' or '上周三' mean; defaults to UTC."),
    include_archived: z.boolean().default(false).describe("Also search archived (cold) memories."),
    explain: z
      .boolean()
      .default(false)
      .describe("Add each result's raw ranking signals and ranks (for tuning and debugging)."),
    min_score: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe("Score floor: nothing below it is returned; defaults to the configured floor."),
  });
}

export const RecallInput = recallInputSchema(LIMITS.topK);
export type RecallInput = z.input<typeof RecallInput>;

export const StatsInput = z.strictObject({
  agent_id: optionalText(LIMITS.scopeChars).describe(
    "Count only this agent's memories (an agent-bound API key always counts its own).",
  ),
});
export type StatsInput = z.input<typeof StatsInput>;

export const ForgetInput = z.strictObject({
  memory_id: z.uuid().describe("Id of the memory to forget."),
  mode: z
    .enum(["soft", "hard"])
    .default("soft")
    .describe("soft: archive (reversible, left out of recall); hard: delete permanently."),
  reason: optionalText(1000).describe("Why, in a few words; kept in the audit log."),
});
export type ForgetInput = z.input<typeof ForgetInput>;

export const AuditInput = z.strictObject({
  since: Instant.optional().describe("Entries at or after this ISO 8601 time."),
  until: Instant.optional().describe("Entries before this ISO 8601 time."),
  operation: z
    .enum(AUDITED_OPERATIONS)
    .optional()
    .describe(
      "forget (soft), delete (hard), merge, supersede, restore, update; shared memory: confirm, reject, grant, revoke, trust.",
    ),
  memory_id: z.uuid().optional().describe("Entries about this memory only."),
  target: optionalText(LIMITS.scopeChars).describe(
    "Entries about this group (grant, revoke) or source (trust) only.",
  ),
  limit: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(100)
    .describe("Newest first; at most this many."),
});
export type AuditInput = z.input<typeof AuditInput>;

export const SummarizeInput = z
  .strictObject({
    memory_ids: z
      .array(z.uuid())
      .min(1)
      .max(50)
      .optional()
      .describe("The memories to summarise; or give query_text to summarise what recall finds."),
    query_text: optionalText(LIMITS.queryChars).describe(
      "Summarise the memories recalled for this query (up to 20, from both layers).",
    ),
    user_id: optionalText(LIMITS.scopeChars).describe(
      "With query_text: only memories of this user.",
    ),
    agent_id: optionalText(LIMITS.scopeChars).describe(
      "With query_text: only this agent's memories and its groups' shared knowledge; with session_id: the agent whose session it is.",
    ),
    session_id: SessionId.optional().describe(
      "Compress this working-memory session now: everything but its goal, latest instruction and open tool calls folds into its four-part summary.",
    ),
    max_tokens: z
      .number()
      .int()
      .min(20)
      .max(4000)
      .default(200)
      .describe("Length budget of the summary in tokens (cl100k), default 200."),
  })
  .refine(
    (value) =>
      [value.memory_ids, value.query_text, value.session_id].filter((given) => given !== undefined)
        .length === 1,
    { message: "give exactly one of memory_ids, query_text or session_id", path: ["memory_ids"] },
  )
  .refine(
    (value) =>
      value.query_text !== undefined ||
      value.session_id !== undefined ||
      value.agent_id === undefined,
    {
      message:
        "scopes a summary of recalled memories or a session: give it with query_text or session_id",
      path: ["agent_id"],
    },
  )
  .refine((value) => value.query_text !== undefined || value.user_id === undefined, {
    message: "scopes only a summary of recalled memories: give it with query_text",
    path: ["user_id"],
  });
export type SummarizeInput = z.input<typeof SummarizeInput>;

// ---- Memory lifecycle: maintenance, consolidation, feedback, history, restore.

const SimulatedNow = Instant.optional().describe(
  "Run as if it were this moment (ISO 8601), to simulate time; defaults to now.",
);

const DryRun = z.boolean().default(false).describe("Report what would change and change nothing.");

export const MaintainInput = z.strictObject({ now: SimulatedNow, dry_run: DryRun });
export type MaintainInput = z.input<typeof MaintainInput>;

export const ConsolidateInput = z.strictObject({
  task_type: optionalText(LIMITS.taskTypeChars).describe("Only consolidate this task type."),
  now: SimulatedNow,
  dry_run: DryRun.describe(
    "Report the patterns it would create or merge and change nothing (a language model is still asked, as in a real run).",
  ),
});
export type ConsolidateInput = z.input<typeof ConsolidateInput>;

export const FeedbackInput = z.strictObject({
  memory_id: z.uuid().describe("Id of a recalled memory."),
  useful: z
    .boolean()
    .describe("true: it helped (confidence rises); false: it was wrong or useless (it falls)."),
  reason: optionalText(1000).describe("Why, in a few words; kept in the memory's history."),
});
export type FeedbackInput = z.input<typeof FeedbackInput>;

/**
 * What `list` shows: current memories (active, and for knowledge neither superseded nor
 * waiting for or refused in review) by default; the other states on request.
 */
export const LIST_STATUSES = [
  "active",
  "archived",
  "quarantined",
  "rejected",
  "superseded",
  "all",
] as const;
export type ListStatus = (typeof LIST_STATUSES)[number];

export const ListInput = z.strictObject({
  memory_layer: z
    .enum([...LAYERS, "all"])
    .default("all")
    .describe("episodic: past task records; semantic: rules and facts; all: both."),
  task_type: optionalText(LIMITS.taskTypeChars).describe("Only memories of this task type."),
  tags: TagFilter.optional(),
  tags_match: TagMatch,
  status: z
    .enum(LIST_STATUSES)
    .default("active")
    .describe(
      "active: current memories; archived: in cold storage; quarantined / rejected: shared knowledge waiting for review / refused; superseded: replaced by a newer fact; all: every one.",
    ),
  user_id: optionalText(LIMITS.scopeChars).describe("Only memories of this user."),
  agent_id: optionalText(LIMITS.scopeChars).describe("Only memories of this agent."),
  session_id: optionalText(LIMITS.scopeChars).describe("Only memories of this session."),
  time_range: TimeRangeText.optional(),
  limit: z
    .number()
    .int()
    .min(1)
    .max(LIMITS.listPage)
    .default(20)
    .describe(`Memories per page, 1..${LIMITS.listPage}.`),
  cursor: z
    .string()
    .max(LIMITS.cursorChars)
    .optional()
    .describe("The previous page's next_cursor, for the page after it."),
});
export type ListInput = z.input<typeof ListInput>;

/** The fields a correction may change, per layer; the others belong to the other layer. */
export const UPDATABLE_FIELDS = {
  episodic: ["summary", "task_type", "outcome", "tags", "metadata", "confidence"],
  semantic: ["key_text", "value_text", "task_type", "tags", "metadata", "confidence"],
} as const;

export const UpdateInput = z
  .strictObject({
    memory_id: z.uuid().describe("Id of the memory to correct, of either layer."),
    summary: optionalText(LIMITS.summaryChars).describe("Episodic: the corrected summary."),
    key_text: optionalText(LIMITS.keyChars).describe("Semantic: the corrected rule or fact."),
    value_text: optionalText(LIMITS.valueChars).describe("Semantic: the corrected detail."),
    task_type: optionalText(LIMITS.taskTypeChars).describe("The corrected task type."),
    outcome: z.enum(OUTCOMES).optional().describe("Episodic: the corrected outcome."),
    tags: Tags.optional().describe("The memory's tags from now on (they replace the old ones)."),
    metadata: Metadata.optional().describe(
      "The memory's metadata from now on (it replaces the old).",
    ),
    confidence: z.number().min(0).max(1).optional().describe("The confidence from now on, 0..1."),
    reason: optionalText(1000).describe(
      "Why, in a few words; kept in its history and the audit log.",
    ),
  })
  .refine((value) => Object.keys(value).some((key) => key !== "memory_id" && key !== "reason"), {
    message: "give at least one field to change",
  });
export type UpdateInput = z.input<typeof UpdateInput>;

export const MemoryIdInput = z.strictObject({
  memory_id: z.uuid().describe("Id of a memory of either layer."),
});
export type MemoryIdInput = z.input<typeof MemoryIdInput>;
