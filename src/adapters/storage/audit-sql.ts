/** The audit log's SQL (migration 4), shared by PGlite and PostgreSQL. */
import {
  type AuditEntry,
  type AuditLog,
  type AuditQuery,
  type NewAuditEntry,
  withoutContent,
} from "../../core/audit.js";
import type { SqlDriver, SqlExecutor } from "./executor.js";
import { guard } from "./guard.js";

/** All entries in one statement, whatever their number. */
export async function recordAudit(
  db: SqlExecutor,
  entries: readonly NewAuditEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  const rows = entries.map((entry) => ({
    ...entry,
    target: entry.target ?? null,
    details: withoutContent(entry.details),
  }));
  await db.query(
    `INSERT INTO audit_log (at, operation, memory_id, layer, target, reason, details)
     SELECT at, operation, memory_id, layer, target, reason, details FROM jsonb_to_recordset($1::jsonb)
       AS x(at timestamptz, operation text, memory_id uuid, layer text, target text, reason text,
            details jsonb)`,
    [JSON.stringify(rows)],
  );
}

export async function listAudit(db: SqlExecutor, query: AuditQuery): Promise<AuditEntry[]> {
  const rows = await db.query<AuditEntry & { seq: string | number }>(
    `SELECT seq, at, operation, memory_id, layer, target, reason, details FROM audit_log
     WHERE ($1::timestamptz IS NULL OR at >= $1) AND ($2::timestamptz IS NULL OR at < $2)
       AND ($3::text IS NULL OR operation = $3) AND ($4::uuid IS NULL OR memory_id = $4)
       AND ($6::text IS NULL OR target = $6)
     ORDER BY seq DESC LIMIT $5`,
    [
      query.since ?? null,
      query.until ?? null,
      query.operation ?? null,
      query.memory_id ?? null,
      query.limit,
      query.target ?? null,
    ],
  );
  return rows.map((row) => ({ ...row, seq: Number(row.seq), at: new Date(row.at) }));
}

/** The audit log port over SQL. */
export class SqlAuditLog implements AuditLog {
  constructor(private readonly driver: SqlDriver) {}

  list(query: AuditQuery): Promise<AuditEntry[]> {
    return guard("reading the audit log", () => listAudit(this.driver, query));
  }
}
