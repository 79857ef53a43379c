import type { Logger } from "../../core/ports.js";
import type { SqlDriver } from "./executor.js";
import { SqlStorage } from "./sql-storage.js";

export interface StoreLocation {
  databaseUrl?: string | undefined;
  /** PostgreSQL schema for the tables; default: the connection's search_path. */
  databaseSchema?: string | undefined;
  /** Embedded store directory; the caller must own it (see multiprocess/shared-directory). */
  dataDir: string;
  /** PostgreSQL: how long a statement or a new connection may take. */
  databaseTimeoutMs?: number | undefined;
  /** PostgreSQL: how long opening waits for a server not accepting connections yet. */
  databaseWaitMs?: number | undefined;
  /** PostgreSQL: statements prepared under a name on each connection (default true). */
  databasePreparedStatements?: boolean | undefined;
  /** Embedded store: its buffer pool in MB, whatever the process (default: see OpenOptions). */
  pgliteBuffersMb?: number | undefined;
}

/**
 * Opens PostgreSQL when a URL is given, else the embedded store, and says loudly which: a
 * misspelt DATABASE_URL silently landing in an embedded database is a known way to lose data.
 */
export interface OpenOptions {
  /**
   * This process opens the store for one command and exits (a one-shot CLI call): the
   * embedded database starts with a small buffer pool (see ONE_SHOT_BUFFERS_MB), where any
   * other process gets one sized to the store (see pglite-buffers).
   */
  oneShot?: boolean | undefined;
}

export async function openStorage(
  location: StoreLocation,
  logger: Logger,
  options: OpenOptions = {},
): Promise<SqlStorage> {
  return new SqlStorage(await openDriver(location, logger, options));
}

/**
 * The database itself, for work below the memory store (re-embedding, see reembed): no
 * migration has run and no embedder has been checked yet.
 */
export async function openDriver(
  location: StoreLocation,
  logger: Logger,
  options: OpenOptions = {},
): Promise<SqlDriver> {
  if (location.databaseUrl) {
    const { openPostgres } = await import("./postgres.js");
    const driver = await openPostgres({
      connectionString: location.databaseUrl,
      schema: location.databaseSchema,
      ...(location.databaseTimeoutMs === undefined
        ? {}
        : { timeoutMs: location.databaseTimeoutMs }),
      waitMs: location.databaseWaitMs,
      preparedStatements: location.databasePreparedStatements,
      logger,
    });
    logger.info(`using PostgreSQL store ${driver.description.slice("postgres:".length)}`);
    return driver;
  }
  const { openPGlite, ONE_SHOT_BUFFERS_MB } = await import("./pglite.js");
  const driver = await openPGlite({
    dataDir: location.dataDir,
    logger,
    sharedBuffersMb:
      location.pgliteBuffersMb ?? (options.oneShot ? ONE_SHOT_BUFFERS_MB : undefined),
  });
  logger.info(
    `using embedded PGlite store at ${location.dataDir} (set DATABASE_URL for PostgreSQL)`,
  );
  return driver;
}
