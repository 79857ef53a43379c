/**
 * Working memory: "what I am doing now". A session is an ordered list of typed items plus, once
 * it has outgrown its token budget, a four-part summary of the items compressed away.
 */
export const ITEM_KINDS = [
  "goal",
  "instruction",
  "message",
  "tool_call",
  "result",
  "note",
] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

export const ITEM_ROLES = ["user", "assistant", "tool", "system"] as const;
export type ItemRole = (typeof ITEM_ROLES)[number];

export interface WorkingItem {
  /** Position in the session, assigned atomically by the store: 1, 2, 3, … */
  seq: number;
  /** Client-chosen or generated; an append retried with the same id is stored once. */
  id: string;
  kind: ItemKind;
  role: ItemRole;
  content: string;
  created_at: Date;
}

export type NewWorkingItem = Omit<WorkingItem, "seq">;

/** The structured compression the design asks for: never lose progress, or where it stalled. */
export interface SummaryParts {
  goal: string;
  done: string;
  blocked: string;
  next: string;
}

export interface WorkingSummary extends SummaryParts {
  /** Who wrote it: the cheap LLM tier, or the deterministic fallback. */
  method: "llm" | "deterministic";
  /** How many items it stands for, over every compression folded into it. */
  items_summarized: number;
  updated_at: Date;
}

/** A consistent snapshot of one session, as the store holds it. */
export interface WorkingSession {
  session_id: string;
  items: WorkingItem[];
  summary: WorkingSummary | null;
  /** Bumped by every compression: a compression commits only on the revision it read. */
  revision: number;
  /** This session's token budget, when it overrides the configured default. */
  budget: number | null;
}

/** What `get` returns: the session assembled within budget, ready to paste into a prompt. */
export interface WorkingContext {
  session: string;
  tokens: number;
  budget: number;
  summary: WorkingSummary | null;
  items: WorkingItem[];
  context: string;
}

export interface WorkingAppendResult {
  session: string;
  seq: number;
  tokens: number;
  budget: number;
  /** Whether this append pushed the session over budget and items were compressed. */
  compressed: boolean;
}

export interface WorkingEndResult {
  episodic_id: string;
  /** The episodic memory's summary (goal, key action, result; at most 80 characters). */
  summary: string;
  method: "llm" | "deterministic";
}

/** A live session as the inspector and `working list` show it. */
export interface WorkingSessionListing {
  session: string;
  /** The agent whose session it is; null for a session without one. */
  agent_id: string | null;
  /** Items held verbatim (the summary stands for the rest). */
  items: number;
  tokens: number;
  budget: number;
  /** The goal item, or the summary's goal once the goal item was folded into it. */
  goal: string | null;
  summary: WorkingSummary | null;
  /** The latest item or compression. */
  last_activity_at: Date | null;
  expires_at: Date;
}

export interface WorkingSessionList {
  /** Most recently written first. */
  sessions: WorkingSessionListing[];
  /** Live sessions in scope, of which `sessions` is the first `limit`. */
  total: number;
}
