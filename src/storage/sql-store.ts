/**
 * The storage port over SQL, written once for PGlite and PostgreSQL.
 */
import { ErrorCode, notFound, wrapError } from "../core/errors.js";
import type {
  Candidate,
  CandidateFilter,
  CandidateQuery,
  EmbedderIdentity,
  MemoryStore,
  MigrationReport,
  NewEpisodic,
  NewSemantic,
} from "../core/ports.js";
import type { ForgetResult, LayerCounts, MemoryLayer } from "../core/types.js";
import { type SqlDriver, type SqlExecutor, toVectorLiteral } from "./executor.js";
import { migrate } from "./migrate.js";
import {
  EPISODIC_COLUMNS,
  type EpisodicRow,
  SEMANTIC_COLUMNS,
  type SemanticRow,
  toEpisodic,
  toSemantic,
} from "./rows.js";

const TABLE: Record<MemoryLayer, string> = {
  episodic: "episodic_memories",
  semantic: "semantic_memories",
};

/** Rows per INSERT statement: well under PostgreSQL's 65 535 bind parameters. */
const INSERT_BATCH = 500;

const EPISODIC_INSERT_COLUMNS = [
  "id", "occurred_at", "recorded_at", "task_type", "summary", "outcome", "embedding",
  "search_text", "metadata", "tags", "source", "subject", "user_id", "agent_id", "confidence",
  "decay_score", "status",
] as const;

function episodicValues(row: NewEpisodic): unknown[] {
  return [
    row.id, row.occurred_at, row.recorded_at, row.task_type, row.summary, row.outcome,
    toVectorLiteral(row.embedding), row.search_text, row.metadata, row.tags, row.source,
    row.subject, row.user_id, row.agent_id, row.confidence, row.decay_score, row.status,
  ];
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

/** Keyword tokens are letters and digits only (see text/tokenize), so quoting them is safe. */
function toTsQuery(keywords: readonly string[]): string {
  return keywords.map((keyword) => `'${keyword}'`).join(" | ");
}

function whereClause(layer: MemoryLayer, filter: CandidateFilter, params: unknown[]): string {
  const conditions: string[] = [];
  const bind = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (!filter.include_archived) conditions.push("m.status = 'active'");
  if (filter.task_type !== undefined) conditions.push(`m.task_type = ${bind(filter.task_type)}`);
  if (filter.user_id !== undefined) conditions.push(`m.user_id = ${bind(filter.user_id)}`);
  if (filter.agent_id !== undefined) conditions.push(`m.agent_id = ${bind(filter.agent_id)}`);
  const timeColumn = layer === "episodic" ? "m.occurred_at" : "m.valid_from";
  if (filter.from !== undefined) conditions.push(`${timeColumn} >= ${bind(filter.from)}`);
  if (filter.to !== undefined) conditions.push(`${timeColumn} <= ${bind(filter.to)}`);
  // Superseded knowledge stays in history but is not recalled as current.
  if (layer === "semantic") conditions.push("m.valid_to IS NULL");
  return conditions.length > 0 ? conditions.join(" AND ") : "TRUE";
}

export class SqlMemoryStore implements MemoryStore {
  constructor(private readonly driver: SqlDriver) {}

  get description(): string {
    return this.driver.description;
  }

  migrate(embedder: EmbedderIdentity): Promise<MigrationReport> {
    return this.guard("migrating the database", () => migrate(this.driver, embedder));
  }

  insertEpisodic(rows: readonly NewEpisodic[]): Promise<void> {
    if (rows.length === 0) return Promise.resolve();
    return this.guard("storing episodic memories", () =>
      this.driver.transaction(async (tx) => {
        for (let start = 0; start < rows.length; start += INSERT_BATCH) {
          const batch = rows.slice(start, start + INSERT_BATCH);
          await tx.query(
            `INSERT INTO episodic_memories (${EPISODIC_INSERT_COLUMNS.join(", ")})
             VALUES ${placeholders(batch.length, EPISODIC_INSERT_COLUMNS.length)}`,
            batch.flatMap(episodicValues),
          );
        }
      }),
    );
  }

  insertSemantic(row: NewSemantic): Promise<void> {
    return this.guard("storing a semantic memory", () =>
      this.driver.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO semantic_memories (id, key_text, value_text, task_type, embedding,
             search_text, confidence, created_at, updated_at, valid_from, valid_to, metadata,
             tags, source, subject, user_id, agent_id, status)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
          [
            row.id, row.key_text, row.value_text, row.task_type, toVectorLiteral(row.embedding),
            row.search_text, row.confidence, row.created_at, row.updated_at, row.valid_from,
            row.valid_to, row.metadata, row.tags, row.source, row.subject, row.user_id,
            row.agent_id, row.status,
          ],
        );
        if (row.source_episode_ids.length > 0) {
          await this.linkSources(tx, row.id, row.source_episode_ids);
        }
      }),
    );
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

  findCandidates(query: CandidateQuery): Promise<Candidate[]> {
    return this.guard("searching memories", async () => {
      const params: unknown[] = [toVectorLiteral(query.embedding), query.limit];
      const where = whereClause(query.layer, query.filter, params);
      const table = TABLE[query.layer];
      let keywordBranch = "";
      if (query.keywords.length > 0) {
        params.push(toTsQuery(query.keywords));
        const tsquery = `to_tsquery('simple', $${params.length})`;
        keywordBranch = `UNION
          (SELECT m.id FROM ${table} m WHERE ${where} AND m.search_tsv @@ ${tsquery}
           ORDER BY ts_rank_cd(m.search_tsv, ${tsquery}) DESC LIMIT $2)`;
      }
      const columns = query.layer === "episodic" ? EPISODIC_COLUMNS : SEMANTIC_COLUMNS;
      const rows = await this.driver.query<(EpisodicRow | SemanticRow) & {
        vector_similarity: number;
        search_text: string;
      }>(
        `WITH hits AS (
           (SELECT m.id FROM ${table} m WHERE ${where}
            ORDER BY m.embedding <=> $1::vector LIMIT $2)
           ${keywordBranch}
         )
         SELECT ${columns}, search_text, 1 - (embedding <=> $1::vector) AS vector_similarity
         FROM ${table} WHERE id IN (SELECT id FROM hits)`,
        params,
      );
      return rows.map((row): Candidate => {
        const base = { vector_similarity: Number(row.vector_similarity), search_text: row.search_text };
        return query.layer === "episodic"
          ? { layer: "episodic", memory: toEpisodic(row as EpisodicRow), ...base }
          : { layer: "semantic", memory: toSemantic(row as SemanticRow), ...base };
      });
    });
  }

  touch(layer: MemoryLayer, ids: readonly string[], at: Date): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    const lastUsed = layer === "episodic" ? "last_accessed_at" : "last_used_at";
    return this.guard("recording memory access", async () => {
      await this.driver.query(
        `UPDATE ${TABLE[layer]} SET access_count = access_count + 1, ${lastUsed} = $2
         WHERE id = ANY($1::uuid[])`,
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
              ? `DELETE FROM ${TABLE[layer]} WHERE id = $1 RETURNING id`
              : `UPDATE ${TABLE[layer]} SET status = 'archived' WHERE id = $1 RETURNING id`;
          const rows = await tx.query(sql, [id]);
          if (rows.length > 0) {
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
