/**
 * The storage port over SQL, written once for PGlite and PostgreSQL.
 */
import type { AuditEntry, AuditQuery } from "../core/audit.js";
import { ErrorCode, notFound, wrapError } from "../core/errors.js";
import type {
  DecayCounts,
  DecayParameters,
  EpisodeGroup,
  Exclusive,
  FeedbackChange,
  FeedbackOutcome,
  MemoryHistory,
  NeighbourQuery,
  RestoreOutcome,
  SemanticChange,
  SemanticMerge,
  SemanticNeighbour,
  SemanticScope,
} from "../core/lifecycle/store-port.js";
import type {
  CandidateQuery,
  CandidateSet,
  EmbedderIdentity,
  MemoryStore,
  MigrationReport,
  NewEpisodic,
  NewSemantic,
  StoredMemory,
} from "../core/ports.js";
import type { MembershipChange, ReviewRequest } from "../core/sharing/ports.js";
import type { Group, ReviewResult, SourceTrust, TrustLevel } from "../core/sharing/types.js";
import type {
  EpisodicMemory,
  ForgetResult,
  LayerCounts,
  MemoryLayer,
  SemanticMemory,
} from "../core/types.js";
import type { WorkingMemoryStore } from "../core/working/ports.js";
import { SqlWorkingStore } from "../working/sql-store.js";
import { listAudit, recordAudit } from "./audit-sql.js";
import { findCandidates } from "./candidates.js";
import { type SqlDriver, type SqlExecutor, toVectorLiteral } from "./executor.js";
import * as lifecycle from "./lifecycle-sql.js";
import { migrate } from "./migrate.js";
import { COLUMNS, joinsOf, TABLE, toStored } from "./rows.js";
import { type CorpusSize, needsAnalyze, termsOf, updateCorpus } from "./search-index.js";
import * as sharing from "./sharing-sql.js";

/** Rows per INSERT statement: well under PostgreSQL's 65 535 bind parameters. */
const INSERT_BATCH = 500;

/** The columns a stored memory's row sets, with their values: one list per layer, never two. */
function sharedColumns(row: NewEpisodic | NewSemantic): Record<string, unknown> {
  return {
    id: row.id,
    embedding: toVectorLiteral(row.embedding),
    search_text: row.search_text,
    terms: termsOf(row.search_text),
    metadata: row.metadata,
    tags: row.tags,
    source: row.source,
    subject: row.subject,
    user_id: row.user_id,
    agent_id: row.agent_id,
    session_id: row.session_id,
    confidence: row.confidence,
    status: row.status,
  };
}

function episodicColumns(row: NewEpisodic): Record<string, unknown> {
  return {
    ...sharedColumns(row),
    occurred_at: row.occurred_at,
    recorded_at: row.recorded_at,
    task_type: row.task_type,
    summary: row.summary,
    outcome: row.outcome,
    decay_score: row.decay_score,
  };
}

function semanticColumns(row: NewSemantic): Record<string, unknown> {
  return {
    ...sharedColumns(row),
    key_text: row.key_text,
    value_text: row.value_text,
    task_type: row.task_type,
    created_at: row.created_at,
    updated_at: row.updated_at,
    valid_from: row.valid_from,
    valid_to: row.valid_to,
    shared_group: row.shared_group,
    source_trust: row.source_trust,
    review_status: row.review_status,
    reviewed_by: row.reviewed_by,
    reviewed_at: row.reviewed_at,
  };
}

/**
 * An idempotent multi-row INSERT: an id stored before (a retried request) is skipped, not
 * stored twice; the ids actually written come back.
 */
function insertRows(table: string, rows: readonly Record<string, unknown>[]): [string, unknown[]] {
  const columns = Object.keys(rows[0] ?? {});
  const sql = `INSERT INTO ${table} (${columns.join(", ")})
    VALUES ${placeholders(rows.length, columns.length)}
    ON CONFLICT (id) DO NOTHING RETURNING id`;
  return [sql, rows.flatMap((row) => columns.map((column) => row[column]))];
}

function placeholders(rowCount: number, columnCount: number): string {
  const rows: string[] = [];
  for (let r = 0; r < rowCount; r++) {
    const cells: string[] = [];
    for (let c = 1; c <= columnCount; c++) cells.push(`$${r * columnCount + c}`);
    rows.push(`(${cells.join(", ")})`);
  }
  return rows.join(", ");
}

