/**
 * Versioned schema migrations, shared by PGlite and PostgreSQL. A migration is a function of
 * the embedder's dimension because pgvector's HNSW index needs a fixed-size vector column.
 * Append new migrations; never edit one that has shipped.
 */
import type { SqlExecutor } from "./executor.js";
import {
  calendarSearchText,
  reindexSearchText,
  rewriteSearchTexts,
  unitSearchText,
} from "./reindex.js";

export interface MigrationContext {
  dimensions: number;
}

export interface Migration {
  version: number;
  name: string;
  sql(context: MigrationContext): string;
  /** Work SQL alone cannot do (re-tokenizing text), run after `sql` in the same transaction. */
  run?(tx: SqlExecutor): Promise<void>;
}

/*
 * Keyword search: `search_text` holds the segmented words (see text/tokenize), `terms` the
 * distinct ones under a GIN index; BM25 scores are computed from them and search_terms. The
 * GIN index does without its pending list (fastupdate off): PGlite has no autovacuum to merge
 * it, and every search would scan it linearly.
 *
 * Vector indexes are HNSW with cosine distance, not the ivfflat of the original design:
 * ivfflat builds its lists from the rows present when the index is created, so an index made
 * on an empty or small table (which is how every memory store starts) clusters nothing useful
 * and loses recall as the table grows, until someone rebuilds it. HNSW needs no training data
 * and keeps its recall as rows arrive.
 */
const initial: Migration = {
  version: 1,
  name: "episodic and semantic memory",
  sql: ({ dimensions }) => `
    CREATE EXTENSION IF NOT EXISTS vector;

    CREATE TABLE hindsight_meta (
      key text PRIMARY KEY,
      value text NOT NULL
    );

    CREATE TABLE episodic_memories (
      id uuid PRIMARY KEY,
      occurred_at timestamptz NOT NULL,
      recorded_at timestamptz NOT NULL,
      task_type text NOT NULL,
      summary text NOT NULL,
      outcome text NOT NULL CHECK (outcome IN ('success', 'failure', 'partial')),
      embedding vector(${dimensions}) NOT NULL,
      search_text text NOT NULL,
      terms text[] NOT NULL,
      metadata jsonb NOT NULL DEFAULT '{}',
      tags text[] NOT NULL DEFAULT '{}',
      source text,
      subject text,
      user_id text,
      agent_id text,
      confidence real NOT NULL DEFAULT 1 CHECK (confidence BETWEEN 0 AND 1),
      decay_score real NOT NULL DEFAULT 1,
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived'))
    );
    CREATE INDEX episodic_embedding_idx ON episodic_memories USING hnsw (embedding vector_cosine_ops);
    CREATE INDEX episodic_terms_idx ON episodic_memories USING gin (terms) WITH (fastupdate = off);
    CREATE INDEX episodic_occurred_idx ON episodic_memories (occurred_at);
    CREATE INDEX episodic_task_type_idx ON episodic_memories (task_type, occurred_at);
    CREATE INDEX episodic_scope_idx ON episodic_memories (user_id, agent_id);

    CREATE TABLE semantic_memories (
      id uuid PRIMARY KEY,
      key_text text NOT NULL,
      value_text text NOT NULL,
      task_type text,
      embedding vector(${dimensions}) NOT NULL,
      search_text text NOT NULL,
      terms text[] NOT NULL,
      confidence real NOT NULL DEFAULT 1 CHECK (confidence BETWEEN 0 AND 1),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      valid_from timestamptz NOT NULL,
      valid_to timestamptz,
      metadata jsonb NOT NULL DEFAULT '{}',
      tags text[] NOT NULL DEFAULT '{}',
      source text,
      subject text,
      user_id text,
      agent_id text,
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived'))
    );
    CREATE INDEX semantic_embedding_idx ON semantic_memories USING hnsw (embedding vector_cosine_ops);
    CREATE INDEX semantic_terms_idx ON semantic_memories USING gin (terms) WITH (fastupdate = off);
    CREATE INDEX semantic_scope_idx ON semantic_memories (user_id, agent_id);

    -- Provenance: which episodes a piece of knowledge was drawn from.
    CREATE TABLE semantic_sources (
      semantic_id uuid NOT NULL REFERENCES semantic_memories (id) ON DELETE CASCADE,
      episodic_id uuid NOT NULL REFERENCES episodic_memories (id) ON DELETE CASCADE,
      PRIMARY KEY (semantic_id, episodic_id)
    );
    CREATE INDEX semantic_sources_episodic_idx ON semantic_sources (episodic_id);

    -- How often and when each memory was recalled. Every recall writes here, so these small
    -- rows live apart from the memories: updating a memory row would add a new entry to each
    -- of its indexes, the HNSW graph included.
    CREATE TABLE episodic_usage (
      id uuid PRIMARY KEY REFERENCES episodic_memories (id) ON DELETE CASCADE,
      access_count integer NOT NULL,
      last_accessed_at timestamptz NOT NULL
    );
    CREATE TABLE semantic_usage (
      id uuid PRIMARY KEY REFERENCES semantic_memories (id) ON DELETE CASCADE,
      access_count integer NOT NULL,
      last_accessed_at timestamptz NOT NULL
    );

    -- BM25 corpus statistics, kept up to date by every write.
    CREATE TABLE search_stats (
      layer text PRIMARY KEY,
      documents bigint NOT NULL,
      tokens bigint NOT NULL,
      -- Table size at the last ANALYZE: PGlite has no autovacuum to keep planner stats fresh.
      analyzed_documents bigint NOT NULL DEFAULT 0
    );
    CREATE TABLE search_terms (
      layer text NOT NULL,
      term text NOT NULL,
      df integer NOT NULL,
      PRIMARY KEY (layer, term)
    );
  `,
};

