/**
 * Ports: what the core needs from the outside world. Adapters live outside `core/` and the
 * core never imports them.
 */
import type {
  EpisodicMemory,
  ForgetResult,
  LayerCounts,
  MemoryLayer,
  SemanticMemory,
} from "./types.js";

export interface Clock {
  now(): Date;
}

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export interface Embedder {
  /** Stable identifier recorded in the database, e.g. `hash-v1` or `openai:text-embedding-3-small`. */
  readonly id: string;
  readonly dimensions: number;
  /** Embeds a batch of texts; returns one L2-normalised vector per text, in order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  close?(): Promise<void>;
}

/** What the store needs to know about the embedder to create and check the vector column. */
export interface EmbedderIdentity {
  id: string;
  dimensions: number;
}

export type NewEpisodic = Omit<EpisodicMemory, "access_count" | "last_accessed_at"> & {
  embedding: Float32Array;
  search_text: string;
};

export type NewSemantic = Omit<SemanticMemory, "access_count" | "last_used_at"> & {
  embedding: Float32Array;
  search_text: string;
  source_episode_ids: string[];
};

export interface CandidateFilter {
  task_type?: string;
  from?: Date;
  to?: Date;
  user_id?: string;
  agent_id?: string;
  include_archived: boolean;
}

export interface CandidateQuery {
  layer: MemoryLayer;
  embedding: Float32Array;
  /** Normalised word tokens of the query (see text/tokenize). */
  keywords: string[];
  filter: CandidateFilter;
  /** How many nearest neighbours and how many keyword hits to fetch, each. */
  limit: number;
}

export type Candidate =
  | { layer: "episodic"; memory: EpisodicMemory; vector_similarity: number; search_text: string }
  | { layer: "semantic"; memory: SemanticMemory; vector_similarity: number; search_text: string };

export interface MigrationReport {
  applied: number[];
  current: number;
}

/** Storage port. One SQL implementation serves both PGlite and PostgreSQL. */
export interface MemoryStore {
  /** Human-readable location, credentials removed: `pglite:/home/u/.hindsight/data`. */
  readonly description: string;
  /** Applies pending migrations and checks the embedder recorded in the database. */
  migrate(embedder: EmbedderIdentity): Promise<MigrationReport>;
  insertEpisodic(rows: readonly NewEpisodic[]): Promise<void>;
  insertSemantic(row: NewSemantic): Promise<void>;
  findCandidates(query: CandidateQuery): Promise<Candidate[]>;
  /** Records that memories were recalled (access count and time). */
  touch(layer: MemoryLayer, ids: readonly string[], at: Date): Promise<void>;
  forget(id: string, mode: "soft" | "hard"): Promise<ForgetResult | null>;
  counts(layer: MemoryLayer): Promise<LayerCounts>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
