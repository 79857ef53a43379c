/**
 * The embedders a store records in hindsight_meta: the one its vectors come from, and the
 * target of a re-embedding that has started and not finished (see reembed).
 */
import type { EmbedderIdentity } from "../../core/ports.js";
import type { SqlExecutor } from "./executor.js";
import { tablesPresent } from "./schema-tables.js";

export const BUILT_META = { id: "embedder_id", dimensions: "embedder_dimensions" } as const;
export const REEMBED_META = {
  id: "reembed_embedder_id",
  dimensions: "reembed_embedder_dimensions",
} as const;

export interface RecordedEmbedders {
  /** The embedder every stored vector comes from; absent before the first migration. */
  built?: EmbedderIdentity;
  /** The target of a re-embedding under way. */
  reembedding?: EmbedderIdentity;
}

/** The keys of hindsight_meta that name embedders. */
export const EMBEDDER_META_KEYS = [
  BUILT_META.id,
  BUILT_META.dimensions,
  REEMBED_META.id,
  REEMBED_META.dimensions,
] as const;

export async function recordedEmbedders(db: SqlExecutor): Promise<RecordedEmbedders> {
  // This schema's table only: `public` may hold another store's, built with another embedder.
  if (!(await tablesPresent(db, ["hindsight_meta"]))) return {};
  const rows = await db.query<{ key: string; value: string }>(
    "SELECT key, value FROM hindsight_meta WHERE key = ANY($1::text[])",
    [EMBEDDER_META_KEYS],
  );
  return embeddersOf(new Map(rows.map((row) => [row.key, row.value])));
}

/** The embedders named by hindsight_meta's rows (key → value). */
export function embeddersOf(meta: ReadonlyMap<string, string>): RecordedEmbedders {
  const identity = (keys: { id: string; dimensions: string }) => {
    const id = meta.get(keys.id);
    return id === undefined ? undefined : { id, dimensions: Number(meta.get(keys.dimensions)) };
  };
  const built = identity(BUILT_META);
  const reembedding = identity(REEMBED_META);
  return { ...(built ? { built } : {}), ...(reembedding ? { reembedding } : {}) };
}

/** Records (replacing) an embedder under the given keys. */
export async function recordEmbedder(
  db: SqlExecutor,
  keys: { id: string; dimensions: string },
  embedder: EmbedderIdentity,
): Promise<void> {
  await db.query(
    `INSERT INTO hindsight_meta (key, value) VALUES ($1, $2), ($3, $4)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
    [keys.id, embedder.id, keys.dimensions, String(embedder.dimensions)],
  );
}

export async function forgetReembedTarget(db: SqlExecutor): Promise<void> {
  await db.query("DELETE FROM hindsight_meta WHERE key = ANY($1::text[])", [
    [REEMBED_META.id, REEMBED_META.dimensions],
  ]);
}
