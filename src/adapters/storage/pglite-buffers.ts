/**
 * How large the embedded database's buffer pool is: PostgreSQL's own 128 MB holds a store of
 * some 25 000 memories; past that, a recall's pages (the HNSW graph around its vector, the
 * candidates' rows) fall out of the pool and are read again from the files, through
 * WebAssembly's file layer, on every query. At 100 000 memories (~450 MB of tables and
 * indexes) recall took ~3.0× the raw vector query with 128 MB, ~2.4× with 320 MB and ~2.3×
 * with 512 MB (docs/benchmarks.md). The pool is allocated in the module's memory at start
 * (~1.5 ms a MB), so it grows with the store rather than being large for every store.
 */
import { type Dirent, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** PostgreSQL's default, and the least a long-running process gets. */
export const DEFAULT_BUFFERS_MB = 128;
/** Past this the gain is small (512 MB: 2.33× against 2.40× at 320 MB) for much more memory. */
const MAX_AUTO_BUFFERS_MB = 512;
/** Share of the store's files the pool is sized to: the hot part, not the whole history. */
const SHARE_OF_STORE = 0.75;
const MB = 1024 * 1024;

/** The pool for a store whose files take `storeBytes`, in MB, a multiple of 16. */
export function bufferPoolMb(storeBytes: number): number {
  const wanted = Math.ceil((storeBytes * SHARE_OF_STORE) / MB / 16) * 16;
  return Math.min(MAX_AUTO_BUFFERS_MB, Math.max(DEFAULT_BUFFERS_MB, wanted));
}

/**
 * Bytes of the database files under PGlite's `base` directory (tables and indexes, not the
 * write-ahead log); 0 for a directory not made yet. Synchronous on purpose: it runs once while
 * the store opens, before anything is served, and is twice as fast as the promise-per-file walk
 * (~13 ms for a 100 000-memory store's ~1 000 files).
 */
export function storeBytes(pgliteDir: string): number {
  const base = join(pgliteDir, "base");
  let entries: Dirent[];
  try {
    entries = readdirSync(base, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  let bytes = 0;
  for (const entry of entries) {
    if (entry.isFile()) bytes += statSync(join(entry.parentPath, entry.name)).size;
  }
  return bytes;
}
