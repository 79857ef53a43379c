/**
 * Job locks: one maintenance or consolidation run at a time per database. PostgreSQL takes a
 * session advisory lock on a connection of its own, keyed by schema and job, so servers on
 * one database exclude each other while tests in other schemas do not; PGlite is owned by one
 * process (see multiprocess/shared-directory), where an in-process lock is enough.
 */
import type { Exclusive } from "../../core/lifecycle/ports.js";

export type ExclusiveRunner = <T>(
  job: string,
  wait: boolean,
  fn: () => Promise<T>,
) => Promise<Exclusive<T>>;

/** The advisory lock key of a job in the current schema. */
export const ADVISORY_KEY_SQL = "hashtext(current_schema() || ':hindsight-job:' || $1)";

/** One holder per job name within this process; waiters queue in order. */
export function inProcessExclusive(): ExclusiveRunner {
  const tails = new Map<string, Promise<unknown>>();
  const busy = new Set<string>();
  return async <T>(job: string, wait: boolean, fn: () => Promise<T>): Promise<Exclusive<T>> => {
    if (!wait && busy.has(job)) return { ran: false };
    const previous = tails.get(job) ?? Promise.resolve();
    const run = previous.then(async () => {
      busy.add(job);
      try {
        return await fn();
      } finally {
        busy.delete(job);
      }
    });
    tails.set(
      job,
      run.catch(() => undefined),
    );
    return { ran: true, value: await run };
  };
}
