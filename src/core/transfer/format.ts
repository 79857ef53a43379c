/**
 * hindsight's export format: JSON Lines, one object per line — a header, then every memory of
 * both layers with what rebuilding it takes (its search words, its vector on request, its
 * history, provenance links, access statistics and decay state), then the groups of shared
 * memory and the trust set for sources. Every line is validated on import by these schemas,
 * so a file from elsewhere is refused line by line, naming the field, before anything is
 * written.
 */
import { z } from "zod";
import { MEMORY_EVENTS } from "../lifecycle/ports.js";
import { searchText } from "../recall/search-text.js";
import { Instant, LIMITS, Metadata, Tags } from "../schemas.js";
import { REVIEW_STATUSES, TRUST_LEVELS } from "../sharing/types.js";
import { OUTCOMES, STATUSES } from "../types.js";

export const EXPORT_FORMAT = "hindsight-export";
export const EXPORT_VERSION = 1;

const text = (max: number) => z.string().min(1).max(max);
const nullableText = (max: number) => z.string().max(max).nullable();
const When = Instant;
const Confidence = z.number().min(0).max(1);

export const ExportHeader = z.strictObject({
  kind: z.literal("header"),
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  exported_at: When,
  /** The embedder the vectors (if any) were made with: others are embedded again. */
  embedder: z.strictObject({ id: z.string(), dimensions: z.number().int().positive() }),
  with_vectors: z.boolean(),
});
export type ExportHeader = z.infer<typeof ExportHeader>;

const HistoryEvent = z.strictObject({
  event: z.enum(MEMORY_EVENTS),
  at: When,
  reason: z.string().max(LIMITS.valueChars),
  details: z.record(z.string(), z.unknown()),
});

const Scope = {
  metadata: Metadata,
  tags: Tags,
  source: nullableText(LIMITS.scopeChars),
  subject: nullableText(LIMITS.scopeChars),
  user_id: nullableText(LIMITS.scopeChars),
  agent_id: nullableText(LIMITS.scopeChars),
  session_id: nullableText(LIMITS.scopeChars),
  confidence: Confidence,
  access_count: z.number().int().min(0),
  decay_score: z.number().min(0),
  status: z.enum(STATUSES),
  search_text: z.string().max(4 * (LIMITS.summaryChars + LIMITS.contextChars)),
  embedding: z.array(z.number()).min(1).optional(),
  history: z.array(HistoryEvent),
  /** The last maintenance run's verdict: when it scored the memory, and if decay archived it. */
  scored_at: When.nullable(),
  decay_archived_at: When.nullable(),
};

export const ExportedEpisodic = z.strictObject({
  kind: z.literal("memory"),
  layer: z.literal("episodic"),
  id: z.uuid(),
  occurred_at: When,
  recorded_at: When,
  task_type: text(LIMITS.taskTypeChars),
  summary: text(LIMITS.summaryChars),
  outcome: z.enum(OUTCOMES),
  last_accessed_at: When.nullable(),
  /** When consolidation drew knowledge from it (it is not consolidated again). */
  consolidated_at: When.nullable(),
  ...Scope,
});

export const ExportedSemantic = z.strictObject({
  kind: z.literal("memory"),
  layer: z.literal("semantic"),
  id: z.uuid(),
  key_text: text(LIMITS.keyChars),
  value_text: text(LIMITS.valueChars),
  task_type: nullableText(LIMITS.taskTypeChars),
  created_at: When,
  updated_at: When,
  last_used_at: When.nullable(),
  valid_from: When,
  valid_to: When.nullable(),
  superseded_by: z.uuid().nullable(),
  /** Older knowledge it superseded: the link is restored whichever of the two comes first. */
  supersedes: z.array(z.uuid()),
  /** The episodes it was drawn from. */
  sources: z.array(z.uuid()),
  shared_group: nullableText(LIMITS.scopeChars),
  source_trust: z.enum(["low", "normal", "high"]).nullable(),
  review_status: z.enum(REVIEW_STATUSES).nullable(),
  reviewed_by: nullableText(LIMITS.scopeChars),
  reviewed_at: When.nullable(),
  ...Scope,
});

export const ExportedGroup = z.strictObject({
  kind: z.literal("group"),
  group: text(LIMITS.scopeChars),
  members: z.array(z.strictObject({ agent_id: text(LIMITS.scopeChars), granted_at: When })),
});

export const ExportedTrust = z.strictObject({
  kind: z.literal("trust"),
  source: text(LIMITS.scopeChars),
  trust: z.enum(TRUST_LEVELS),
  note: nullableText(1000),
  updated_at: When,
});

/** A line after the header. */
export const ExportRecord = z.union([
  ExportedEpisodic,
  ExportedSemantic,
  ExportedGroup,
  ExportedTrust,
]);
export type ExportedEpisodic = z.infer<typeof ExportedEpisodic>;
export type ExportedSemantic = z.infer<typeof ExportedSemantic>;
export type ExportedMemory = ExportedEpisodic | ExportedSemantic;
export type ExportedGroup = z.infer<typeof ExportedGroup>;
export type ExportedTrust = z.infer<typeof ExportedTrust>;
export type ExportRecord = z.infer<typeof ExportRecord>;

/**
 * A new episode as an export line: what a store it comes from would have written for it, with
 * nothing recorded about it yet (no history, accesses, decay or vector), so that importing it
 * embeds and indexes it as storing it would.
 */
export function newEpisodeRecord(episode: {
  id: string;
  occurred_at: string;
  task_type: string;
  summary: string;
  outcome: ExportedEpisodic["outcome"];
  tags?: string[];
}): ExportedEpisodic {
  const tags = episode.tags ?? [];
  return {
    kind: "memory",
    layer: "episodic",
    ...episode,
    recorded_at: episode.occurred_at,
    last_accessed_at: null,
    consolidated_at: null,
    metadata: {},
    tags,
    source: null,
    subject: null,
    user_id: null,
    agent_id: null,
    session_id: null,
    confidence: 1,
    access_count: 0,
    decay_score: 1,
    status: "active",
    search_text: searchText([episode.task_type, episode.summary, ...tags]),
    history: [],
    scored_at: null,
    decay_archived_at: null,
  };
}

const MEMORY_SCHEMAS = { episodic: ExportedEpisodic, semantic: ExportedSemantic } as const;
const OTHER_SCHEMAS = { group: ExportedGroup, trust: ExportedTrust } as const;

/**
 * The schema a record is checked with, chosen by its `kind` (and a memory's `layer`), so that
 * a bad record's error names its own field rather than "matches none of four shapes".
 */
export function recordSchema(
  value: unknown,
): z.ZodType<ExportRecord> | { field?: string; message: string } {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { message: "must be a JSON object" };
  }
  const { kind, layer } = value as { kind?: unknown; layer?: unknown };
  if (kind === "memory") {
    return layer === "episodic" || layer === "semantic"
      ? MEMORY_SCHEMAS[layer]
      : { field: "layer", message: "must be episodic or semantic" };
  }
  if (kind === "group" || kind === "trust") return OTHER_SCHEMAS[kind];
  return {
    field: "kind",
    message: "must be memory, group or trust (the header is the first line only)",
  };
}
