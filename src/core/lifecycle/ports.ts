/**
 * What the memory lifecycle needs from storage: three ports, one per concern. Every operation
 * is set-based SQL in the store: maintenance touches each memory in one statement per slice of
 * a layer (thousands of memories), never row by row.
 */
import type { NewSemantic } from "../memories/ports.js";
import type { StoredTrust } from "../sharing/types.js";
import type { ForgetResult, JsonObject, MemoryLayer, MemoryStatus, Outcome } from "../types.js";

export interface DecayParameters {
  /** λ per day. */
  lambda: number;
  /** α, the weight of ln(1 + access_count). */
  accessWeight: number;
  archiveThreshold: number;
  /** Archive below this confidence too (0 turns it off). */
  minConfidence: number;
  /** Confidence decay per unused day after the grace period (0: confidence does not decay). */
  confidenceDecayPerDay: number;
  unusedGraceDays: number;
}

export interface DecayCounts {
  scored: number;
  archived: number;
  reactivated: number;
  confidence_lowered: number;
}

/** A decay run that was not applied: what it would change. */
export interface DecayPreview extends DecayCounts {
  /** The memories it would archive, lowest score first (the first thousand). */
  archived_ids: string[];
  reactivated_ids: string[];
}

export const MEMORY_EVENTS = [
  "created",
  "merged",
  "superseded",
  "archived",
  "reactivated",
  "restored",
  "feedback",
  "consolidated",
  // Shared memory reviewed: quarantined knowledge confirmed for the group, or rejected.
  "confirmed",
  "rejected",
  // Corrected by hand (update): the fields changed, and what they said before.
  "updated",
] as const;
export type MemoryEventKind = (typeof MEMORY_EVENTS)[number];

export interface MemoryEvent {
  event: MemoryEventKind;
  at: Date;
  reason: string;
  details: JsonObject;
}

export interface MemoryHistory {
  id: string;
  layer: MemoryLayer;
  status: MemoryStatus;
  events: MemoryEvent[];
  /** Semantic: the episodes it was drawn from. */
  sources: string[];
  /** Episodic: the semantic memories drawn from it. */
  consolidated_into: string[];
  superseded_by: string | null;
  /** Semantic: the older memories this one superseded. */
  supersedes: string[];
}

/** An active, current semantic memory of the same scope as a new one, with its similarity. */
export interface SemanticNeighbour {
  id: string;
  key_text: string;
  value_text: string;
  confidence: number;
  tags: string[];
  metadata: JsonObject;
  /** Cosine similarity to the new memory, −1..1. */
  similarity: number;
  /** The normalised keys are equal (case, spaces and punctuation folded). */
  same_key: boolean;
  /** Shared knowledge: the trust its source had (see sharing); null when private. */
  source_trust: StoredTrust | null;
  /** Who wrote it and from what, to keep shared knowledge's provenance true on merges. */
  agent_id: string | null;
  source: string | null;
}

export interface SemanticScope {
  task_type: string | null;
  user_id: string | null;
  agent_id: string | null;
}

export interface NeighbourQuery extends SemanticScope {
  /** Shared knowledge is compared with the group's confirmed knowledge, whoever wrote it. */
  shared_group: string | null;
  embedding: Float32Array;
  key_text: string;
  limit: number;
}

/** Why a semantic memory is written, and which older ones it supersedes. */
export interface SemanticChange {
  at: Date;
  reason: string;
  details?: JsonObject;
  supersedes?: string[];
}

export interface SemanticMerge {
  target_id: string;
  key_text: string;
  value_text: string;
  embedding: Float32Array;
  search_text: string;
  confidence: number;
  tags: string[];
  metadata: JsonObject;
  source_episode_ids: string[];
  at: Date;
  reason: string;
  details: JsonObject;
}

export interface FeedbackChange {
  id: string;
  useful: boolean;
  /** Added to confidence (negative when not useful); the result is clamped to 0..1. */
  delta: number;
  minConfidence: number;
  reason: string | null;
  at: Date;
}

export interface FeedbackOutcome {
  id: string;
  layer: MemoryLayer;
  previous_confidence: number;
  confidence: number;
  status: MemoryStatus;
}

export interface RestoreOutcome {
  id: string;
  layer: MemoryLayer;
  previous_status: MemoryStatus;
  status: "active";
}

/** Episodes of one task type and scope waiting for consolidation. */
export interface EpisodeGroup extends SemanticScope {
  task_type: string;
  pending: number;
}

export interface GroupEpisode {
  id: string;
  occurred_at: Date;
  summary: string;
  outcome: Outcome;
  consolidated: boolean;
}

export type Exclusive<T> = { ran: true; value: T } | { ran: false };

/**
 * Writing knowledge: a new semantic memory, or a merge into the one it repeats. Retried
 * requests are idempotent (same client id: stored or merged once).
 */
export interface KnowledgeStore {
  /** Inserts, supersedes the memories `change` names and records why; false for a known id. */
  insertSemantic(row: NewSemantic, change?: SemanticChange): Promise<boolean>;
  /** Active, current knowledge of the same scope, most similar first. */
  semanticNeighbours(query: NeighbourQuery): Promise<SemanticNeighbour[]>;
  /** Merges into an existing semantic memory; false when it no longer exists. */
  mergeSemantic(merge: SemanticMerge): Promise<boolean>;
  /** The merge that took in a request with this client id, if any (retries are idempotent). */
  mergedRequest(requestId: string): Promise<string | null>;
}

/** A memory's life after it is written: decay, cold storage, feedback, forgetting, history. */
export interface LifecycleStore {
  /** Scores every memory of a layer, archives and reactivates: one statement. */
  applyDecay(layer: MemoryLayer, parameters: DecayParameters, at: Date): Promise<DecayCounts>;
  /** What applyDecay would do with the same arguments; writes nothing. */
  previewDecay(layer: MemoryLayer, parameters: DecayParameters, at: Date): Promise<DecayPreview>;
  restore(id: string, minConfidence: number, at: Date): Promise<RestoreOutcome | null>;
  applyFeedback(change: FeedbackChange): Promise<FeedbackOutcome | null>;
  /**
   * Soft: archive, recorded in the memory's history. Hard: delete, history too. Either is
   * recorded in the audit log in the same transaction; null for an unknown id.
   */
  forget(
    id: string,
    mode: "soft" | "hard",
    at: Date,
    reason?: string,
  ): Promise<ForgetResult | null>;
  history(id: string): Promise<MemoryHistory | null>;
  /**
   * Runs `fn` while holding the named job lock, shared by every process on this database.
   * With `wait` false, returns `{ ran: false }` at once when another holds it.
   */
  exclusive<T>(job: string, wait: boolean, fn: () => Promise<T>): Promise<Exclusive<T>>;
}

/** Consolidation's view of the episodes: which groups wait, and what was drawn from them. */
export interface ConsolidationStore {
  pendingEpisodeGroups(
    minEpisodes: number,
    taskType: string | undefined,
    limit: number,
  ): Promise<EpisodeGroup[]>;
  /** The group's active episodes: those not yet consolidated first, then newest first. */
  groupEpisodes(
    group: SemanticScope & { task_type: string },
    limit: number,
  ): Promise<GroupEpisode[]>;
  markConsolidated(episodeIds: readonly string[], into: readonly string[], at: Date): Promise<void>;
}
