/**
 * Memory shared across agents: groups of agents joined by explicit grants, sources with trust
 * levels, and the quarantine that keeps low-trust writes from other agents until a reviewer
 * confirms them.
 */
import { skeleton } from "../../text/visible.js";
import type { AddedKnowledge } from "../lifecycle/knowledge.js";

/**
 * How far a source is trusted, lowest first. `blocked`: its shared writes are refused. `low`:
 * they are quarantined until confirmed. `normal` and `high`: recalled by the group at once; a
 * write never merges into or supersedes shared knowledge from a more trusted source.
 */
export const TRUST_LEVELS = ["blocked", "low", "normal", "high"] as const;
export type TrustLevel = (typeof TRUST_LEVELS)[number];
/** The levels a stored shared memory can carry (blocked writes are never stored). */
export type StoredTrust = Exclude<TrustLevel, "blocked">;

export const REVIEW_STATUSES = ["quarantined", "confirmed", "rejected"] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export const REVIEW_DECISIONS = ["confirm", "reject"] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/** A semantic memory's sharing and provenance; all null for a private memory. */
export interface Sharing {
  /** The group of agents it is shared with. */
  shared_group: string | null;
  /** The trust its source had when it was written. */
  source_trust: StoredTrust | null;
  /** quarantined: only its writer recalls it; confirmed: the group does; rejected: nobody. */
  review_status: ReviewStatus | null;
  /** Who confirmed or rejected it; null while quarantined or when trusted on arrival. */
  reviewed_by: string | null;
  reviewed_at: Date | null;
}

export const PRIVATE: Sharing = {
  shared_group: null,
  source_trust: null,
  review_status: null,
  reviewed_by: null,
  reviewed_at: null,
};

export interface GroupMember {
  agent_id: string;
  granted_at: Date;
}

export interface Group {
  group: string;
  members: GroupMember[];
}

export interface SourceTrust {
  source: string;
  trust: TrustLevel;
  note: string | null;
  updated_at: Date;
}

export interface ReviewResult {
  id: string;
  decision: ReviewDecision;
  review_status: ReviewStatus;
  shared_group: string;
  /** Null when it was confirmed on arrival (trusted source) and nobody reviewed it. */
  reviewed_by: string | null;
  reviewed_at: Date | null;
  /** False when the memory already had this status: nothing changed. */
  changed: boolean;
}

/**
 * What an agent may do with a memory: `own` (it wrote it: it may forget, rate or restore it),
 * `visible` (its groups' confirmed knowledge: it may read it), `hidden` (neither).
 */
export type Access = "own" | "visible" | "hidden";

/** Who a write comes from when an API key bound to an agent made it (see tenants/agent-scope). */
export interface Caller {
  agent: string;
}

/** What storing a semantic memory did, with its sharing when shared. */
export interface StoredKnowledge extends AddedKnowledge {
  shared_group?: string;
  review_status?: ReviewStatus;
}

const RANK: Record<TrustLevel, number> = { blocked: 0, low: 1, normal: 2, high: 3 };

/** The lower of two trust levels. */
export function lowerTrust(a: TrustLevel, b: TrustLevel): TrustLevel {
  return RANK[a] <= RANK[b] ? a : b;
}

/**
 * Source names as the trust list keys them: their skeleton (text/visible) — folded, lower-cased,
 * invisible characters dropped, Cyrillic and Greek look-alike letters read as Latin, trailing
 * dots and spaces gone — so "Pastebin", "ｐａｓｔｅｂｉｎ", "paste\u200Bbin", "pаstebin" (Cyrillic
 * а) and "pastebin." are all the blocked "pastebin".
 */
export function sourceKey(source: string): string {
  return skeleton(source);
}

/** The trust-list name of an agent: writes through its key are trusted no more than it. */
export function agentSource(agent: string): string {
  return sourceKey(`agent:${agent}`);
}

/** Whether knowledge from `writer` may rewrite knowledge that came from `existing`. */
export function mayOverride(writer: TrustLevel, existing: TrustLevel | null): boolean {
  return existing === null || RANK[writer] >= RANK[existing];
}