export class SqlMemoryStore implements MemoryStore {
  constructor(private readonly driver: SqlDriver) {}

  /** Working memory kept in this database, for when no Redis is configured (migration 3). */
  workingStore(): WorkingMemoryStore {
    return new SqlWorkingStore(this.driver);
  }

  get description(): string {
    return this.driver.description;
  }

  migrate(embedder: EmbedderIdentity): Promise<MigrationReport> {
    return this.guard("migrating the database", () => migrate(this.driver, embedder));
  }

  async insertEpisodic(rows: readonly NewEpisodic[]): Promise<void> {
    if (rows.length === 0) return;
    const size = await this.guard("storing episodic memories", () =>
      this.driver.transaction(async (tx) => {
        const inserted = new Set<string>();
        for (let start = 0; start < rows.length; start += INSERT_BATCH) {
          const batch = rows.slice(start, start + INSERT_BATCH);
          const written = await tx.query<{ id: string }>(
            ...insertRows(TABLE.episodic, batch.map(episodicColumns)),
          );
          for (const { id } of written) inserted.add(id);
        }
        const texts = rows.filter((row) => inserted.has(row.id)).map((row) => row.search_text);
        return updateCorpus(tx, "episodic", texts, 1);
      }),
    );
    await this.refreshPlannerStatistics("episodic", size);
  }

  /**
   * ANALYZE once a table has grown by a fifth. Without statistics the planner estimates a
   * filtered vector search wrongly and scans the whole table instead of the HNSW index;
   * PostgreSQL's autovacuum would catch up eventually, PGlite has none.
   */
  private async refreshPlannerStatistics(layer: MemoryLayer, size: CorpusSize): Promise<void> {
    if (!needsAnalyze(size)) return;
    await this.guard("refreshing planner statistics", async () => {
      await this.driver.exec(`ANALYZE ${TABLE[layer]}`);
      await this.driver.query("UPDATE search_stats SET analyzed_documents = $2 WHERE layer = $1", [
        layer,
        size.documents,
      ]);
    });
  }

  async insertSemantic(row: NewSemantic, change?: SemanticChange): Promise<boolean> {
    const size = await this.guard("storing a semantic memory", () =>
      this.driver.transaction(async (tx) => {
        const written = await tx.query(...insertRows(TABLE.semantic, [semanticColumns(row)]));
        // An id stored before (a retried request) is skipped, not stored twice.
        if (written.length === 0) return undefined;
        const size = await updateCorpus(tx, "semantic", [row.search_text], 1);
        if (row.source_episode_ids.length > 0) {
          await this.linkSources(tx, row.id, row.source_episode_ids);
        }
        await lifecycle.recordCreation(
          tx,
          row.id,
          change ?? { at: row.created_at, reason: "stored" },
        );
        return size;
      }),
    );
    if (size) await this.refreshPlannerStatistics("semantic", size);
    return size !== undefined;
  }

  mergeSemantic(merge: SemanticMerge): Promise<boolean> {
    return this.guard("merging semantic memories", () =>
      this.driver.transaction(async (tx) => {
        const [old] = await tx.query<{ search_text: string }>(
          "SELECT search_text FROM semantic_memories WHERE id = $1 FOR UPDATE",
          [merge.target_id],
        );
        if (!old) return false;
        await tx.query(
          `UPDATE semantic_memories SET key_text = $2, value_text = $3, embedding = $4,
             search_text = $5, terms = $6, confidence = $7, tags = $8, metadata = $9,
             updated_at = $10
           WHERE id = $1`,
          [
            merge.target_id,
            merge.key_text,
            merge.value_text,
            toVectorLiteral(merge.embedding),
            merge.search_text,
            termsOf(merge.search_text),
            merge.confidence,
            merge.tags,
            merge.metadata,
            merge.at,
          ],
        );
        if (old.search_text !== merge.search_text) {
          await updateCorpus(tx, "semantic", [old.search_text], -1);
          await updateCorpus(tx, "semantic", [merge.search_text], 1);
        }
        if (merge.source_episode_ids.length > 0) {
          await this.linkSources(tx, merge.target_id, merge.source_episode_ids);
        }
        await lifecycle.recordEvents(
          tx,
          "semantic",
          [merge.target_id],
          "merged",
          merge.at,
          merge.reason,
          merge.details,
        );
        return true;
      }),
    );
  }

