/**
 * Working memory in the embedded or PostgreSQL database: the fallback when no Redis is
 * configured. Same behaviour as Redis: appends serialise on the session row, compression
 * compares and swaps the session's revision, sessions expire after their time to live.
 */
import { ErrorCode, wrapError } from "../../core/errors.js";
import type {
  AppendOptions,
  Compaction,
  LiveSession,
  WorkingMemoryStore,
} from "../../core/working/ports.js";
import type { NewWorkingItem, WorkingSession } from "../../core/working/types.js";
import type { SqlDriver, SqlExecutor } from "../storage/executor.js";
import { decodeItem, decodeSummary, encodeSummary, type StoredItem } from "./codec.js";

/** Expired sessions of other callers are swept at most this often. */
const SWEEP_INTERVAL_MS = 60_000;

/** Thrown inside a transaction to roll it back when a compare-and-swap finds a change. */
class Changed extends Error {}

const expiry = (now: Date, ttlSeconds: number) => new Date(now.getTime() + ttlSeconds * 1000);

interface SessionRow {
  budget: number | null;
  summary: unknown;
  revision: number;
  items: (StoredItem & { seq: number })[];
}

export class SqlWorkingStore implements WorkingMemoryStore {
  private lastSweep = 0;

  constructor(private readonly driver: SqlDriver) {}

  get description(): string {
    return this.driver.description;
  }

  async append(sessionId: string, item: NewWorkingItem, options: AppendOptions): Promise<number> {
    await this.sweep(options.now);
    return this.guard("appending to working memory", () =>
      this.driver.transaction(async (tx) => {
        await tx.query("DELETE FROM working_sessions WHERE session_id = $1 AND expires_at <= $2", [
          sessionId,
          options.now,
        ]);
        // The upsert locks the session row: concurrent appends take their turns here.
        const [session] = await tx.query<{ last_seq: number }>(
          `INSERT INTO working_sessions (session_id, last_seq, budget, expires_at)
           VALUES ($1, 1, $2, $3)
           ON CONFLICT (session_id) DO UPDATE SET last_seq = working_sessions.last_seq + 1,
             budget = COALESCE(excluded.budget, working_sessions.budget),
             expires_at = excluded.expires_at
           RETURNING last_seq`,
          [sessionId, options.budget ?? null, expiry(options.now, options.ttlSeconds)],
        );
        const inserted = await tx.query<{ seq: number }>(
          `INSERT INTO working_items (session_id, seq, id, kind, role, content, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (session_id, id) DO NOTHING RETURNING seq`,
          [
            sessionId,
            session!.last_seq,
            item.id,
            item.kind,
            item.role,
            item.content,
            item.created_at,
          ],
        );
        if (inserted[0]) return inserted[0].seq;
        // A retried append: the item is there already.
        const [existing] = await tx.query<{ seq: number }>(
          "SELECT seq FROM working_items WHERE session_id = $1 AND id = $2",
          [sessionId, item.id],
        );
        return existing!.seq;
      }),
    );
  }

  load(sessionId: string, now: Date): Promise<WorkingSession | null> {
    return this.guard("reading working memory", async () => {
      // One statement, so the items and the summary come from the same snapshot.
      const [row] = await this.driver.query<SessionRow>(
        `SELECT s.budget, s.summary, s.revision,
                COALESCE(json_agg(json_build_object('seq', i.seq, 'id', i.id, 'kind', i.kind,
                  'role', i.role, 'content', i.content, 'created_at', i.created_at) ORDER BY i.seq)
                  FILTER (WHERE i.seq IS NOT NULL), '[]') AS items
         FROM working_sessions s LEFT JOIN working_items i ON i.session_id = s.session_id
         WHERE s.session_id = $1 AND s.expires_at > $2
         GROUP BY s.session_id`,
        [sessionId, now],
      );
      if (!row) return null;
      const items = typeof row.items === "string" ? JSON.parse(row.items) : row.items;
      return {
        session_id: sessionId,
        budget: row.budget,
        summary: decodeSummary(row.summary),
        revision: row.revision,
        items: (items as SessionRow["items"]).map(({ seq, ...item }) => decodeItem(seq, item)),
      };
    });
  }

