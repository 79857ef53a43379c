/**
 * Embedded PostgreSQL (PGlite, WebAssembly) with pgvector: the zero-setup default.
 */
import { join } from "node:path";
import type { Logger } from "../../core/ports.js";
import type { SqlDriver, SqlExecutor } from "./executor.js";
import { inProcessExclusive } from "./job-lock.js";
import { bufferPoolMb, DEFAULT_BUFFERS_MB, storeBytes } from "./pglite-buffers.js";
import {
  type PGliteProtocolHost,
  type PreparedQueries,
  preparedQueries,
} from "./pglite-statements.js";
import { statisticsKeeper } from "./pglite-statistics.js";
import { ensurePrivateDirectory, isShared, makeTreePrivate } from "./private-dir.js";
import { SEARCH_SETTINGS } from "./search-settings.js";

export interface PGliteOptions {
  /**
   * A directory, or `memory://` for a throw-away in-memory database. PGlite has no lock
   * between processes: the caller must own the directory (see multiprocess/shared-directory).
   */
  dataDir: string;
  logger: Logger;
  /**
   * How often files PGlite has created since are made private while it is open (default 30 s;
   * it writes them 0666). They are inside the 0700 directory meanwhile, out of other users'
   * reach; this keeps the files themselves at 0600 too.
   */
  privateSweepMs?: number;
  /**
   * PostgreSQL's shared buffer pool in MB (default: sized to the store, see pglite-buffers;
   * 128 MB in memory). In WebAssembly the pool is set up in the module's memory at every
   * start, ~1.5 ms a MB on a 2-core machine: a process that runs one command reads a few pages
   * and is better served by a small one (see ONE_SHOT_BUFFERS_MB). Pages that do not fit are
   * read again from the files.
   */
  sharedBuffersMb?: number | undefined;
}

/**
 * The buffer pool of a process that opens the store for one command and exits: room for the
 * pages one recall walks in a large store (HNSW neighbours, the keyword index, the winners'
 * rows), ~90 ms less to start than PostgreSQL's 128 MB and ~110 MB less memory.
 */
export const ONE_SHOT_BUFFERS_MB = 16;

export const IN_MEMORY = "memory://";

/** What this driver uses of a PGlite instance (pglite-statements takes the protocol side). */
interface PGliteLike extends PGliteProtocolHost {
  exec(sql: string): Promise<unknown>;
  transaction<T>(fn: (tx: PGliteTx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
type PGliteTx = Pick<PGliteLike, "exec"> & { readonly closed?: boolean };

/**
 * Statements go through the prepared path (pglite-statements); scripts of several statements
 * through PGlite's own `exec`. A transaction's executor refuses to run once it has ended, as
 * PGlite's does: it would otherwise run outside the transaction lock.
 */
function executor(db: PGliteTx, statements: PreparedQueries, inTransaction: boolean): SqlExecutor {
  return {
    query: async <T>(sql: string, params: readonly unknown[] = []) => {
      if (db.closed) throw new Error(inTransaction ? "Transaction is closed" : "PGlite is closed");
      return statements.query<T>(sql, params, inTransaction);
    },
    exec: async (sql: string) => {
      await db.exec(sql);
    },
  };
}

export async function openPGlite(options: PGliteOptions): Promise<SqlDriver> {
  const inMemory = options.dataDir === IN_MEMORY;
  if (!inMemory) await ensurePrivateDirectory(options.dataDir, { field: "HINDSIGHT_DATA_DIR" });
  // Loaded on demand so the PostgreSQL path never loads WebAssembly.
  const [{ PGlite, protocol, types }, { vector }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite-pgvector"),
  ]);
  const pgliteDir = join(options.dataDir, "pglite");
  // A store made before its files were private, once; a new one is swept at its first close.
  const madeShared = !inMemory && (await isShared(pgliteDir));
  const sharedBuffersMb =
    options.sharedBuffersMb ??
    (inMemory ? DEFAULT_BUFFERS_MB : bufferPoolMb(storeBytes(pgliteDir)));
  const db = (await PGlite.create({
    ...(inMemory ? {} : { dataDir: pgliteDir }),
    extensions: { vector },
    ...(sharedBuffersMb === DEFAULT_BUFFERS_MB
      ? {}
      : {
          startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffersMb}MB`],
        }),
  })) as unknown as PGliteLike;
  await db.exec(SEARCH_SETTINGS);
  const statements = preparedQueries(db, protocol, types.parseType);
  const statistics = statisticsKeeper(
    { query: (sql) => statements.query(sql, [], false), exec: (sql) => db.exec(sql) },
    options.logger,
  );
  let closing = false;
  /** Top-level work, counted once it has finished (a transaction counts once). */
  const counted = async <T>(work: Promise<T>): Promise<T> => {
    try {
      return await work;
    } finally {
      if (!closing) statistics.finished();
    }
  };
  const topLevel = executor(db, statements, false);
  // PGlite writes its files 0666 whatever the umask. The data directory is 0700, which keeps
  // other users out; the files are made 0600 too: every privateSweepMs while open and at close
  // (~20 ms for a new store's ~1,000 files, off every answer's path), and at open for a store
  // made before.
  const makePrivate = () => (inMemory ? Promise.resolve() : makeTreePrivate(options.dataDir));
  if (madeShared) await makePrivate();
  const sweep = inMemory
    ? undefined
    : setInterval(() => {
        makePrivate().catch((error: unknown) =>
          options.logger.warn("could not make the store's new files private", {
            error: error instanceof Error ? error.message : String(error),
          }),
        );
      }, options.privateSweepMs ?? 30_000);
  // The sweep must not keep the process alive.
  sweep?.unref();
  return {
    description: inMemory ? "pglite:memory" : `pglite:${options.dataDir}`,
    query: (sql, params) => counted(topLevel.query(sql, params)),
    exec: (sql) => counted(topLevel.exec(sql)),
    transaction: (fn) => counted(db.transaction((tx) => fn(executor(tx, statements, true)))),
    embedded: true,
    exclusive: inProcessExclusive(),
    close: async () => {
      clearInterval(sweep);
      closing = true;
      await statistics.settled();
      await db.close();
      await makePrivate();
    },
  };
}
