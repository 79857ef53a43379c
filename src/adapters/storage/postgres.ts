/**
 * PostgreSQL + pgvector through a `pg` pool: the production store.
 */
import { createHash } from "node:crypto";
import type { PoolClient, QueryConfig } from "pg";
import type { Exclusive } from "../../core/lifecycle/ports.js";
import type { Logger } from "../../core/ports.js";
import { waitForPostgres } from "./connect-retry.js";
import {
  isStalePlan,
  MAX_PREPARED_PARAMETERS,
  type SqlDriver,
  type SqlExecutor,
} from "./executor.js";
import { ADVISORY_KEY_SQL, inProcessExclusive } from "./job-lock.js";
import { SEARCH_SETTINGS } from "./search-settings.js";

export interface PostgresOptions {
  connectionString: string;
  /** A schema of its own for hindsight's tables (created when missing), e.g. one per tenant. */
  schema?: string | undefined;
  maxConnections?: number;
  /**
   * How long a statement, or getting a connection, may take (default 60 s). A server that
   * stops answering (SIGSTOP, a partition) hung every request for good; now each fails with
   * STORAGE_FAILED, and the connection it waited on is discarded.
   */
  timeoutMs?: number;
  /**
   * How long opening waits for a server that does not accept connections yet (starting up,
   * not listening, not resolvable yet); default 0: no wait. See connect-retry.
   */
  waitMs?: number | undefined;
  /**
   * Statements outside transactions run prepared under a name on each connection, so the
   * server parses them once and can keep their plan (default true). A pooler that does not
   * keep them (PgBouncer before 1.21 in transaction mode) is noticed and they run unnamed
   * from then on; false runs them unnamed from the start. See namedStatements.
   */
  preparedStatements?: boolean | undefined;
  logger: Logger;
}

/** The URL without its password, for logs and stats. */
export function redactUrl(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return "postgres (unparseable URL)";
  }
}

interface Queryable {
  query(sql: string | QueryConfig, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

function executor(client: Queryable): SqlExecutor {
  return {
    query: async <T>(sql: string, params: readonly unknown[] = []) =>
      (await client.query(sql, [...params])).rows as T[],
    exec: async (sql: string) => {
      await client.query(sql);
    },
  };
}

/**
 * How many statement texts get a name; later ones run unnamed. The service sends a few dozen
 * shapes; this bounds what each connection keeps if a caller builds statements of its own.
 */
const MAX_NAMED_STATEMENTS = 500;

/**
 * SQLSTATEs that mean a named statement is not on the server connection a pooler gave this
 * statement, raised before it ran: 26000, it does not exist (another server connection);
 * 42P05, one of that name exists already (another client's server connection).
 */
const NAME_LOST = new Set(["26000", "42P05"]);

/**
 * Runs statements prepared under a name derived from the schema and the text, so that the
 * server parses each once per connection and, for statements written to be planned alike for
 * any values (executor's unplannedArray), keeps one plan: recall's statements cost a quarter
 * less (docs/benchmarks.md). pg prepares a name on a connection the first time it runs there.
 * When the server reports a name lost, the statement, which has not run, runs again unnamed;
 * a pooler that does not keep names turns naming off for the process, with one warning, and a
 * statement whose columns changed is named afresh.
 */
function namedStatements(schema: string, enabled: boolean, logger: Logger) {
  let naming = enabled;
  let generation = 0;
  const names = new Map<string, string>();
  const nameOf = (sql: string): string | undefined => {
    let name = names.get(sql);
    if (name === undefined) {
      if (names.size >= MAX_NAMED_STATEMENTS) return undefined;
      name = `h${generation}_${createHash("sha256").update(schema).update("\0").update(sql).digest("base64url").slice(0, 24)}`;
      names.set(sql, name);
    }
    return name;
  };
  return async <T>(client: Queryable, sql: string, params: readonly unknown[]): Promise<T[]> => {
    const name = naming && params.length <= MAX_PREPARED_PARAMETERS ? nameOf(sql) : undefined;
    if (name === undefined) return (await client.query(sql, [...params])).rows as T[];
    try {
      return (await client.query({ name, text: sql, values: [...params] })).rows as T[];
    } catch (error) {
      const code = String((error as { code?: unknown }).code);
      if (isStalePlan(error)) {
        // Columns changed under it (another process migrated): named afresh from now on.
        generation++;
        names.clear();
      } else if (!NAME_LOST.has(code)) {
        throw error;
      } else if (naming) {
        naming = false;
        logger.warn(
          "the PostgreSQL connection does not keep prepared statements (a pooler in transaction mode?): running statements unnamed; set HINDSIGHT_DB_PREPARED_STATEMENTS=false to start so",
          { code },
        );
      }
      return (await client.query(sql, [...params])).rows as T[];
    }
  };
}

/**
 * Returns a client to the pool, or discards it when its connection broke: a client handed out
 * again after the server restarted would fail the next request too.
 */
function releaseAfter(client: PoolClient, failure: Error | undefined): void {
  client.release(failure !== undefined && !isQueryError(failure) ? failure : undefined);
}

/** An error the server reported for a statement (it has a SQLSTATE); the connection is fine. */
function isQueryError(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  return (
    typeof code === "string" &&
    /^[0-9A-Z]{5}$/.test(code) &&
    !code.startsWith("57P") &&
    !code.startsWith("08")
  );
}

/**
 * Creates the schema before the pool points its search_path at it: tables created with a
 * search_path whose first schema is missing would land in the next one (public), mixed
 * with others' tables. Returns the schema pgvector's types live in, quoted as an identifier.
 */
async function createSchema(
  pg: typeof import("pg").default,
  connectionString: string,
  schema: string,
): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`unsafe schema name ${schema}`);
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    // pgvector belongs in the connection's own schema (public, or the first of the search_path
    // a DATABASE_URL sets), not in the first tenant schema that happens to migrate.
    for (const statement of [
      "CREATE EXTENSION IF NOT EXISTS vector",
      `CREATE SCHEMA IF NOT EXISTS ${schema}`,
    ]) {
      try {
        await client.query(statement);
      } catch (error) {
        // Two processes creating it at once: the loser sees a unique violation; it exists.
        if ((error as { code?: string }).code !== "23505") throw error;
      }
    }
    const { rows } = await client.query<{ schema: string }>(
      `SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'vector'`,
    );
    return rows[0]?.schema ?? "public";
  } finally {
    await client.end();
  }
}

