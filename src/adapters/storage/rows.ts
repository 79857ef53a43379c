/** Column lists and row mapping between the tables and the domain types. */
import type { StoredMemory } from "../../core/memories/ports.js";
import type { EpisodicMemory, MemoryLayer, SemanticMemory } from "../../core/types.js";
import { type SqlExecutor, unplannedArray } from "./executor.js";

export const TABLE: Record<MemoryLayer, string> = {
  episodic: "episodic_memories",
  semantic: "semantic_memories",
};

export const USAGE_TABLE: Record<MemoryLayer, string> = {
  episodic: "episodic_usage",
  semantic: "semantic_usage",
};

/** Decay scores, rewritten by every maintenance run (see migration 2). */
export const LIFECYCLE_TABLE: Record<MemoryLayer, string> = {
  episodic: "episodic_lifecycle",
  semantic: "semantic_lifecycle",
};

/**
 * Columns of a memory `m` joined with its usage `u` (absent until first recalled) and its
 * lifecycle `l` (absent until the first maintenance run).
 */
export const COLUMNS: Record<MemoryLayer, string> = {
  episodic: `m.id, m.occurred_at, m.recorded_at, m.task_type, m.summary, m.outcome, m.metadata,
    m.tags, m.source, m.subject, m.user_id, m.agent_id, m.session_id, m.confidence,
    COALESCE(u.access_count, 0) AS access_count, u.last_accessed_at,
    COALESCE(l.decay_score, m.decay_score) AS decay_score, m.status`,
  semantic: `m.id, m.key_text, m.value_text, m.task_type, m.confidence, m.created_at,
    m.updated_at, u.last_accessed_at AS last_used_at, m.valid_from, m.valid_to, m.metadata,
    m.tags, m.source, m.subject, m.user_id, m.agent_id, m.session_id,
    COALESCE(u.access_count, 0) AS access_count, m.status,
    COALESCE(l.decay_score, 1) AS decay_score, m.superseded_by, m.shared_group, m.source_trust,
    m.review_status, m.reviewed_by, m.reviewed_at`,
};

/**
 * A semantic memory `m` others may recall: private (no review status) or shared and
 * confirmed — not quarantined, not rejected (see migration 6).
 */
export const RECALLABLE_BY_OTHERS = "COALESCE(m.review_status, 'confirmed') = 'confirmed'";

/** The tables COLUMNS reads, for a memory table aliased `m`. */
export function joinsOf(layer: MemoryLayer): string {
  return `LEFT JOIN ${USAGE_TABLE[layer]} u ON u.id = m.id
    LEFT JOIN ${LIFECYCLE_TABLE[layer]} l ON l.id = m.id`;
}

/**
 * Rows selected with COLUMNS have exactly the domain shape: both drivers return timestamptz as
 * Date, jsonb parsed, text[] as arrays, real and integer as numbers.
 */
export function toStored(layer: MemoryLayer, row: EpisodicMemory | SemanticMemory): StoredMemory {
  return { layer, ...row } as StoredMemory;
}

/** Full rows of the given memories of one layer; ids that do not exist are left out. */
export async function readMemories(
  db: SqlExecutor,
  layer: MemoryLayer,
  ids: readonly string[],
): Promise<StoredMemory[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<EpisodicMemory | SemanticMemory>(
    `SELECT ${COLUMNS[layer]} FROM ${TABLE[layer]} m ${joinsOf(layer)}
     WHERE m.id = ANY(${unplannedArray("$1", "uuid")})`,
    [ids],
  );
  return rows.map((row) => toStored(layer, row));
}
