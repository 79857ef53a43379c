/**
 * The storage port over SQL, written once for PGlite and PostgreSQL.
 */
import { ErrorCode, notFound, wrapError } from "../core/errors.js";
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
import type {
  EpisodicMemory,
  ForgetResult,
  LayerCounts,
  MemoryLayer,
  SemanticMemory,
} from "../core/types.js";
import { findCandidates } from "./candidates.js";
import { type SqlDriver, type SqlExecutor, toVectorLiteral } from "./executor.js";
import { migrate } from "./migrate.js";
import { COLUMNS, TABLE, toStored, USAGE_TABLE } from "./rows.js";
import { type CorpusSize, needsAnalyze, termsOf, updateCorpus } from "./search-index.js";

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
  constructor(readonly driver: SqlDriver) {}

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

  async insertSemantic(row: NewSemantic): Promise<void> {
    const size = await this.guard("storing a semantic memory", () =>
      this.driver.transaction(async (tx) => {
        const written = await tx.query(...insertRows(TABLE.semantic, [semanticColumns(row)]));
        // An id stored before (a retried request) is skipped, not stored twice.
        if (written.length === 0) return undefined;
        const size = await updateCorpus(tx, "semantic", [row.search_text], 1);
        if (row.source_episode_ids.length > 0) {
          await this.linkSources(tx, row.id, row.source_episode_ids);
        }
        return size;
      }),
    );
    if (size) await this.refreshPlannerStatistics("semantic", size);
  }

  private async linkSources(tx: SqlExecutor, semanticId: string, episodeIds: readonly string[]) {
    const linked = await tx.query<{ episodic_id: string }>(
      `INSERT INTO semantic_sources (semantic_id, episodic_id)
       SELECT $1, e.id FROM episodic_memories e WHERE e.id = ANY($2::uuid[])
       ON CONFLICT DO NOTHING RETURNING episodic_id`,
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
        `SELECT ${COLUMNS[layer]} FROM ${TABLE[layer]} m
         LEFT JOIN ${USAGE_TABLE[layer]} u ON u.id = m.id WHERE m.id = ANY($1::uuid[])`,
        [ids],
      );
      return rows.map((row) => toStored(layer, row));
    });
  }

  recordAccess(layer: MemoryLayer, ids: readonly string[], at: Date): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    return this.guard("recording memory access", async () => {
      // Selecting the ids from the memory table skips any deleted in the meantime.
      await this.driver.query(
        `INSERT INTO ${USAGE_TABLE[layer]} (id, access_count, last_accessed_at)
         SELECT id, 1, $2 FROM ${TABLE[layer]} WHERE id = ANY($1::uuid[])
         ON CONFLICT (id) DO UPDATE SET access_count = ${USAGE_TABLE[layer]}.access_count + 1,
           last_accessed_at = GREATEST(${USAGE_TABLE[layer]}.last_accessed_at, excluded.last_accessed_at)`,
        [ids, at],
      );
    });
  }

  forget(id: string, mode: "soft" | "hard"): Promise<ForgetResult | null> {
    return this.guard("forgetting a memory", () =>
      this.driver.transaction(async (tx) => {
        for (const layer of ["episodic", "semantic"] as const) {
          const sql =
            mode === "hard"
              ? `DELETE FROM ${TABLE[layer]} WHERE id = $1 RETURNING search_text`
              : `UPDATE ${TABLE[layer]} SET status = 'archived' WHERE id = $1 RETURNING search_text`;
          const rows = await tx.query<{ search_text: string }>(sql, [id]);
          if (rows.length > 0) {
            if (mode === "hard") await updateCorpus(tx, layer, [rows[0]!.search_text], -1);
            return { id, layer, mode, status: mode === "hard" ? "deleted" : "archived" } as const;
          }
        }
        return null;
      }),
    );
  }

  counts(layer: MemoryLayer): Promise<LayerCounts> {
    return this.guard("counting memories", async () => {
      const [row] = await this.driver.query<LayerCounts>(
        `SELECT count(*)::int AS total,
                count(*) FILTER (WHERE status = 'active')::int AS active,
                count(*) FILTER (WHERE status = 'archived')::int AS archived
         FROM ${TABLE[layer]}`,
      );
      return row ?? { total: 0, active: 0, archived: 0 };
    });
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