/**
 * One pool per database (connection string and limits) for the whole process, shared by every
 * tenant's store: each tenant's schema is set on a connection when it is checked out for that
 * tenant. A pool per tenant let six busy tenants take 60 connections and exhaust the server's
 * max_connections; now the process never holds more than `maxConnections` however many
 * tenants it serves.
 */
interface SharedPool {
  pool: import("pg").Pool;
  users: number;
  /** The schema each connection's search_path is set to ("" for the connection's default). */
  schemaOf: WeakMap<PoolClient, string>;
}

const POOLS = new Map<string, SharedPool>();

function sharedPool(
  pg: typeof import("pg").default,
  options: PostgresOptions,
  timeoutMs: number,
): { shared: SharedPool; release: () => Promise<void> } {
  const max = options.maxConnections ?? 10;
  const key = JSON.stringify([options.connectionString, max, timeoutMs]);
  let shared = POOLS.get(key);
  if (!shared) {
    const pool = new pg.Pool({
      connectionString: options.connectionString,
      max,
      connectionTimeoutMillis: timeoutMs,
      // Client-side: a frozen server never answers, so a server-side statement_timeout alone
      // would wait forever too.
      query_timeout: timeoutMs,
    });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    pool.on("error", (error) =>
      options.logger.warn("postgres connection error", { error: error.message }),
    );
    shared = { pool, users: 0, schemaOf: new WeakMap() };
    POOLS.set(key, shared);
  }
  shared.users++;
  const owned = shared;
  let released = false;
  return {
    shared: owned,
    release: async () => {
      if (released) return;
      released = true;
      owned.users--;
      if (owned.users === 0) {
        POOLS.delete(key);
        await owned.pool.end();
      }
    },
  };
}

