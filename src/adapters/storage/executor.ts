import type { ExclusiveRunner } from "./job-lock.js";

/**
 * The tiny surface the SQL needs from a database driver. PGlite and PostgreSQL differ only in
 * how they connect; every query is written once against this interface.
 */
export interface SqlExecutor {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface SqlDriver extends SqlExecutor {
  /** Where the data lives, credentials removed. */
  readonly description: string;
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /**
   * The embedded database (PGlite), which this process alone uses while it is open; false for
   * a server, which other processes use too.
   */
  readonly embedded: boolean;
  /** Runs `fn` holding a job lock shared by every process on this database (see job-lock). */
  exclusive: ExclusiveRunner;
  close(): Promise<void>;
}

/**
 * A bound array the planner is not shown, written where `= ANY(...)` takes it. The planner
 * estimates a bound array it cannot see at 10 elements, and so it does whether the statement
 * is planned for this run's values or for any: both plans then cost the same, and PostgreSQL
 * keeps the plan of a prepared statement instead of planning every run again because the first
 * runs, planned with their 3 or 5 actual elements, looked cheaper. The plan is the same either
 * way (the array is looked up by index); what it saves is the planning, up to a third of a
 * recall's candidate statement on PGlite (docs/benchmarks.md).
 */
export function unplannedArray(param: string, type: string): string {
  return `(SELECT ${param}::${type}[])::${type}[]`;
}

/**
 * A statement with more bound values than this (a batch insert of hundreds of rows) is one of
 * a kind: the drivers run it unnamed rather than keep it prepared.
 */
export const MAX_PREPARED_PARAMETERS = 64;

/**
 * Whether the server refused a kept statement because a table's columns changed under it
 * (0A000 "cached plan must not change result type"). The statement has not run; described
 * again, it can. Other 0A000 errors ("feature not supported") are the statement's own.
 */
export function isStalePlan(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === "0A000" && String(message).includes("cached plan");
}

/** pgvector's text input format. */
export function toVectorLiteral(vector: Float32Array): string {
  return `[${vector.join(",")}]`;
}