/*
 * The memory lifecycle (decay, cold storage, consolidation, deduplication, superseding).
 *
 * Decay scores are rewritten for every memory on each maintenance run, so they live in small
 * `*_lifecycle` rows beside the memories (like usage): rewriting a memory row would add an
 * entry to each of its indexes, the HNSW graph included, for every memory on every run.
 * `decay_archived_at` marks memories that decay (not a person) archived: only those come back
 * by themselves when they are recalled again.
 *
 * `key_norm` is the key of a fact with case, spaces and punctuation folded, for the
 * deterministic contradiction rule (same key, different value: the newer supersedes).
 */
const lifecycle: Migration = {
  version: 2,
  name: "memory lifecycle",
  sql: () => `
    ALTER TABLE semantic_memories
      ADD COLUMN superseded_by uuid REFERENCES semantic_memories (id) ON DELETE SET NULL,
      ADD COLUMN key_norm text GENERATED ALWAYS AS
        (lower(btrim(regexp_replace(key_text, '[[:space:][:punct:]]+', ' ', 'g')))) STORED;
    CREATE INDEX semantic_key_norm_idx ON semantic_memories (key_norm) WHERE valid_to IS NULL;

    CREATE TABLE episodic_lifecycle (
      id uuid PRIMARY KEY REFERENCES episodic_memories (id) ON DELETE CASCADE,
      decay_score real NOT NULL,
      scored_at timestamptz NOT NULL,
      decay_archived_at timestamptz
    );
    CREATE TABLE semantic_lifecycle (
      id uuid PRIMARY KEY REFERENCES semantic_memories (id) ON DELETE CASCADE,
      decay_score real NOT NULL,
      scored_at timestamptz NOT NULL,
      decay_archived_at timestamptz
    );

    -- What happened to each memory, when and why. No foreign key: the history of a merged
    -- or superseded memory outlives nothing but a hard delete, which removes it explicitly.
    CREATE TABLE memory_events (
      seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      memory_id uuid NOT NULL,
      layer text NOT NULL CHECK (layer IN ('episodic', 'semantic')),
      event text NOT NULL CHECK (event IN ('created', 'merged', 'superseded', 'archived',
        'reactivated', 'restored', 'feedback', 'consolidated')),
      at timestamptz NOT NULL,
      reason text NOT NULL,
      details jsonb NOT NULL DEFAULT '{}'
    );
    CREATE INDEX memory_events_memory_idx ON memory_events (memory_id, at);

    -- Episodes already consolidated, so no episode is consolidated twice.
    CREATE TABLE consolidated_episodes (
      episodic_id uuid PRIMARY KEY REFERENCES episodic_memories (id) ON DELETE CASCADE,
      consolidated_at timestamptz NOT NULL
    );
  `,
};

