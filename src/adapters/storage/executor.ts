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
  /** Runs `fn` holding a job lock shared by every process on this database (see job-lock). */
  exclusive: ExclusiveRunner;
  close(): Promise<void>;
}

/** pgvector's text input format. */
export function toVectorLiteral(vector: Float32Array): string {
  return `[${vector.join(",")}]`;
}