  setBudget(sessionId: string, budget: number, ttlSeconds: number, now: Date): Promise<boolean> {
    return this.guard("setting a working-memory budget", async () => {
      const rows = await this.driver.query(
        `UPDATE working_sessions SET budget = $2, expires_at = $3
         WHERE session_id = $1 AND expires_at > $4 RETURNING session_id`,
        [sessionId, budget, expiry(now, ttlSeconds), now],
      );
      return rows.length > 0;
    });
  }

  async compact(sessionId: string, compaction: Compaction): Promise<boolean> {
    try {
      return await this.guard("compressing working memory", () =>
        this.driver.transaction(async (tx) => {
          const [session] = await tx.query<{ revision: number }>(
            `SELECT revision FROM working_sessions
             WHERE session_id = $1 AND expires_at > $2 FOR UPDATE`,
            [sessionId, compaction.now],
          );
          if (session?.revision !== compaction.revision) throw new Changed();
          const removed = await tx.query(
            "DELETE FROM working_items WHERE session_id = $1 AND seq = ANY($2::int[]) RETURNING seq",
            [sessionId, [...compaction.seqs]],
          );
          if (removed.length !== compaction.seqs.length) throw new Changed();
          await tx.query(
            `UPDATE working_sessions SET summary = $2::jsonb, revision = revision + 1, expires_at = $3
             WHERE session_id = $1`,
            [
              sessionId,
              encodeSummary(compaction.summary),
              expiry(compaction.now, compaction.ttlSeconds),
            ],
          );
          return true;
        }),
      );
    } catch (error) {
      if (error instanceof Changed) return false;
      throw error;
    }
  }

  discard(sessionId: string, snapshot: WorkingSession): Promise<void> {
    return this.guard("clearing working memory", () =>
      this.driver.transaction(async (tx: SqlExecutor) => {
        // The session row first, as append and compact lock it: the same order, no deadlock.
        await tx.query("SELECT 1 FROM working_sessions WHERE session_id = $1 FOR UPDATE", [
          sessionId,
        ]);
        await tx.query("DELETE FROM working_items WHERE session_id = $1 AND seq = ANY($2::int[])", [
          sessionId,
          snapshot.items.map((item) => item.seq),
        ]);
        await tx.query(
          "UPDATE working_sessions SET summary = NULL WHERE session_id = $1 AND revision = $2",
          [sessionId, snapshot.revision],
        );
        // Items appended after the snapshot keep their session alive.
        await tx.query(
          `DELETE FROM working_sessions s WHERE s.session_id = $1 AND s.summary IS NULL
           AND NOT EXISTS (SELECT 1 FROM working_items i WHERE i.session_id = s.session_id)`,
          [sessionId],
        );
      }),
    );
  }

  listSessions(prefix: string, now: Date): Promise<LiveSession[]> {
    return this.guard("listing working-memory sessions", () =>
      this.driver.query<LiveSession>(
        `SELECT session_id AS key, expires_at FROM working_sessions
         WHERE expires_at > $1 AND starts_with(session_id, $2)`,
        [now, prefix],
      ),
    );
  }

  /** The database is the memory store's: closing it is the memory store's job. */
  async close(): Promise<void> {}

  private async sweep(now: Date): Promise<void> {
    if (now.getTime() - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now.getTime();
    await this.guard("expiring working-memory sessions", () =>
      this.driver.query("DELETE FROM working_sessions WHERE expires_at <= $1", [now]),
    );
  }

  private async guard<T>(context: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof Changed) throw error;
      throw wrapError(ErrorCode.STORAGE_FAILED, context, error);
    }
  }
}
