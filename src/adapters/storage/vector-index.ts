/**
 * The HNSW indexes on the memories' vectors: built in memory sized to them, and on the
 * embedded store left out while a bulk import fills an empty table, then built once.
 *
 * On PGlite a row's HNSW insert runs in WebAssembly and is two thirds of a write (~270 rows/s,
 * docs/benchmarks.md); building the index after the load is ~3× faster than inserting into
 * it. A PostgreSQL server inserts natively, and other processes search its tables while an
 * import runs, so there the index always stays.
 */
import { LAYERS, type MemoryLayer } from "../../core/types.js";
import type { SqlDriver, SqlExecutor } from "./executor.js";
import { TABLE } from "./rows.js";

/** The indexes a fresh store has (migrations, version 1), by these names. */
const VECTOR_INDEX: Record<MemoryLayer, string> = {
  episodic: "episodic_embedding_idx",
  semantic: "semantic_embedding_idx",
};

/**
 * The memory an HNSW index of `rows` vectors is built in. pgvector builds the graph in
 * `maintenance_work_mem` and, once it is full, goes on inserting vector by vector, which is
 * slower: 40 000 vectors of 384 dimensions built in 26 s with PostgreSQL's default 64 MB (full
 * after 28 366) and in 15 s with room for all; on PGlite in 45 s and 24 s (docs/benchmarks.md).
 * A graph takes the vector and up to 0.7 kB of neighbour lists a row (where pgvector reported
 * the memory full: 2.37 kB a 384-dimension row on PostgreSQL, 2.1 kB on PGlite's 32-bit
 * WebAssembly), plus a tenth to spare. Capped at 512 MB, ~210 000 such rows: PGlite's whole
 * heap is 2 GB, its buffer pool included.
 */
export function hnswBuildBytes(rows: number, dimensions: number): number {
  return Math.min(512 * 2 ** 20, Math.ceil(rows * (dimensions * 4 + 700) * 1.1));
}

/**
 * Gives an index build on `layer`'s table, in the caller's transaction, the memory its graph
 * takes (`set_config(…, true)`, as SET LOCAL); a larger setting of the operator's is kept.
 */
export async function sizeBuildMemory(tx: SqlExecutor, layer: MemoryLayer): Promise<void> {
  const [shape] = await tx.query<{ rows: number; dimensions: number | null }>(
    `SELECT count(*)::int AS rows, (SELECT vector_dims(embedding) FROM ${TABLE[layer]} LIMIT 1) AS dimensions
     FROM ${TABLE[layer]}`,
  );
  await tx.query(
    `SELECT set_config('maintenance_work_mem',
       (GREATEST(pg_size_bytes(current_setting('maintenance_work_mem')), $1::bigint) / 1024)::bigint || 'kB',
       true)`,
    [hnswBuildBytes(shape?.rows ?? 0, shape?.dimensions ?? 0)],
  );
}

/** The layers whose vector index is missing: left out by an import that did not finish. */
async function missingIndexes(db: SqlExecutor): Promise<MemoryLayer[]> {
  const [row] = await db.query<Record<MemoryLayer, boolean>>(
    `SELECT ${LAYERS.map((layer) => `to_regclass('${VECTOR_INDEX[layer]}') IS NULL AS ${layer}`).join(", ")}`,
  );
  return LAYERS.filter((layer) => row?.[layer] === true);
}

async function buildIndex(driver: SqlDriver, layer: MemoryLayer): Promise<void> {
  await driver.transaction(async (tx) => {
    await sizeBuildMemory(tx, layer);
    await tx.exec(
      `CREATE INDEX IF NOT EXISTS ${VECTOR_INDEX[layer]} ON ${TABLE[layer]}
       USING hnsw (embedding vector_cosine_ops)`,
    );
  });
}

/** Builds the vector indexes an interrupted bulk import left out (see BulkImports). */
export async function repairVectorIndexes(driver: SqlDriver): Promise<void> {
  for (const layer of await missingIndexes(driver)) await buildIndex(driver, layer);
}

/**
 * The embedded store's bulk imports. An import batch that brings a layer more memories than
 * its table holds (a restore into a new store) drops that layer's vector index, in the batch's
 * own transaction; the next batches write without it, and the index is built once, when it
 * is next needed: before a recall, when the store closes, or after `idleMs` without another
 * import batch. Meanwhile other reads of the vectors (a near-duplicate check) search the
 * table exactly instead of through the index: slower, never wrong. Should the process die
 * first, the next open builds it (`repairVectorIndexes`).
 */
export class BulkImports {
  private readonly deferred = new Set<MemoryLayer>();
  private idle: ReturnType<typeof setTimeout> | undefined;
  private building: Promise<void> = Promise.resolve();

  /**
   * `idleMs`: longer than an import takes to embed its next batch (~5 s for 500 memories
   * with the local model on 2 cores), so that an import without vectors keeps its gain.
   */
  constructor(
    private readonly driver: SqlDriver,
    private readonly idleMs = 30_000,
  ) {}

  /**
   * In an import batch's transaction, before it writes `incoming` memories of `layer`: drops
   * the layer's vector index when they outnumber the table's. Returns whether it did; the
   * caller reports it with `committed` once the transaction has.
   */
  async beforeWrite(tx: SqlExecutor, layer: MemoryLayer, incoming: number): Promise<boolean> {
    if (incoming === 0) return false;
    // Counted up to `incoming` only: a batch into a large store reads no more rows than it brings.
    const [row] = await tx.query<{ present: boolean; rows: number }>(
      `SELECT to_regclass('${VECTOR_INDEX[layer]}') IS NOT NULL AS present,
              (SELECT count(*)::int FROM (SELECT 1 FROM ${TABLE[layer]} LIMIT $1) held) AS rows`,
      [incoming],
    );
    if (!row?.present || row.rows >= incoming) return false;
    await tx.exec(`DROP INDEX ${VECTOR_INDEX[layer]}`);
    return true;
  }

  /** After an import batch's transaction committed: the indexes it dropped wait to be built. */
  committed(dropped: readonly MemoryLayer[]): void {
    for (const layer of dropped) this.deferred.add(layer);
    if (this.deferred.size === 0) return;
    clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      this.ready().catch(() => undefined); // tried again by the next recall or at close
    }, this.idleMs);
    // The wait must not keep a process alive: closing builds what is left.
    this.idle.unref();
  }

  /** Whether an index waits to be built. */
  get pending(): boolean {
    return this.deferred.size > 0;
  }

  /** Resolves once every index left out is built (at once when none is). */
  ready(): Promise<void> {
    if (!this.pending) return Promise.resolve();
    clearTimeout(this.idle);
    this.building = this.building
      .catch(() => undefined)
      .then(async () => {
        for (const layer of [...this.deferred]) {
          await buildIndex(this.driver, layer);
          this.deferred.delete(layer);
        }
      });
    return this.building;
  }
}
