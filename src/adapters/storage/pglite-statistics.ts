/**
 * Planner statistics kept current on PGlite, as a PostgreSQL server's autovacuum keeps them.
 *
 * A prepared statement's kept plan is made once, from the sizes the tables had at that moment,
 * and PostgreSQL makes it again only when a table it reads is analysed or altered. A server's
 * autovacuum analyses a table once more than 50 rows + 10% of it have changed since its last
 * ANALYZE; PGlite has no autovacuum, so a plan stayed as it was made for the whole life of the
 * process. A server started on a store whose access-count table had been analysed nearly empty
 * kept a plan that read that whole table once per recall candidate: on a 10 000-memory store
 * recall went from 3.4 ms to 17 ms over 4 000 recalls, and kept slowing as the table grew
 * (docs/benchmarks.md, "A plan made for an empty table").
 *
 * So the driver counts the work it has done and, every so many statements, asks PostgreSQL
 * which tables have changed past the server's threshold since this process last analysed them
 * (PGlite's statistics counters start at zero in each process), and analyses those. It runs
 * after the statement that reached the count, queued behind it on PGlite's own locks: the
 * caller that reached the count does not wait for it.
 */
import type { Logger } from "../../core/ports.js";

/** Statements between two checks: a check costs ~1 ms on PGlite, a recall sends three. */
export const STATEMENTS_PER_CHECK = 100;

/**
 * The tables whose rows changed past the threshold of PostgreSQL's autovacuum (defaults:
 * `autovacuum_analyze_threshold` 50, `autovacuum_analyze_scale_factor` 0.1). `reltuples` is
 * −1 for a table never analysed.
 */
export const STALE_TABLES_SQL = `SELECT format('%I.%I', s.schemaname, s.relname) AS name
  FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
  WHERE s.n_mod_since_analyze > 50 + 0.1 * GREATEST(c.reltuples, 0)`;

/** Publishes this process's counters when it is next idle: before the check that reads them. */
export const FLUSH_COUNTERS_SQL = "SELECT pg_stat_force_next_flush()";

export interface StatisticsDatabase {
  query<T>(sql: string): Promise<T[]>;
  exec(sql: string): Promise<unknown>;
}

export interface StatisticsKeeper {
  /** Called once a statement or transaction has finished; checks every `every` of them. */
  finished(): void;
  /** Resolves once a check under way has finished (before the database closes). */
  settled(): Promise<void>;
}

export function statisticsKeeper(
  db: StatisticsDatabase,
  logger: Logger,
  every = STATEMENTS_PER_CHECK,
): StatisticsKeeper {
  let count = 0;
  let running: Promise<void> = Promise.resolve();
  const refresh = async () => {
    // A process publishes its counters at most once a second; the check is to see them all.
    await db.query(FLUSH_COUNTERS_SQL);
    for (const { name } of await db.query<{ name: string }>(STALE_TABLES_SQL)) {
      await db.exec(`ANALYZE ${name}`);
    }
  };
  return {
    finished() {
      count += 1;
      if (count < every) return;
      count = 0;
      running = running.then(refresh).catch((error: unknown) =>
        logger.warn("could not refresh the planner statistics", {
          error: error instanceof Error ? error.message : String(error),
        }),
      );
    },
    settled: () => running,
  };
}
