/**
 * Output schemas: the JSON every surface returns (dates as ISO 8601 strings). MCP declares
 * them as tool output schemas and the REST API's OpenAPI document is generated from them.
 */

import { z } from "zod";
import { AUDITED_OPERATIONS } from "./audit.js";
import { MEMORY_EVENTS } from "./lifecycle/ports.js";
import { REVIEW_DECISIONS, REVIEW_STATUSES, TRUST_LEVELS } from "./sharing/types.js";
import {
  ExportedEpisodic,
  ExportedGroup,
  ExportedSemantic,
  ExportedTrust,
  ExportHeader,
} from "./transfer/format.js";
import { LAYERS, OUTCOMES, STATUSES } from "./types.js";
import { WorkingContextOutput } from "./working/schemas.js";

const Instant = z.string().describe("ISO 8601 date-time");
const Nullable = z.string().nullable();

const Scope = {
  source: Nullable.describe("What produced the memory."),
  subject: Nullable.describe("Whose memory it is."),
  user_id: Nullable,
  agent_id: Nullable,
  session_id: Nullable.describe("The session (conversation, task run) it came from."),
};

export const EpisodicMemoryOutput = z.object({
  id: z.uuid(),
  occurred_at: Instant,
  recorded_at: Instant,
  task_type: z.string(),
  summary: z.string(),
  outcome: z.enum(OUTCOMES),
  metadata: z.record(z.string(), z.unknown()),
  tags: z.array(z.string()),
  ...Scope,
  confidence: z.number(),
  access_count: z.number().int(),
  last_accessed_at: Instant.nullable(),
  decay_score: z.number(),
  status: z.enum(STATUSES),
});

export const SemanticMemoryOutput = z.object({
  id: z.uuid(),
  key_text: z.string(),
  value_text: z.string(),
  task_type: z.string().nullable(),
  confidence: z.number(),
  created_at: Instant,
  updated_at: Instant,
  last_used_at: Instant.nullable(),
  valid_from: Instant,
  valid_to: Instant.nullable(),
  metadata: z.record(z.string(), z.unknown()),
  tags: z.array(z.string()),
  ...Scope,
  access_count: z.number().int(),
  status: z.enum(STATUSES),
  decay_score: z.number().describe("Strength after decay; 1 until the first maintenance run."),
  superseded_by: z
    .uuid()
    .nullable()
    .describe("The newer memory that superseded this one; recall leaves superseded ones out."),
  // Provenance of shared knowledge; all null for a private memory.
  shared_group: Nullable.describe("The group of agents it is shared with."),
  source_trust: z
    .enum(["low", "normal", "high"])
    .nullable()
    .describe("The trust its source had when it was written."),
  review_status: z
    .enum(REVIEW_STATUSES)
    .nullable()
    .describe(
      "quarantined: recalled only by its writer until confirmed; confirmed: by the group; rejected: by nobody.",
    ),
  reviewed_by: Nullable.describe("Who confirmed or rejected it."),
  reviewed_at: Instant.nullable(),
});

export const ScoreSignalsOutput = z
  .object({
    vector: z.number(),
    keyword: z.number(),
    freshness: z.number(),
    frequency: z.number(),
    time: z.number(),
  })
  .describe("Each ranking signal's contribution; they sum to the score.");

export const ScoreExplanationOutput = z
  .object({
    fusion: z.enum(["weighted", "rrf"]),
    vector_similarity: z.number(),
    bm25: z.number(),
    feedback: z
      .number()
      .describe(
        "Match with the best keyword match's other words (pseudo-relevance feedback), 0..1.",
      ),
    freshness: z.number(),
    frequency: z.number(),
    outcome_weight: z.number(),
    asking_weight: z
      .number()
      .describe("Weight of a memory whose own text ends with a question (1: it does not)."),
    when_weight: z
      .number()
      .describe(
        "Weight of a memory stored with a context whose own words name no time, when the query asks when (1: otherwise).",
      ),
    echo_weight: z
      .number()
      .describe(
        "Weight of a memory stored with a context for the share of its own words that context already holds (1: none, or no context).",
      ),
    time_match: z.number(),
    vector_coverage: z
      .number()
      .describe(
        "Share of the query in scripts the embedder knows; the vector weight was scaled by it, the rest moved to keywords.",
      ),
    keyword_trust: z
      .number()
      .describe(
        "How far the query's keyword matches were trusted, 0..1: below 1 the best match held little of the query's words, and that share of the keyword weight moved to the vector.",
      ),
    ranks: z.object({
      vector: z.number().int(),
      keyword: z.number().int(),
      freshness: z.number().int(),
      frequency: z.number().int(),
    }),
  })
  .describe("The raw signals and ranks behind the score (with explain: true).");

