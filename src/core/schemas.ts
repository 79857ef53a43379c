/**
 * Input schemas, defined once and shared by the library, CLI, REST and MCP. Descriptions are
 * read by models choosing tool arguments, so they say what a field is for, not just its type.
 */
import { z } from "zod";
import { parseInstant, parseTimeRange } from "./time-range.js";
import { LAYERS, OUTCOMES } from "./types.js";

/** Documented size limits: bigger input is rejected, never truncated silently. */
export const LIMITS = {
  summaryChars: 8_000,
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
} as const;

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const text = (max: number) => z.string().trim().min(1, "must not be empty").max(max);
const optionalText = (max: number) =>
  z.string().trim().min(1, "must not be empty").max(max).optional();

function depthOf(value: unknown): number {
  if (value === null || typeof value !== "object") return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + children.reduce<number>((max, child) => Math.max(max, depthOf(child)), 0);
}

export const Metadata = z
  .record(z.string(), z.json())
  .superRefine((value, ctx) => {
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
};

const clientId = z
  .uuid()
  .optional()
  .describe(
    "Optional id chosen by the caller (UUID). Storing the same id again stores nothing new, so retries are safe.",
  );

export const StoreEpisodicInput = z.strictObject({
  id: clientId,
  task_type: text(LIMITS.taskTypeChars).describe(
    "Kind of task, a short stable label such as 'code_review' or 'deploy'.",
  ),
  summary: text(LIMITS.summaryChars).describe(
    "What happened: goal, key action and result, in the user's language.",
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

export const ForgetInput = z.strictObject({
  memory_id: z.uuid().describe("Id of the memory to forget."),
  mode: z
    .enum(["soft", "hard"])
    .default("soft")
    .describe("soft: archive (reversible, left out of recall); hard: delete permanently."),
});
export type ForgetInput = z.input<typeof ForgetInput>;

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
    max_tokens: z
      .number()
      .int()
      .min(20)
      .max(4000)
      .default(200)
      .describe("Length budget of the summary in tokens (cl100k), default 200."),
  })
  .refine((value) => (value.memory_ids === undefined) !== (value.query_text === undefined), {
    message: "give exactly one of memory_ids or query_text",
    path: ["memory_ids"],
  });
export type SummarizeInput = z.input<typeof SummarizeInput>;
