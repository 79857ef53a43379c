/**
 * Working memory in Redis (ioredis). Every operation is one Lua script, atomic in Redis.
 * When Redis cannot be reached, calls fail quickly with WORKING_MEMORY_UNAVAILABLE — never a
 * silent loss and never a silent switch to another store — and work again once it is back:
 * the client keeps reconnecting in the background. Commands are never queued while offline,
 * so a call that failed cannot land later behind the caller's back.
 */
import type { Redis as RedisClient } from "ioredis";
import { ErrorCode, HindsightError } from "../../core/errors.js";
import type { Logger } from "../../core/ports.js";
import type {
  AppendOptions,
  Compaction,
  LiveSession,
  WorkingMemoryStore,
} from "../../core/working/ports.js";
import type { NewWorkingItem, WorkingSession } from "../../core/working/types.js";
import { decodeItem, decodeSummary, encodeItem, encodeSummary } from "./codec.js";
import { APPEND, COMPACT, DISCARD, SET_BUDGET } from "./redis-scripts.js";

export interface RedisWorkingOptions {
  url: string;
  keyPrefix: string;
  /** How long a call waits for a connection, and for Redis to answer. */
  timeoutMs: number;
  logger: Logger;
}

/** The URL without its password, for logs and errors. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "redis (unparseable URL)";
  }
}

type Script = (key: string, ...args: (string | number)[]) => Promise<unknown>;

export async function openRedisWorkingStore(
  options: RedisWorkingOptions,
): Promise<RedisWorkingStore> {
  // Loaded on demand: deployments without Redis never load the client.
  const { Redis } = await import("ioredis");
  const client = new Redis(options.url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    connectTimeout: options.timeoutMs,
    commandTimeout: options.timeoutMs,
    maxRetriesPerRequest: 1,
    // Keep trying for as long as the process lives, at most every two seconds.
    retryStrategy: (attempt: number) => Math.min(attempt * 100, 2000),
  });
  return new RedisWorkingStore(client, options);
}

export class RedisWorkingStore implements WorkingMemoryStore {
  readonly description: string;
  private down = false;
  /** One wait for a connection, shared by every call that arrives while there is none. */
  private connecting: Promise<void> | undefined;
  private readonly scripts: Record<"append" | "setBudget" | "compact" | "discard", Script>;
  /** Redis's clock against ours, measured on the current connection. */
  private clock: Promise<{ offsetMs: number; uncertaintyMs: number }> | undefined;

  constructor(
    private readonly client: RedisClient,
    private readonly options: RedisWorkingOptions,
  ) {
    this.description = redactRedisUrl(options.url);
    // Without a listener ioredis prints every failed reconnect; say it once per outage.
    client.on("error", (error: Error) => {
      if (this.down) return;
      this.down = true;
      options.logger.warn(`working memory's Redis at ${this.description} is unreachable`, {
        error: error.message,
      });
    });
    client.on("ready", () => {
      // A new connection may be to another server (a failover): measure its clock again.
      this.clock = undefined;
      if (!this.down) return;
      this.down = false;
      options.logger.info(`working memory's Redis at ${this.description} is back`);
    });
    const define = (name: string, lua: string): Script => {
      client.defineCommand(name, { numberOfKeys: 1, lua });
      const command = (client as unknown as Record<string, Script>)[name]!;
      return command.bind(client);
    };
    this.scripts = {
      append: define("hindsightWorkingAppend", APPEND),
      setBudget: define("hindsightWorkingSetBudget", SET_BUDGET),
      compact: define("hindsightWorkingCompact", COMPACT),
      discard: define("hindsightWorkingDiscard", DISCARD),
    };
  }

  private key(sessionId: string): string {
    return `${this.options.keyPrefix}${sessionId}`;
  }

  append(sessionId: string, item: NewWorkingItem, options: AppendOptions): Promise<number> {
    return this.call("appending to working memory", async (deadline) =>
      written(
        await this.scripts.append(
          this.key(sessionId),
          item.id,
          encodeItem(item),
          options.ttlSeconds,
          options.budget ?? "",
          deadline,
        ),
      ),
    );
  }

  load(sessionId: string): Promise<WorkingSession | null> {
    return this.call("reading working memory", async () => {
      const hash = await this.client.hgetall(this.key(sessionId));
      if (Object.keys(hash).length === 0) return null;
      const items = Object.entries(hash)
        .filter(([field]) => field.startsWith("i:"))
        .map(([field, value]) => decodeItem(Number(field.slice(2)), JSON.parse(value)))
        .sort((a, b) => a.seq - b.seq);
      return {
        session_id: sessionId,
        items,
        summary: decodeSummary(hash.summary),
        revision: Number(hash.rev ?? 0),
        budget: hash.budget === undefined ? null : Number(hash.budget),
      };
    });
  }

  setBudget(sessionId: string, budget: number, ttlSeconds: number): Promise<boolean> {
    return this.call(
      "setting a working-memory budget",
      async (deadline) =>
        written(await this.scripts.setBudget(this.key(sessionId), budget, ttlSeconds, deadline)) ===
        1,
    );
  }

  compact(sessionId: string, compaction: Compaction): Promise<boolean> {
    return this.call(
      "compressing working memory",
      async (deadline) =>
        written(
          await this.scripts.compact(
            this.key(sessionId),
            compaction.revision,
            encodeSummary(compaction.summary),
            compaction.ttlSeconds,
            deadline,
            ...compaction.seqs,
          ),
        ) === 1,
    );
  }

  async discard(sessionId: string, snapshot: WorkingSession): Promise<void> {
    await this.call("clearing working memory", async (deadline) =>
      written(
        await this.scripts.discard(
          this.key(sessionId),
          snapshot.revision,
          deadline,
          ...snapshot.items.map((item) => item.seq),
        ),
      ),
    );
  }

  listSessions(prefix: string): Promise<LiveSession[]> {
    return this.call("listing working-memory sessions", async () => {
      const { keyPrefix } = this.options;
      const keys = new Set<string>();
      // SCAN, not KEYS: it never blocks Redis for the whole keyspace at once.
      let cursor = "0";
      do {
        const [next, batch] = await this.client.scan(
          cursor,
          "MATCH",
          `${globEscape(keyPrefix + prefix)}*`,
          "COUNT",
          1000,
        );
        for (const key of batch) keys.add(key);
        cursor = next;
      } while (cursor !== "0");
      const names = [...keys];
      const pipeline = this.client.pipeline();
      for (const key of names) pipeline.pttl(key);
      const ttls = (await pipeline.exec()) ?? [];
      const now = Date.now();
      return names.flatMap((key, index) => {
        const [error, ttl] = ttls[index] ?? [];
        // -2: gone since the scan; -1: no expiry, which no session of ours has.
        if (error || typeof ttl !== "number" || ttl < 0) return [];
        return [{ key: key.slice(keyPrefix.length), expires_at: new Date(now + ttl) }];
      });
    });
  }

  async close(): Promise<void> {
    if (this.client.status === "ready") {
      await this.client.quit().catch(() => this.client.disconnect());
    } else {
      this.client.disconnect();
    }
  }

  /**
   * Runs `fn` once connected, handing it the deadline of its write in Redis's clock: the
   * caller gives up after timeoutMs, so a script must not start later than that, less a
   * margin for the answer's way back and the clock offset's uncertainty.
   */
  private async call<T>(context: string, fn: (deadline: number) => Promise<T>): Promise<T> {
    try {
      if (this.client.status !== "ready") {
        this.connecting ??= this.connected().finally(() => {
          this.connecting = undefined;
        });
        await this.connecting;
      }
      this.clock ??= this.measureClock();
      const { offsetMs, uncertaintyMs } = await this.clock;
      const margin = Math.min(this.options.timeoutMs / 2, 250 + uncertaintyMs);
      return await fn(Math.floor(Date.now() + offsetMs + this.options.timeoutMs - margin));
    } catch (error) {
      if (!(error instanceof HindsightError)) this.clock = undefined;
      throw this.failure(context, error);
    }
  }

  /** Redis's clock against ours (TIME, halfway through the round trip), once per connection. */
  private async measureClock(): Promise<{ offsetMs: number; uncertaintyMs: number }> {
    const sent = Date.now();
    const [seconds, micros] = await this.client.time();
    const received = Date.now();
    const redisMs = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    return { offsetMs: redisMs - (sent + received) / 2, uncertaintyMs: (received - sent) / 2 };
  }

  /** Waits for a connection, at most timeoutMs, failing at once when an attempt fails. */
  private connected(): Promise<void> {
    const client = this.client;
    return new Promise<void>((resolve, reject) => {
      const done = (error?: unknown) => {
        clearTimeout(timer);
        client.off("ready", onReady);
        client.off("error", onError);
        if (error === undefined) resolve();
        else reject(error);
      };
      const onReady = () => done();
      const onError = (error: Error) => done(error);
      const timer = setTimeout(
        () => done(new Error(`no connection within ${this.options.timeoutMs} ms`)),
        this.options.timeoutMs,
      );
      client.on("ready", onReady);
      client.on("error", onError);
      if (client.status === "wait" || client.status === "end") {
        client.connect().catch(() => undefined);
      }
    });
  }

  private failure(context: string, error: unknown): HindsightError {
    if (error instanceof HindsightError) return error;
    const reason = error instanceof Error ? error.message : String(error);
    // A script error is a bug of ours, not an outage.
    const code =
      (error as { name?: string }).name === "ReplyError"
        ? ErrorCode.STORAGE_FAILED
        : ErrorCode.WORKING_MEMORY_UNAVAILABLE;
    return new HindsightError(
      code,
      `${context}: working memory's Redis at ${this.description} failed: ${reason}`,
      { cause: error, details: { redis: this.description } },
    );
  }
}

/** A SCAN pattern matching `text` literally. */
function globEscape(text: string): string {
  return text.replace(/[*?[\]\\]/gu, (char) => `\\${char}`);
}

/** A script's answer; -1 means it started after its deadline and changed nothing. */
function written(reply: unknown): number {
  const value = Number(reply);
  if (value === -1) {
    throw new HindsightError(
      ErrorCode.WORKING_MEMORY_UNAVAILABLE,
      "working memory's Redis answered too late; nothing was written",
    );
  }
  return value;
}
