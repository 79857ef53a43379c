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

/**
 * One holder per job name within this process; waiters queue in order. A job counts as taken
 * from the moment a call for it is queued, not when its function starts: a non-waiting call in
 * the same tick as another must see it held, as PostgreSQL's advisory lock would.
 */
export function inProcessExclusive(): ExclusiveRunner {
  const tails = new Map<string, Promise<unknown>>();
  const taken = new Map<string, number>();
  return async <T>(job: string, wait: boolean, fn: () => Promise<T>): Promise<Exclusive<T>> => {
    if (!wait && (taken.get(job) ?? 0) > 0) return { ran: false };
    taken.set(job, (taken.get(job) ?? 0) + 1);
    const previous = tails.get(job) ?? Promise.resolve();
    const run = previous.then(fn).finally(() => {
      const left = (taken.get(job) ?? 1) - 1;
      if (left === 0) taken.delete(job);
      else taken.set(job, left);
    });
    tails.set(
      job,
      run.catch(() => undefined),
    );
    return { ran: true, value: await run };
  };
}
