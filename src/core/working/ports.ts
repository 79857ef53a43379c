/**
 * The working-memory store port. Redis is the deployment adapter; the embedded or PostgreSQL
 * database is the fallback when no Redis is configured. Every method is atomic on its own, so
 * agents appending to one session at once never lose an item.
 */
import type { NewWorkingItem, WorkingSession, WorkingSummary } from "./types.js";

export interface AppendOptions {
  /** Sets the session's budget override as part of the same write. */
  budget?: number;
  /** The session's time to live, restarted by every write. */
  ttlSeconds: number;
  /** The caller's clock, for stores that expire sessions themselves. */
  now: Date;
}

export interface Compaction {
  /** The revision the summary was computed from; anything else means someone compressed first. */
  revision: number;
  /** The items the new summary stands for: removed together with the summary's replacement. */
  seqs: readonly number[];
  summary: WorkingSummary;
  ttlSeconds: number;
  now: Date;
}

export interface LiveSession {
  key: string;
  expires_at: Date;
}

export interface WorkingMemoryStore {
  /** Where sessions live, credentials removed: `redis://127.0.0.1:6379/0`, `pglite:…`. */
  readonly description: string;
  /**
   * Adds an item at the session's next sequence number, creating the session if needed; an
   * item whose id the session already holds is not added twice. Returns its sequence number.
   */
  append(sessionId: string, item: NewWorkingItem, options: AppendOptions): Promise<number>;
  /** The session as it is now, or null when it does not exist (or has expired). */
  load(sessionId: string, now: Date): Promise<WorkingSession | null>;
  /** Sets a session's budget override; false when the session does not exist. */
  setBudget(sessionId: string, budget: number, ttlSeconds: number, now: Date): Promise<boolean>;
  /**
   * Replaces exactly the given items by the summary, if the session is still at `revision` and
   * still holds all of them; returns false (changing nothing) otherwise.
   */
  compact(sessionId: string, compaction: Compaction): Promise<boolean>;
  /**
   * Removes what an ended session's snapshot held: its items, and its summary when nobody
   * compressed since. Items appended after the snapshot stay.
   */
  discard(sessionId: string, snapshot: WorkingSession): Promise<void>;
  /**
   * Every live session whose key begins with `prefix`, in no particular order: its key and when
   * it expires (each write restarts the time to live, so the latest expiry is the latest write).
   */
  listSessions(prefix: string, now: Date): Promise<LiveSession[]>;
  close(): Promise<void>;
}
