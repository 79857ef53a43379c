import { ErrorCode, HindsightError } from "../../core/errors.js";
import type { EmbedderIdentity, MigrationReport } from "../../core/ports.js";
import type { SqlDriver, SqlExecutor } from "./executor.js";
import { MIGRATIONS, type Migration } from "./migrations.js";
import { mismatchAdvice } from "./reembed-hint.js";
import {
  EMBEDDER_META_KEYS,
  embeddersOf,
  type RecordedEmbedders,
  recordedEmbedders,
} from "./reembed-meta.js";
import { tablesPresent } from "./schema-tables.js";

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
  const current = await upToDate(driver, embedder, migrations);
  if (current) return current;
  return driver.transaction(async (tx) => {
    await prepare(tx);
    checkEmbedder(await recordedEmbedders(tx), embedder);
    return applyMigrations(tx, embedder, migrations);
  });
}

/**
 * The one open that accepts a store built for another embedder, for re-embedding it: pending
 * migrations are applied with the dimension the store was built with (a new store is built
 * for `configured`). Returns the embedder the stored vectors come from.
 */
export async function migrateForReembed(
  driver: SqlDriver,
  configured: EmbedderIdentity,
): Promise<MigrationReport & { built: EmbedderIdentity }> {
  return driver.transaction(async (tx) => {
    await prepare(tx);
    const built = (await recordedEmbedders(tx)).built ?? configured;
    return { ...(await applyMigrations(tx, built, MIGRATIONS)), built };
  });
}

/**
 * The report of a store that has every migration and records its embedder, read in two
 * statements without a transaction or the lock: every process opens the store, and most find
 * nothing to do (a one-shot CLI call spent 24–33 ms on the locked path's eight statements).
 * Anything else — a new store, a pending migration, a store that records no embedder yet —
 * takes the locked path, which reads it all again. A mismatched embedder fails here as there.
 */
async function upToDate(
  db: SqlExecutor,
  embedder: EmbedderIdentity,
  migrations: readonly Migration[],
): Promise<MigrationReport | undefined> {
  if (!(await tablesPresent(db, ["hindsight_migrations", "hindsight_meta"]))) return undefined;
  const [state] = await db.query<{ versions: number[]; meta: Record<string, string> }>(
    `SELECT (SELECT coalesce(array_agg(version), '{}') FROM hindsight_migrations) AS versions,
            (SELECT coalesce(json_object_agg(key, value), '{}') FROM hindsight_meta
              WHERE key = ANY($1::text[])) AS meta`,
    [EMBEDDER_META_KEYS],
  );
  if (!state) return undefined;
  const done = new Set(state.versions);
  if (!migrations.every((migration) => done.has(migration.version))) return undefined;
  const recorded = embeddersOf(new Map(Object.entries(state.meta)));
  if (recorded.built === undefined) return undefined;
  checkEmbedder(recorded, embedder);
  return { applied: [], current: Math.max(0, ...done) };
}

async function prepare(tx: SqlExecutor): Promise<void> {
  await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
  // The one table that has to exist before versions can be read.
  await tx.exec(`CREATE TABLE IF NOT EXISTS hindsight_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
}

async function applyMigrations(
  tx: SqlExecutor,
  embedder: EmbedderIdentity,
  migrations: readonly Migration[],
): Promise<MigrationReport> {
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
}

function checkEmbedder(recorded: RecordedEmbedders, embedder: EmbedderIdentity): void {
  const { built } = recorded;
  if (built === undefined) return;
  if (built.id === embedder.id && built.dimensions === embedder.dimensions) return;
  throw new HindsightError(
    ErrorCode.EMBEDDER_MISMATCH,
    `this database was built with embedder '${built.id}' (${built.dimensions} dimensions) ` +
      `but '${embedder.id}' (${embedder.dimensions} dimensions) is configured; ` +
      mismatchAdvice(recorded, embedder),
    {
      details: {
        stored: { embedder_id: built.id, embedder_dimensions: String(built.dimensions) },
        configured: { id: embedder.id, dimensions: embedder.dimensions },
        ...(recorded.reembedding ? { reembedding: recorded.reembedding } : {}),
      },
    },
  );
}