/*
 * Working memory kept in the database when no Redis is configured. A session row serialises
 * its appends (the upsert locks it) and carries the summary with the revision that compression
 * compares and swaps; items are deleted with their session.
 */
const workingMemoryFallback: Migration = {
  version: 3,
  name: "working memory fallback",
  sql: () => `
    CREATE TABLE working_sessions (
      session_id text PRIMARY KEY,
      last_seq integer NOT NULL,
      budget integer,
      summary jsonb,
      revision integer NOT NULL DEFAULT 0,
      expires_at timestamptz NOT NULL
    );
    CREATE INDEX working_sessions_expiry_idx ON working_sessions (expires_at);

    CREATE TABLE working_items (
      session_id text NOT NULL REFERENCES working_sessions (session_id) ON DELETE CASCADE,
      seq integer NOT NULL,
      id uuid NOT NULL,
      kind text NOT NULL
        CHECK (kind IN ('goal', 'instruction', 'message', 'tool_call', 'result', 'note')),
      role text NOT NULL CHECK (role IN ('user', 'assistant', 'tool', 'system')),
      content text NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (session_id, seq),
      UNIQUE (session_id, id)
    );
  `,
};

/*
 * The audit log of destructive operations: forget, delete, merge, supersede (and restore, their
 * undoing). Apart from memory_events because it must outlive a hard delete, and so it holds
 * no memory content: deleting a memory for good leaves only the fact that it was deleted.
 */
const auditLog: Migration = {
  version: 4,
  name: "audit log",
  sql: () => `
    CREATE TABLE audit_log (
      seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      at timestamptz NOT NULL,
      operation text NOT NULL
        CHECK (operation IN ('forget', 'delete', 'merge', 'supersede', 'restore')),
      memory_id uuid NOT NULL,
      layer text NOT NULL CHECK (layer IN ('episodic', 'semantic')),
      reason text NOT NULL,
      details jsonb NOT NULL DEFAULT '{}'
    );
    CREATE INDEX audit_log_at_idx ON audit_log (at);
    CREATE INDEX audit_log_memory_idx ON audit_log (memory_id);
  `,
};

/*
 * The session (conversation, task run) a memory came from: a third scope beside user and
 * agent, filterable on every surface.
 */
const sessionScope: Migration = {
  version: 5,
  name: "session scope",
  sql: () => `
    ALTER TABLE episodic_memories ADD COLUMN session_id text;
    ALTER TABLE semantic_memories ADD COLUMN session_id text;
    CREATE INDEX episodic_session_idx ON episodic_memories (session_id) WHERE session_id IS NOT NULL;
    CREATE INDEX semantic_session_idx ON semantic_memories (session_id) WHERE session_id IS NOT NULL;
  `,
};

/*
 * Memory shared across agents. Groups are named sets of agents, joined by explicit grants. A
 * semantic memory written for a group carries the group and the trust its source had then;
 * `review_status` says whether others may recall it: 'quarantined' until a reviewer confirms
 * it (writes from low-trust sources), 'confirmed', or 'rejected' (kept, never recalled).
 * Private memories have no group and no review status. The audit log also records grants,
 * revocations, trust changes and reviews, which concern a group or a source (`target`) rather
 * than one memory.
 */