  private async linkSources(tx: SqlExecutor, semanticId: string, episodeIds: readonly string[]) {
    const linked = await tx.query<{ episodic_id: string }>(
      `WITH wanted AS (SELECT e.id FROM episodic_memories e WHERE e.id = ANY($2::uuid[])),
       linked AS (INSERT INTO semantic_sources (semantic_id, episodic_id)
         SELECT $1, id FROM wanted ON CONFLICT DO NOTHING)
       SELECT id AS episodic_id FROM wanted`,
      [semanticId, episodeIds],
    );
    if (linked.length < new Set(episodeIds).size) {
      const found = new Set(linked.map((row) => row.episodic_id));
      const missing = episodeIds.find((id) => !found.has(id));
      // Thrown inside the transaction, so the semantic memory is not written either.
      throw notFound("source_episode_ids", missing ?? "");
    }
  }

  findCandidates(query: CandidateQuery): Promise<CandidateSet> {
    return this.guard("searching memories", () => findCandidates(this.driver, query));
  }

  getMany(layer: MemoryLayer, ids: readonly string[]): Promise<StoredMemory[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.guard("reading memories", async () => {
      const rows = await this.driver.query<EpisodicMemory | SemanticMemory>(
        `SELECT ${COLUMNS[layer]} FROM ${TABLE[layer]} m ${joinsOf(layer)}
         WHERE m.id = ANY($1::uuid[])`,
        [ids],
      );
      return rows.map((row) => toStored(layer, row));
    });
  }