const Scored = {
  score: z.number().describe("Relevance 0..1; nothing under the score floor is returned."),
  signals: ScoreSignalsOutput,
  explanation: ScoreExplanationOutput.optional(),
};

export const RecalledMemoryOutput = z.discriminatedUnion("layer", [
  EpisodicMemoryOutput.extend({ layer: z.literal("episodic"), ...Scored }),
  SemanticMemoryOutput.extend({ layer: z.literal("semantic"), ...Scored }),
]);

export const MemoryOutput = z.discriminatedUnion("layer", [
  EpisodicMemoryOutput.extend({ layer: z.literal("episodic") }),
  SemanticMemoryOutput.extend({ layer: z.literal("semantic") }),
]);

const Provenance = z
  .object({
    sources: z.array(z.uuid()).describe("Semantic: the episodes it was drawn from."),
    consolidated_into: z.array(z.uuid()).describe("Episodic: knowledge drawn from it."),
    supersedes: z.array(z.uuid()).describe("Semantic: the older facts it replaced."),
    superseded_by: z.uuid().nullable().describe("The newer fact that replaced it."),
  })
  .describe("Where the memory came from and what came of it (its history has the events).");

export const GetOutput = z.discriminatedUnion("layer", [
  EpisodicMemoryOutput.extend({ layer: z.literal("episodic"), provenance: Provenance }),
  SemanticMemoryOutput.extend({ layer: z.literal("semantic"), provenance: Provenance }),
]);

const Changed = {
  changed: z
    .array(z.string())
    .describe("The fields the correction changed; empty when it changed nothing."),
};

export const UpdateOutput = z.discriminatedUnion("layer", [
  EpisodicMemoryOutput.extend({ layer: z.literal("episodic"), ...Changed }),
  SemanticMemoryOutput.extend({ layer: z.literal("semantic"), ...Changed }),
]);

export const ExportOutput = z.object({
  header: ExportHeader.describe("The file's first line: format, version, embedder."),
  records: z
    .array(z.union([ExportedEpisodic, ExportedSemantic, ExportedGroup, ExportedTrust]))
    .describe(
      "The lines after the header: memories, episodic first; groups and trust on the first page.",
    ),
  next_cursor: z
    .string()
    .nullable()
    .describe("Pass as cursor for the next page; null on the last."),
});

export const ImportOutput = z.object({
  imported: z.number().int().describe("Memories written."),
  skipped: z
    .number()
    .int()
    .describe("Memories the store held already (same id): left as they were."),
  embedded: z.number().int().describe("Memories embedded again: no vector, or another embedder's."),
  groups: z.number().int().describe("Group memberships added."),
  trust: z.number().int().describe("Source trust settings added."),
});

export const ListOutput = z.object({
  memories: z
    .array(MemoryOutput)
    .describe("Newest first: by when it happened (episodic) or became valid (semantic)."),
  total: z.number().int().describe("Memories matching the filters, on all pages together."),
  next_cursor: z
    .string()
    .nullable()
    .describe("Pass as cursor for the next page; null on the last page."),
});

export const TimeExpressionOutput = z.object({
  text: z.string().describe("The phrase as it appears in the query."),
  from: Instant,
  to: Instant,
  precision: z.enum(["exact", "approximate"]),
});

export const RecallOutput = z.object({
  results: z.array(RecalledMemoryOutput).describe("Best first."),
  time_expressions: z
    .array(TimeExpressionOutput)
    .optional()
    .describe("Periods the query names, which boosted memories from those times."),
});

export const StoreOutput = z.object({
  id: z.uuid(),
  summary: z
    .string()
    .optional()
    .describe("With interaction: the summary written for it (at most 80 characters)."),
  summary_source: z
    .string()
    .optional()
    .describe(
      "With interaction: how the summary was written: 'llm:<model>', or 'extractive' (no model configured, or the model failed).",
    ),
});

export const ForgetOutput = z.object({
  id: z.uuid(),
  layer: z.enum(LAYERS),
  mode: z.enum(["soft", "hard"]),
  status: z.enum(["archived", "deleted"]),
});

const LayerCountsOutput = z.object({
  total: z.number().int(),
  active: z.number().int(),
  archived: z.number().int(),
});

const LlmCallCountsOutput = z.object({
  requests: z.number().int().describe("Chat calls, retries included in each."),
  failures: z.number().int().describe("Calls that failed after their retries."),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
});