const sharedMemory: Migration = {
  version: 6,
  name: "shared memory",
  sql: () => `
    CREATE TABLE group_members (
      group_name text NOT NULL,
      agent_id text NOT NULL,
      granted_at timestamptz NOT NULL,
      PRIMARY KEY (group_name, agent_id)
    );
    CREATE INDEX group_members_agent_idx ON group_members (agent_id);

    CREATE TABLE source_trust (
      source text PRIMARY KEY,
      trust text NOT NULL CHECK (trust IN ('blocked', 'low', 'normal', 'high')),
      note text,
      updated_at timestamptz NOT NULL
    );

    ALTER TABLE semantic_memories ADD COLUMN shared_group text;
    ALTER TABLE semantic_memories ADD COLUMN source_trust text
      CHECK (source_trust IN ('low', 'normal', 'high'));
    ALTER TABLE semantic_memories ADD COLUMN review_status text
      CHECK (review_status IN ('quarantined', 'confirmed', 'rejected'));
    ALTER TABLE semantic_memories ADD COLUMN reviewed_by text;
    ALTER TABLE semantic_memories ADD COLUMN reviewed_at timestamptz;
    CREATE INDEX semantic_shared_idx ON semantic_memories (shared_group, review_status)
      WHERE shared_group IS NOT NULL;

    ALTER TABLE memory_events DROP CONSTRAINT memory_events_event_check;
    -- NOT VALID: existing rows met the narrower check already; no scan of a large table.
    ALTER TABLE memory_events ADD CONSTRAINT memory_events_event_check CHECK (event IN (
      'created', 'merged', 'superseded', 'archived', 'reactivated', 'restored', 'feedback',
      'consolidated', 'confirmed', 'rejected')) NOT VALID;

    ALTER TABLE audit_log DROP CONSTRAINT audit_log_operation_check;
    ALTER TABLE audit_log ADD CONSTRAINT audit_log_operation_check CHECK (operation IN (
      'forget', 'delete', 'merge', 'supersede', 'restore',
      'confirm', 'reject', 'grant', 'revoke', 'trust')) NOT VALID;
    ALTER TABLE audit_log ALTER COLUMN memory_id DROP NOT NULL;
    ALTER TABLE audit_log ALTER COLUMN layer DROP NOT NULL;
    ALTER TABLE audit_log ADD COLUMN target text;
  `,
};

/*
 * Keyword search with the current tokenizer: rows written before English stemming get stemmed
 * search text, terms and BM25 statistics (see storage/reindex).
 */
const reindexKeywords: Migration = {
  version: 7,
  name: "keyword index with stemming",
  sql: () => "",
  run: async (tx) => {
    await reindexSearchText(tx);
  },
};

/**
 * Managing memories. Filtering by tag (recall's and list's `tags`): a GIN index per layer
 * serves && and @>. Listing knowledge newest first walks valid_from (episodes have occurred_at
 * indexed). A correction (`update`) is an event of the memory's history and the audit log.
 */
const managing: Migration = {
  version: 8,
  name: "managing memories: tag and listing indexes, corrections",
  sql: () => `
    CREATE INDEX episodic_tags_idx ON episodic_memories USING gin (tags);
    CREATE INDEX semantic_tags_idx ON semantic_memories USING gin (tags);
    CREATE INDEX semantic_valid_from_idx ON semantic_memories (valid_from);

    ALTER TABLE memory_events DROP CONSTRAINT memory_events_event_check;
    ALTER TABLE memory_events ADD CONSTRAINT memory_events_event_check CHECK (event IN (
      'created', 'merged', 'superseded', 'archived', 'reactivated', 'restored', 'feedback',
      'consolidated', 'confirmed', 'rejected', 'updated')) NOT VALID;

    ALTER TABLE audit_log DROP CONSTRAINT audit_log_operation_check;
    ALTER TABLE audit_log ADD CONSTRAINT audit_log_operation_check CHECK (operation IN (
      'forget', 'delete', 'merge', 'supersede', 'restore',
      'confirm', 'reject', 'grant', 'revoke', 'trust', 'update')) NOT VALID;
  `,
};

/*
 * Keyword search with calendar words in one form (text/calendar-words): "Friday", 星期五 and
 * 每周五 are all 周五, "morning" and 早上 are 上午. Stored search texts, terms and BM25
 * statistics are upgraded in place.
 */
const calendarWords: Migration = {
  version: 9,
  name: "keyword index with calendar words in one form",
  sql: () => "",
  run: async (tx) => {
    await rewriteSearchTexts(tx, calendarSearchText);
  },
};

/*
 * Keyword search with units of measure in one form (text/unit-words): "164cm", "164 cm" and
 * 164厘米 all hold 164 and 厘米, "5km" and 5公里 hold 5 and 公里. Stored search texts, terms and
 * BM25 statistics are upgraded in place.
 */
const unitWords: Migration = {
  version: 10,
  name: "keyword index with units of measure in one form",
  sql: () => "",
  run: async (tx) => {
    await rewriteSearchTexts(tx, unitSearchText);
  },
};

export const MIGRATIONS: readonly Migration[] = [
  initial,
  lifecycle,
  workingMemoryFallback,
  auditLog,
  sessionScope,
  sharedMemory,
  reindexKeywords,
  managing,
  calendarWords,
  unitWords,
];
