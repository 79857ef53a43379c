import { ErrorCode, HindsightError } from "../core/errors.js";
import type { EmbedderIdentity, MigrationReport } from "../core/ports.js";
import type { SqlDriver, SqlExecutor } from "./executor.js";
import { MIGRATIONS, type Migration } from "./migrations.js";

/** Any constant works; it only has to be the same in every hindsight process. */
const MIGRATION_LOCK_KEY = 0x68696e64; // "hind"

/**
 * Applies pending migrations in one transaction under an advisory lock, so several servers
 * starting against one PostgreSQL migrate once, then checks that the database was built for
 * the configured embedder.
 */
export async function migrate(
  driver: SqlDriver,
  embedder: EmbedderIdentity,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<MigrationReport> {
  return driver.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
    // The one table that has to exist before versions can be read.
    await tx.exec(`CREATE TABLE IF NOT EXISTS hindsight_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    await checkEmbedder(tx, embedder);
    const rows = await tx.query<{ version: number }>("SELECT version FROM hindsight_migrations");
    const done = new Set(rows.map((row) => row.version));
    const applied: number[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      const sql = migration.sql({ dimensions: embedder.dimensions });
      if (sql.trim() !== "") await tx.exec(sql);
      await migration.run?.(tx);
      await tx.query("INSERT INTO hindsight_migrations (version, name) VALUES ($1, $2)", [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    }
    await tx.query(
      `INSERT INTO hindsight_meta (key, value) VALUES ('embedder_id', $1), ('embedder_dimensions', $2)
       ON CONFLICT (key) DO NOTHING`,
      [embedder.id, String(embedder.dimensions)],
    );
    const current = Math.max(0, ...done, ...applied);
    return { applied, current };
  });
}

async function checkEmbedder(tx: SqlExecutor, embedder: EmbedderIdentity): Promise<void> {
  const [exists] = await tx.query<{ present: boolean }>(
    "SELECT to_regclass('hindsight_meta') IS NOT NULL AS present",
  );
  if (!exists?.present) return;
  const rows = await tx.query<{ key: string; value: string }>(
    "SELECT key, value FROM hindsight_meta WHERE key IN ('embedder_id', 'embedder_dimensions')",
  );
  const meta = Object.fromEntries(rows.map((row) => [row.key, row.value]));
  if (meta.embedder_id === undefined) return;
  if (
    meta.embedder_id !== embedder.id ||
    meta.embedder_dimensions !== String(embedder.dimensions)
  ) {
    throw new HindsightError(
      ErrorCode.EMBEDDER_MISMATCH,
      `this database was built with embedder '${meta.embedder_id}' (${meta.embedder_dimensions} dimensions) ` +
        `but '${embedder.id}' (${embedder.dimensions} dimensions) is configured; configure the same ` +
        "embedder (HINDSIGHT_EMBEDDER) or use another data directory / database",
      { details: { stored: meta, configured: embedder } },
    );
  }
}
