/**
 * PostgreSQL + pgvector through a `pg` pool: the production store.
 */
import type { PoolClient } from "pg";
import type { Exclusive } from "../core/lifecycle/store-port.js";
import type { Logger } from "../core/ports.js";
import type { SqlDriver, SqlExecutor } from "./executor.js";
import { ADVISORY_KEY_SQL } from "./job-lock.js";
import { SEARCH_SETTINGS } from "./search-settings.js";

export interface PostgresOptions {
  connectionString: string;
  maxConnections?: number;
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
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
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

export async function openPostgres(options: PostgresOptions): Promise<SqlDriver> {
  // Loaded on demand so the embedded path never loads the network driver.
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on("error", (error) =>
    options.logger.warn("postgres connection error", { error: error.message }),
  );
  const description = `postgres:${redactUrl(options.connectionString)}`;
  // Every client gets the search settings once, before its first query.
  const prepared = new WeakSet<PoolClient>();
  const checkout = async (): Promise<PoolClient> => {
    const client = await pool.connect();
    if (!prepared.has(client)) {
      try {
        await client.query(SEARCH_SETTINGS);
      } catch (error) {
        client.release(error as Error);
        throw error;
      }
      prepared.add(client);
    }
    return client;
  };
  const withClient = async <T>(fn: (client: PoolClient) => Promise<T>): Promise<T> => {
    const client = await checkout();
    try {
      return await fn(client);
    } finally {
      client.release();
    }
  };
  return {
    description,
    query: (sql, params) => withClient((client) => executor(client).query(sql, params)),
    exec: (sql) => withClient((client) => executor(client).exec(sql)),
    transaction: async (fn) => {
      const client = await checkout();
      try {
        await client.query("BEGIN");
        const result = await fn(executor(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    // A session lock on a connection of its own, held while `fn` works on others.
    exclusive: async <T>(job: string, wait: boolean, fn: () => Promise<T>) => {
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
    },
    close: () => pool.end(),
  };
}
