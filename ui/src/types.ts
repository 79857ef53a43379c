/** The API's answers, as much of them as the page reads. */
export interface Memory {
  id: string;
  layer: "episodic" | "semantic";
  status: "active" | "archived";
  task_type: string | null;
  tags: string[];
  metadata: Record<string, unknown>;
  confidence: number;
  access_count: number;
  user_id: string | null;
  agent_id: string | null;
  session_id: string | null;
  source: string | null;
  // Episodic
  summary?: string;
  outcome?: string;
  occurred_at?: string;
  // Semantic
  key_text?: string;
  value_text?: string;
  valid_from?: string;
  valid_to?: string | null;
  shared_group?: string | null;
  review_status?: string | null;
}

export interface Recalled extends Memory {
  score: number;
  signals: Record<string, number>;
}

export interface MemoryPage {
  memories: Memory[];
  total: number;
  next_cursor: string | null;
}

export interface WithProvenance extends Memory {
  provenance: {
    sources: string[];
    consolidated_into: string[];
    supersedes: string[];
    superseded_by: string | null;
  };
}

export interface History {
  events: { event: string; at: string; reason: string }[];
}

export interface AuditEntry {
  at: string;
  operation: string;
  reason: string;
  details: Record<string, unknown>;
}

export interface LlmUsage {
  requests: number;
  failures: number;
  prompt_tokens: number;
  completion_tokens: number;
}

export interface Stats {
  episodic: { total: number; active: number; archived: number };
  semantic: { total: number; active: number; archived: number };
  store: string;
  embedder: string;
  llm: LlmUsage & {
    provider: string;
    model: string | null;
    summary_model: string | null;
    tiers?: Record<string, LlmUsage>;
  };
}

/** What the memory says, in one line. */
export function textOf(memory: Memory): string {
  return memory.layer === "episodic"
    ? (memory.summary ?? "")
    : `${memory.key_text ?? ""} — ${memory.value_text ?? ""}`;
}

/** When it happened (episodic) or became valid (semantic). */
export function timeOf(memory: Memory): string {
  return (memory.layer === "episodic" ? memory.occurred_at : memory.valid_from) ?? "";
}