export async function openPostgres(options: PostgresOptions): Promise<SqlDriver> {
  // Loaded on demand so the embedded path never loads the network driver.
  const { default: pg } = await import("pg");
  const timeoutMs = options.timeoutMs ?? 60_000;
  await waitForPostgres(pg, options.connectionString, {
    waitMs: options.waitMs ?? 0,
    attemptTimeoutMs: timeoutMs,
    logger: options.logger,
  });
  const vectorSchema = options.schema
    ? await createSchema(pg, options.connectionString, options.schema)
    : undefined;
  const { shared, release } = sharedPool(pg, options, timeoutMs);
  const { pool, schemaOf } = shared;
  const description = `postgres:${redactUrl(options.connectionString)}${options.schema ? ` schema ${options.schema}` : ""}`;
  // Every client gets the search settings once, before its first query, and the search_path
  // of the tenant it is checked out for whenever that changes — set here rather than as a
  // connection option, which a DATABASE_URL's own `options` would override; RESET goes back to
  // the connection's own default. pgvector's types stay reachable in their own schema (public,
  // unless the DATABASE_URL's search_path put them elsewhere).
  const wanted = options.schema ?? "";
  const searchPath = options.schema
    ? `SET search_path TO ${options.schema}, ${vectorSchema}`
    : "RESET search_path";
  const checkout = async (): Promise<PoolClient> => {
    const client = await pool.connect();
    const current = schemaOf.get(client);
    if (current === wanted) return client;
    try {
      if (current === undefined) {
        // The pool listens for errors only on idle clients. A connection dying while a client
        // is checked out (the server restarting) is reported to the running query as well, so
        // the event itself only needs logging; without a listener it would crash the process.
        client.on("error", (error) =>
          options.logger.warn("postgres connection lost", { error: error.message }),
        );
        await client.query(`${searchPath}; ${SEARCH_SETTINGS}`);
      } else {
        await client.query(searchPath);
      }
    } catch (error) {
      schemaOf.delete(client);
      client.release(error as Error);
      throw error;
    }
    schemaOf.set(client, wanted);
    return client;
  };
  const named = namedStatements(wanted, options.preparedStatements ?? true, options.logger);
  const inProcess = inProcessExclusive();
  // A session lock on a connection of its own, held while `fn` works on others.
  async function advisoryExclusive<T>(
    job: string,
    wait: boolean,
    fn: () => Promise<T>,
  ): Promise<Exclusive<T>> {
    const client = await checkout();
    let broken: Error | undefined;
    try {
      if (wait) {
        await client.query(`SELECT pg_advisory_lock(${ADVISORY_KEY_SQL})`, [job]);
      } else {
        const { rows } = await client.query<{ locked: boolean }>(
          `SELECT pg_try_advisory_lock(${ADVISORY_KEY_SQL}) AS locked`,
          [job],
        );
        if (!rows[0]?.locked) return { ran: false } as Exclusive<T>;
      }
      try {
        return { ran: true, value: await fn() } as Exclusive<T>;
      } finally {
        // A connection that cannot unlock is closed, which releases the lock.
        await client
          .query(`SELECT pg_advisory_unlock(${ADVISORY_KEY_SQL})`, [job])
          .catch((error: Error) => {
            broken = error;
          });
      }
    } finally {
      client.release(broken);
    }
  }

  const withClient = async <T>(fn: (client: PoolClient) => Promise<T>): Promise<T> => {
    const client = await checkout();
    let failure: Error | undefined;
    try {
      return await fn(client);
    } catch (error) {
      failure = error as Error;
      throw error;
    } finally {
      releaseAfter(client, failure);
    }
  };
  return {
    description,
    query: (sql, params = []) => withClient((client) => named(client, sql, params)),
    exec: (sql) => withClient((client) => executor(client).exec(sql)),
    embedded: false,
    transaction: async (fn) => {
      const client = await checkout();
      let failure: Error | undefined;
      try {
        await client.query("BEGIN");
        const result = await fn(executor(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        failure = error as Error;
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        releaseAfter(client, failure);
      }
    },
    // This process's own calls queue in memory first: a non-waiting call made in the same
    // tick as a holder's is refused at once rather than racing it to the server on another
    // connection, and waiters do not each hold a pooled connection while they wait. The
    // advisory lock then excludes other processes on the same database and schema.
    exclusive: async <T>(job: string, wait: boolean, fn: () => Promise<T>) => {
      const outcome = await inProcess(job, wait, () => advisoryExclusive(job, wait, fn));
      return outcome.ran ? outcome.value : outcome;
    },
    close: release,
  };
}
