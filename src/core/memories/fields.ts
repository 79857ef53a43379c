/** What both layers' store pipelines fill in the same way. */
import type { StoreEpisodicInput } from "../schemas.js";

type ScopeInput = Pick<
  StoreEpisodicInput,
  "metadata" | "tags" | "source" | "subject" | "user_id" | "agent_id" | "session_id"
>;

/** The fields both layers share, with their defaults. */
export function scopeOf(item: ScopeInput) {
  return {
    metadata: item.metadata ?? {},
    tags: item.tags ?? [],
    source: item.source ?? null,
    subject: item.subject ?? null,
    user_id: item.user_id ?? null,
    agent_id: item.agent_id ?? null,
    session_id: item.session_id ?? null,
  };
}

/**
 * Confidence is stored as a 4-byte real, which cannot hold the tiniest doubles (PostgreSQL
 * rejects 1e-300 as out of range); no one means more than six decimals of confidence.
 */
export function storableConfidence(confidence: number | undefined): number {
  return confidence === undefined ? 1 : Math.round(confidence * 1e6) / 1e6;
}
