/** Column lists and row mapping between the tables and the domain types. */
import type { EpisodicMemory, MemoryLayer, SemanticMemory } from "../core/types.js";

export const TABLE: Record<MemoryLayer, string> = {
  episodic: "episodic_memories",
  semantic: "semantic_memories",
};

export const USAGE_TABLE: Record<MemoryLayer, string> = {
  episodic: "episodic_usage",
  semantic: "semantic_usage",
};

/** Columns of a memory `m` joined with its usage `u` (absent until first recalled). */
export const COLUMNS: Record<MemoryLayer, string> = {
  episodic: `m.id, m.occurred_at, m.recorded_at, m.task_type, m.summary, m.outcome, m.metadata,
    m.tags, m.source, m.subject, m.user_id, m.agent_id, m.confidence,
    COALESCE(u.access_count, 0) AS access_count, u.last_accessed_at, m.decay_score, m.status`,
  semantic: `m.id, m.key_text, m.value_text, m.task_type, m.confidence, m.created_at,
    m.updated_at, u.last_accessed_at AS last_used_at, m.valid_from, m.valid_to, m.metadata,
    m.tags, m.source, m.subject, m.user_id, m.agent_id,
    COALESCE(u.access_count, 0) AS access_count, m.status`,
};

/** Both drivers return timestamptz as Date, jsonb parsed and text[] as arrays. */
export type EpisodicRow = EpisodicMemory;
export type SemanticRow = SemanticMemory;

export function toEpisodic(row: EpisodicRow): EpisodicMemory {
  return {
    id: row.id,
    occurred_at: row.occurred_at,
    recorded_at: row.recorded_at,
    task_type: row.task_type,
    summary: row.summary,
    outcome: row.outcome,
    metadata: row.metadata,
    tags: row.tags,
    source: row.source,
    subject: row.subject,
    user_id: row.user_id,
    agent_id: row.agent_id,
    confidence: row.confidence,
    access_count: row.access_count,
    last_accessed_at: row.last_accessed_at,
    decay_score: row.decay_score,
    status: row.status,
  };
}

export function toSemantic(row: SemanticRow): SemanticMemory {
  return {
    id: row.id,
    key_text: row.key_text,
    value_text: row.value_text,
    task_type: row.task_type,
    confidence: row.confidence,
    created_at: row.created_at,
    updated_at: row.updated_at,
    last_used_at: row.last_used_at,
    valid_from: row.valid_from,
    valid_to: row.valid_to,
    metadata: row.metadata,
    tags: row.tags,
    source: row.source,
    subject: row.subject,
    user_id: row.user_id,
    agent_id: row.agent_id,
    access_count: row.access_count,
    status: row.status,
  };
}
