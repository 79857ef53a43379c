/**
 * The SQL of re-embedding (see reembed), written once for PGlite and PostgreSQL.
 *
 * New vectors wait in a staging table, created at run time with the new dimension, while the
 * memories keep their old ones: an interrupted run leaves the store as usable as before, and
 * every committed batch is kept for the next run. Each staged vector carries a fingerprint of
 * the text it was computed from, so a memory whose text changed since (a merge) counts as not
 * staged. The switch to the new vectors is one transaction at the end.
 */

import { ErrorCode, HindsightError } from "../../core/errors.js";
import { EMBEDDED_FIELDS, type EmbeddedFields } from "../../core/memories/embedding-text.js";
import type { EmbedderIdentity } from "../../core/ports.js";
import { LAYERS, type MemoryLayer } from "../../core/types.js";
import { type SqlExecutor, toVectorLiteral } from "./executor.js";
import {
  BUILT_META,
  forgetReembedTarget,
  REEMBED_META,
  recordEmbedder,
  recordedEmbedders,
} from "./reembed-meta.js";
import type { ReembedState } from "./reembed-plan.js";
import { TABLE } from "./rows.js";
import { tablesPresent } from "./schema-tables.js";
import { sizeBuildMemory } from "./vector-index.js";

export const STAGING_TABLE = "hindsight_reembed";

/** The fingerprint of a memory `m`'s embedded text, computed by the database from its fields. */
function fingerprintOf(layer: MemoryLayer): string {
  return `md5(ROW(${EMBEDDED_FIELDS[layer].map((field) => `m.${field}`).join(", ")})::text)`;
}

/**
 * Whether this store's schema holds a staging table. Looked up in the current schema only: a
 * tenant's search_path also reaches `public`, where another store may be re-embedding.
 */
function stagingPresent(db: SqlExecutor): Promise<boolean> {
  return tablesPresent(db, [STAGING_TABLE]);
}

export async function readState(db: SqlExecutor): Promise<ReembedState> {
  return { ...(await recordedEmbedders(db)), staging: await stagingPresent(db) };
}

/** pgvector's column type for a dimension, checked: it is spliced into DDL. */
function vectorType(target: EmbedderIdentity): string {
  if (!Number.isInteger(target.dimensions) || target.dimensions < 1) {
    throw new HindsightError(
      ErrorCode.CONFIG_INVALID,
      `embedder ${target.id} declares ${target.dimensions} dimensions; expected a positive integer`,
    );
  }
  return `vector(${target.dimensions})`;
}

/**
 * Creates an empty staging table for `target` (in the current schema, where CREATE puts it)
 * and records the target, in the caller's transaction, after discardStaging.
 */
export async function startStaging(tx: SqlExecutor, target: EmbedderIdentity): Promise<void> {
  await tx.exec(`CREATE TABLE ${STAGING_TABLE} (
      layer text NOT NULL CHECK (layer IN ('episodic', 'semantic')),
      id uuid NOT NULL,
      fingerprint text NOT NULL,
      embedding ${vectorType(target)} NOT NULL,
      PRIMARY KEY (layer, id)
    )`);
  await recordEmbedder(tx, REEMBED_META, target);
}

/** Throws an unfinished run away; the memories never depended on it. */
export async function discardStaging(tx: SqlExecutor): Promise<void> {
  // Only this schema's: an unqualified DROP IF EXISTS would find another store's in `public`.
  if (await stagingPresent(tx)) await tx.exec(`DROP TABLE ${STAGING_TABLE}`);
  await forgetReembedTarget(tx);
}

export type PendingMemory<L extends MemoryLayer> = EmbeddedFields<L> & {
  id: string;
  fingerprint: string;
};

/** A memory `m` of the layer with no staged vector for its current text. */
function notStaged(layer: MemoryLayer): string {
  return `NOT EXISTS (SELECT 1 FROM ${STAGING_TABLE} s
    WHERE s.layer = '${layer}' AND s.id = m.id AND s.fingerprint = ${fingerprintOf(layer)})`;
}

/**
 * The next memories to embed, in id order after `after`: walking the primary key once per
 * pass, rather than from the start for every batch, keeps a pass linear in the table.
 */
