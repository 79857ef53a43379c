/**
 * Writing memory rows: the columns each layer sets, idempotent multi-row INSERTs, and the
 * planner statistics a growing table needs.
 */
import type { NewEpisodic, NewSemantic } from "../../core/memories/ports.js";
import type { MemoryLayer } from "../../core/types.js";
import { type SqlDriver, toVectorLiteral } from "./executor.js";
import { guard } from "./guard.js";
import { TABLE } from "./rows.js";
import { type CorpusSize, needsAnalyze, termsOf } from "./search-index.js";

/** Rows per INSERT statement: well under PostgreSQL's 65 535 bind parameters. */
export const INSERT_BATCH = 500;

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

export function episodicColumns(row: NewEpisodic): Record<string, unknown> {
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

export function semanticColumns(row: NewSemantic): Record<string, unknown> {
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
export function insertRows(
  table: string,
  rows: readonly Record<string, unknown>[],
): [string, unknown[]] {
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

/**
 * ANALYZE once a table has grown by a fifth. Without statistics the planner estimates a
 * filtered vector search wrongly and scans the whole table instead of the HNSW index. Checked
 * as each batch is written, so a bulk load is analysed while it grows: PostgreSQL's autovacuum
 * catches up only after its nap, and PGlite's driver (pglite-statistics) looks at its tables
 * every 100 statements, where a whole batch counts as one.
 */
export async function refreshPlannerStatistics(
  driver: SqlDriver,
  layer: MemoryLayer,
  size: CorpusSize,
): Promise<void> {
  if (!needsAnalyze(size)) return;
  await guard("refreshing planner statistics", async () => {
    await driver.exec(`ANALYZE ${TABLE[layer]}`);
    await driver.query("UPDATE search_stats SET analyzed_documents = $2 WHERE layer = $1", [
      layer,
      size.documents,
    ]);
  });
}