  recordAccess(layer: MemoryLayer, ids: readonly string[], at: Date): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    return this.guard("recording memory access", async () => {
      await lifecycle.touch(this.driver, layer, ids, at);
    });
  }

  forget(
    id: string,
    mode: "soft" | "hard",
    at = new Date(),
    reason?: string,
  ): Promise<ForgetResult | null> {
    return this.guard("forgetting a memory", () =>
      this.driver.transaction(async (tx) => {
        for (const layer of ["episodic", "semantic"] as const) {
          const sql =
            mode === "hard"
              ? `DELETE FROM ${TABLE[layer]} WHERE id = $1 RETURNING search_text`
              : `UPDATE ${TABLE[layer]} SET status = 'archived' WHERE id = $1 RETURNING search_text`;
          const rows = await tx.query<{ search_text: string }>(sql, [id]);
          if (rows.length > 0) {
            if (mode === "hard") {
              await updateCorpus(tx, layer, [rows[0]!.search_text], -1);
              await tx.query("DELETE FROM memory_events WHERE memory_id = $1", [id]);
            } else {
              await lifecycle.recordForgotten(tx, layer, id, at);
            }
            await recordAudit(tx, [
              {
                at,
                operation: mode === "hard" ? "delete" : "forget",
                memory_id: id,
                layer,
                reason: reason ?? (mode === "hard" ? "deleted on request" : "forgotten on request"),
                details: { mode },
              },
            ]);
            return { id, layer, mode, status: mode === "hard" ? "deleted" : "archived" } as const;
          }
        }
        return null;
      }),
    );
  }

  audit(query: AuditQuery): Promise<AuditEntry[]> {
    return this.guard("reading the audit log", () => listAudit(this.driver, query));
  }

  grant(change: MembershipChange): Promise<Group> {
    return this.guard("granting group membership", () =>
      this.driver.transaction((tx) => sharing.grantMembers(tx, change)),
    );
  }

  revoke(change: MembershipChange): Promise<Group> {
    return this.guard("revoking group membership", () =>
      this.driver.transaction((tx) => sharing.revokeMembers(tx, change)),
    );
  }

  groups(group?: string): Promise<Group[]> {
    return this.guard("reading groups", () => sharing.listGroups(this.driver, group));
  }

  groupsOf(agent: string): Promise<string[]> {
    return this.guard("reading an agent's groups", () => sharing.groupsOf(this.driver, agent));
  }

  setTrust(entry: SourceTrust): Promise<SourceTrust> {
    return this.guard("setting a source's trust", () =>
      this.driver.transaction((tx) => sharing.setSourceTrust(tx, entry)),
    );
  }

  trustOf(source: string): Promise<TrustLevel | undefined> {
    return this.guard("reading a source's trust", () => sharing.trustOf(this.driver, source));
  }

  listTrust(): Promise<SourceTrust[]> {
    return this.guard("reading source trust", () => sharing.listTrust(this.driver));
  }

  quarantined(query: { group?: string; limit: number }): Promise<SemanticMemory[]> {
    return this.guard("reading quarantined memories", () =>
      sharing.listQuarantined(this.driver, query),
    );
  }

  review(request: ReviewRequest): Promise<ReviewResult | "not_shared" | "rejected" | undefined> {
    return this.guard("reviewing a shared memory", () =>
      this.driver.transaction((tx) => sharing.reviewShared(tx, request)),
    );
  }

  counts(layer: MemoryLayer, agentId?: string): Promise<LayerCounts> {
    return this.guard("counting memories", async () => {
      const [row] = await this.driver.query<LayerCounts>(
        `SELECT count(*)::int AS total,
                count(*) FILTER (WHERE status = 'active')::int AS active,
                count(*) FILTER (WHERE status = 'archived')::int AS archived
         FROM ${TABLE[layer]}
         ${agentId === undefined ? "" : "WHERE agent_id = $1"}`,
        agentId === undefined ? [] : [agentId],
      );
      return row ?? { total: 0, active: 0, archived: 0 };
    });
  }

  applyDecay(layer: MemoryLayer, parameters: DecayParameters, at: Date): Promise<DecayCounts> {
    return this.guard("applying decay", () =>
      lifecycle.applyDecay(this.driver, layer, parameters, at),
    );
  }

  restore(id: string, minConfidence: number, at: Date): Promise<RestoreOutcome | null> {
    return this.guard("restoring a memory", () =>
      this.driver.transaction((tx) => lifecycle.restore(tx, id, minConfidence, at)),
    );
  }

  applyFeedback(change: FeedbackChange): Promise<FeedbackOutcome | null> {
    return this.guard("recording feedback", () =>
      this.driver.transaction((tx) => lifecycle.applyFeedback(tx, change)),
    );
  }

  history(id: string): Promise<MemoryHistory | null> {
    return this.guard("reading a memory's history", () => lifecycle.history(this.driver, id));
  }

  semanticNeighbours(query: NeighbourQuery): Promise<SemanticNeighbour[]> {
    return this.guard("finding similar knowledge", () =>
      lifecycle.semanticNeighbours(this.driver, query),
    );
  }

  mergedRequest(requestId: string): Promise<string | null> {
    return this.guard("checking for a merged request", () =>
      lifecycle.mergedRequest(this.driver, requestId),
    );
  }

  pendingEpisodeGroups(
    minEpisodes: number,
    taskType: string | undefined,
    limit: number,
  ): Promise<EpisodeGroup[]> {
    return this.guard("finding episodes to consolidate", () =>
      lifecycle.pendingEpisodeGroups(this.driver, minEpisodes, taskType, limit),
    );
  }

  groupEpisodes(group: SemanticScope & { task_type: string }, limit: number) {
    return this.guard("reading episodes to consolidate", () =>
      lifecycle.groupEpisodes(this.driver, group, limit),
    );
  }

  markConsolidated(episodeIds: readonly string[], into: readonly string[], at: Date) {
    return this.guard("recording consolidation", () =>
      this.driver.transaction((tx) => lifecycle.markConsolidated(tx, episodeIds, into, at)),
    );
  }

  exclusive<T>(job: string, wait: boolean, fn: () => Promise<T>): Promise<Exclusive<T>> {
    // Only taking the lock is a storage failure; what the job throws passes through as is.
    return this.driver.exclusive(job, wait, fn);
  }

  ping(): Promise<void> {
    return this.guard("checking the database", async () => {
      await this.driver.query("SELECT 1");
    });
  }

  close(): Promise<void> {
    return this.driver.close();
  }

  private async guard<T>(context: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      // Our own errors (not found, embedder mismatch) pass through unchanged.
      throw wrapError(ErrorCode.STORAGE_FAILED, context, error);
    }
  }
}
