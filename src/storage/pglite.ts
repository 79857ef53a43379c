/**
 * Embedded PostgreSQL (PGlite, WebAssembly) with pgvector: the zero-setup default.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "../core/ports.js";
import type { SqlDriver, SqlExecutor } from "./executor.js";
import { inProcessExclusive } from "./job-lock.js";
import { SEARCH_SETTINGS } from "./search-settings.js";

export interface PGliteOptions {
  /**
   * A directory, or `memory://` for a throw-away in-memory database. PGlite has no lock
   * between processes: the caller must own the directory (see embedded/shared-memory).
   */
  dataDir: string;
  logger: Logger;
}

export const IN_MEMORY = "memory://";

interface PGliteLike {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  exec(sql: string): Promise<unknown>;
  transaction<T>(fn: (tx: PGliteTx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
type PGliteTx = Pick<PGliteLike, "query" | "exec">;

function executor(db: PGliteTx): SqlExecutor {
  return {
    query: async <T>(sql: string, params: readonly unknown[] = []) =>
      (await db.query<T>(sql, [...params])).rows,
    exec: async (sql: string) => {
      await db.exec(sql);
    },
  };
}

export async function openPGlite(options: PGliteOptions): Promise<SqlDriver> {
  const inMemory = options.dataDir === IN_MEMORY;
  if (!inMemory) await mkdir(options.dataDir, { recursive: true });
  // Loaded on demand so the PostgreSQL path never loads WebAssembly.
  const [{ PGlite }, { vector }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite-pgvector"),
  ]);
  const db = (await PGlite.create({
    ...(inMemory ? {} : { dataDir: join(options.dataDir, "pglite") }),
    extensions: { vector },
  })) as unknown as PGliteLike;
  await db.exec(SEARCH_SETTINGS);
  return {
    description: inMemory ? "pglite:memory" : `pglite:${options.dataDir}`,
    ...executor(db),
    transaction: (fn) => db.transaction((tx) => fn(executor(tx))),
    exclusive: inProcessExclusive(),
    close: () => db.close(),
  };
}