const LlmStatsOutput = LlmCallCountsOutput.extend({
  provider: z
    .string()
    .describe("'none' (deterministic fallbacks) or 'openai' (any compatible server)."),
  model: z.string().nullable().describe("The main model."),
  summary_model: z.string().nullable().describe("The cheap model that writes summaries."),
  tiers: z.object({ main: LlmCallCountsOutput, cheap: LlmCallCountsOutput }),
  fallbacks: z
    .record(z.string(), z.number().int())
    .describe(
      "Times a feature fell back to its deterministic form because the model failed, by purpose.",
    ),
  breaker: z
    .object({
      state: z
        .enum(["closed", "open", "half_open", "disabled"])
        .describe(
          "closed: calls go through; open: features take their fallbacks without calling the model; half_open: the next task is a trial call; disabled: no breaker (HINDSIGHT_LLM_BREAKER_FAILURES=0).",
        ),
      consecutive_failures: z
        .number()
        .int()
        .describe("Tasks in a row whose model call failed or gave nothing usable."),
      opens: z
        .number()
        .int()
        .describe("Times the breaker opened, re-openings after a failed trial included."),
      skipped: z
        .number()
        .int()
        .describe(
          "Tasks that took their fallback without calling the model: the breaker was open.",
        ),
      open_until: z
        .string()
        .nullable()
        .describe("While open: when the next trial call is allowed (ISO 8601); otherwise null."),
      cooldown_ms: z
        .number()
        .int()
        .describe(
          "How long the next opening lasts: doubled after each failed trial, up to 15 min (or the configured cool-down, if longer).",
        ),
    })
    .optional()
    .describe("The circuit breaker guarding the model; absent without a model."),
}).describe("The language model and what it has cost since the process started.");

export const StatsOutput = z.object({
  episodic: LayerCountsOutput,
  semantic: LayerCountsOutput,
  store: z.string().describe("Where the memories live, credentials removed."),
  embedder: z.string(),
  llm: LlmStatsOutput,
  working: z
    .string()
    .nullable()
    .describe(
      "Where working-memory sessions live (`redis://…`, or the memories' database), credentials removed; null without working memory.",
    ),
});

export const SummarizeOutput = z.object({
  summary: z.string(),
  tokens: z.number().int(),
  max_tokens: z.number().int(),
  memory_ids: z.array(z.uuid()).describe("The memories the summary covers."),
  groups: z
    .array(
      z.object({
        topic: z.string(),
        memory_ids: z.array(z.uuid()).describe("The memories this part covers."),
        method: z.enum(["llm", "extractive"]),
      }),
    )
    .describe("The parts of the summary, in order: one per topic."),
  method: z
    .enum(["llm", "extractive", "working_memory"])
    .describe(
      "llm: a model wrote at least one part; extractive: every part is verbatim; working_memory: a session_id was given and that session compressed.",
    ),
  model: z.string().optional().describe("The model that wrote the llm parts."),
  note: z.string().optional().describe("Why parts are extractive although a model is configured."),
  session: WorkingContextOutput.optional().describe("The compressed session (with session_id)."),
});

export const ErrorOutput = z.object({
  code: z.string().describe("Stable error code, e.g. INVALID_INPUT or NOT_FOUND."),
  message: z.string(),
  field: z.string().optional().describe("The input field at fault."),
});

/** The JSON form of a result: Dates become ISO strings. */
export function toJson<T>(value: T): unknown {
  return JSON.parse(JSON.stringify(value));
}

// ---- Memory lifecycle.

/** Present when another process was already running the job, so this one did nothing. */
const Skipped = z
  .literal(true)
  .optional()
  .describe("The job was already running elsewhere on this database; nothing was done.");

/** Present on a dry run: nothing was changed. */
const DryRunFlag = z
  .literal(true)
  .optional()
  .describe("A dry run: this is what would change; nothing was changed.");

const DecayCountsOutput = z.object({
  scored: z.number().int(),
  archived: z.number().int(),
  reactivated: z.number().int(),
  confidence_lowered: z.number().int(),
  archived_ids: z
    .array(z.uuid())
    .optional()
    .describe("Dry run: the memories it would archive, lowest score first (the first 1000)."),
  reactivated_ids: z
    .array(z.uuid())
    .optional()
    .describe("Dry run: the memories it would reactivate (the first 1000)."),
});

export const MaintainOutput = z.object({
  at: Instant.describe("The moment decay was computed for."),
  scored: z.number().int().describe("Memories scored, both layers."),
  archived: z.number().int().describe("Moved to cold storage (never deleted)."),
  reactivated: z.number().int().describe("Brought back: recalled again after decay archived them."),
  confidence_lowered: z
    .number()
    .int()
    .describe("Semantic memories whose unused confidence decayed."),
  episodic: DecayCountsOutput,
  semantic: DecayCountsOutput,
  skipped: Skipped,
  dry_run: DryRunFlag,
});

