/** Column lists and row mapping between the tables and the domain types. */
import type { EpisodicMemory, SemanticMemory } from "../core/types.js";

export const EPISODIC_COLUMNS = `id, occurred_at, recorded_at, task_type, summary, outcome, metadata,
  tags, source, subject, user_id, agent_id, confidence, access_count, last_accessed_at,
  decay_score, status`;

export const SEMANTIC_COLUMNS = `id, key_text, value_text, task_type, confidence, created_at,
  updated_at, last_used_at, valid_from, valid_to, metadata, tags, source, subject, user_id,
  agent_id, access_count, status`;

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