export function pendingMemories<L extends MemoryLayer>(
  db: SqlExecutor,
  layer: L,
  after: string | undefined,
  limit: number,
): Promise<PendingMemory<L>[]> {
  const fields = EMBEDDED_FIELDS[layer].map((field) => `m.${field}`).join(", ");
  return db.query<PendingMemory<L>>(
    `SELECT m.id, ${fields}, ${fingerprintOf(layer)} AS fingerprint
     FROM ${TABLE[layer]} m
     WHERE ${after === undefined ? "" : "m.id > $2::uuid AND "}${notStaged(layer)}
     ORDER BY m.id LIMIT $1`,
    after === undefined ? [limit] : [limit, after],
  );
}

/** How many memories of a layer a run has left to embed; all of them without staging. */
export async function countPending(
  db: SqlExecutor,
  layer: MemoryLayer,
  staging: boolean,
): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${TABLE[layer]} m${staging ? ` WHERE ${notStaged(layer)}` : ""}`,
  );
  return row?.n ?? 0;
}

export interface StagedVector {
  id: string;
  fingerprint: string;
  embedding: Float32Array;
}

/** Stores a batch of new vectors; a memory staged before (its text changed) is replaced. */
export async function stageVectors(
  db: SqlExecutor,
  layer: MemoryLayer,
  rows: readonly StagedVector[],
): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map((_, i) => `($1, $${3 * i + 2}, $${3 * i + 3}, $${3 * i + 4})`);
  await db.query(
    `INSERT INTO ${STAGING_TABLE} (layer, id, fingerprint, embedding) VALUES ${values.join(", ")}
     ON CONFLICT (layer, id) DO UPDATE
       SET fingerprint = EXCLUDED.fingerprint, embedding = EXCLUDED.embedding`,
    [layer, ...rows.flatMap((row) => [row.id, row.fingerprint, toVectorLiteral(row.embedding)])],
  );
}

/**
 * Keeps every other writer out until the switch commits, so no memory is written with an old
 * vector after the last look for unstaged ones. The switch's ALTER TABLE takes this lock
 * anyway; taking it first avoids upgrading a weaker lock, which can deadlock.
 */
export async function lockMemories(tx: SqlExecutor): Promise<void> {
  await tx.exec(
    `LOCK TABLE ${LAYERS.map((layer) => TABLE[layer]).join(", ")} IN ACCESS EXCLUSIVE MODE`,
  );
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Replaces every memory's vector with its staged one and records the new embedder, in the
 * caller's transaction, once every memory is staged. A vector(d) column has a fixed size, so
 * the column changes type; changing it in place keeps the column where a fresh migration puts
 * it. The indexes on it (HNSW, from the migrations) are dropped first and rebuilt from their
 * own definitions afterwards: one bulk build instead of one graph insertion per row, in memory
 * sized to the graph (`sizeBuildMemory`), and the same index a fresh store of this dimension has.
 */
export async function switchVectors(tx: SqlExecutor, target: EmbedderIdentity): Promise<void> {
  const type = vectorType(target);
  for (const layer of LAYERS) {
    const table = TABLE[layer];
    const indexes = await tx.query<{ name: string; definition: string }>(
      `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i
       JOIN pg_class c ON c.oid = i.indexrelid
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
       WHERE i.indrelid = $1::regclass AND a.attname = 'embedding'
       ORDER BY c.relname`,
      [table],
    );
    for (const index of indexes) await tx.exec(`DROP INDEX ${quoteIdent(index.name)}`);
    await tx.exec(`ALTER TABLE ${table} ALTER COLUMN embedding DROP NOT NULL,
      ALTER COLUMN embedding TYPE ${type} USING NULL`);
    await tx.query(
      `UPDATE ${table} m SET embedding = s.embedding FROM ${STAGING_TABLE} s
       WHERE s.layer = $1 AND s.id = m.id`,
      [layer],
    );
    // Fails, and rolls everything back, should any memory have been left without a vector.
    await tx.exec(`ALTER TABLE ${table} ALTER COLUMN embedding SET NOT NULL`);
    await sizeBuildMemory(tx, layer);
    for (const index of indexes) await tx.exec(index.definition);
  }
  await recordEmbedder(tx, BUILT_META, target);
  await discardStaging(tx);
}