const ConsolidatedMemoryOutput = z.object({
  id: z.uuid(),
  key: z.string(),
  value: z.string(),
  sources: z.array(z.uuid()).describe("The episodes it was drawn from."),
});

export const ConsolidateOutput = z.object({
  created: z.array(ConsolidatedMemoryOutput),
  updated: z.array(ConsolidatedMemoryOutput).describe("Patterns merged into existing knowledge."),
  merged: z.number().int(),
  superseded: z.array(z.uuid()).describe("Older knowledge the new patterns contradicted."),
  consolidated_episodes: z.number().int(),
  groups: z.array(
    z.object({
      task_type: z.string(),
      user_id: z.string().nullable(),
      agent_id: z.string().nullable(),
      episodes: z.number().int(),
      method: z.enum(["llm", "statistical"]),
    }),
  ),
  skipped: Skipped,
  dry_run: DryRunFlag,
});

export const StoreSemanticOutput = StoreOutput.extend({
  merged_into: z
    .uuid()
    .optional()
    .describe("It said what this memory already says, and was merged into it (same as id)."),
  superseded: z
    .array(z.uuid())
    .optional()
    .describe("Older facts it contradicts: they got valid_to and stay in their history."),
  shared_group: z.string().optional().describe("The group it was shared with."),
  review_status: z
    .enum(REVIEW_STATUSES)
    .optional()
    .describe(
      "Shared: quarantined (its source is low-trust; only the writer recalls it until a reviewer confirms it) or confirmed.",
    ),
});

export const GroupOutput = z.object({
  group: z.string(),
  members: z.array(z.object({ agent_id: z.string(), granted_at: Instant })),
});

export const GroupsOutput = z.object({ groups: z.array(GroupOutput) });

export const SourceTrustOutput = z.object({
  source: z.string(),
  trust: z.enum(TRUST_LEVELS),
  note: Nullable,
  updated_at: Instant,
});

export const SourcesOutput = z.object({
  sources: z.array(SourceTrustOutput),
  default_trust: z.enum(TRUST_LEVELS).describe("The trust of a source not in the list."),
});

export const QuarantineOutput = z.object({
  memories: z
    .array(SemanticMemoryOutput.extend({ layer: z.literal("semantic") }))
    .describe("Quarantined shared memories, oldest first."),
});

export const ReviewOutput = z.object({
  id: z.uuid(),
  decision: z.enum(REVIEW_DECISIONS),
  review_status: z.enum(REVIEW_STATUSES),
  shared_group: z.string(),
  reviewed_by: z.string().nullable(),
  reviewed_at: Instant.nullable(),
  changed: z.boolean().describe("False when it already had this status."),
});

export const FeedbackOutput = z.object({
  id: z.uuid(),
  layer: z.enum(LAYERS),
  useful: z.boolean(),
  previous_confidence: z.number(),
  confidence: z.number(),
  status: z.enum(STATUSES).describe("archived when confidence fell below the minimum."),
});

export const RestoreOutput = z.object({
  id: z.uuid(),
  layer: z.enum(LAYERS),
  previous_status: z.enum(STATUSES),
  status: z.literal("active"),
});

export const HistoryOutput = z.object({
  id: z.uuid(),
  layer: z.enum(LAYERS),
  status: z.enum(STATUSES),
  events: z
    .array(
      z.object({
        event: z.enum(MEMORY_EVENTS),
        at: Instant,
        reason: z.string(),
        details: z.record(z.string(), z.unknown()),
      }),
    )
    .describe("What happened to the memory, in the order it happened."),
  sources: z.array(z.uuid()).describe("Semantic: the episodes it was drawn from."),
  consolidated_into: z.array(z.uuid()).describe("Episodic: knowledge drawn from it."),
  superseded_by: z.uuid().nullable(),
  supersedes: z.array(z.uuid()),
});

export const AuditOutput = z.object({
  entries: z
    .array(
      z.object({
        seq: z.number().int(),
        at: Instant,
        operation: z.enum(AUDITED_OPERATIONS),
        memory_id: z.uuid().nullable().describe("Null for grants, revocations and trust changes."),
        layer: z.enum(LAYERS).nullable(),
        target: z
          .string()
          .nullable()
          .describe("The group (grant, revoke) or source (trust) concerned."),
        reason: z.string(),
        details: z
          .record(z.string(), z.unknown())
          .describe("Ids, scores and modes; never memory content."),
      }),
    )
    .describe("Newest first."),
});
