/**
 * Waiting for PostgreSQL to accept connections when a process starts: a server started beside
 * hindsight (Compose, Kubernetes, a system boot) may still be initialising, restarting after
 * its first-time setup, or not yet resolvable by name. Opening retries failures of the
 * connection itself with a bounded backoff, saying on the log why it waits, until a deadline;
 * anything the server answers that more waiting cannot fix (a wrong password, a missing
 * database) fails at once. Both end in STORAGE_FAILED, as any other failure to open the store.
 *
 * Only the first connection a process makes to a server waits: once it has been reached, a
 * later open (a tenant's first request) during an outage fails quickly, as requests do.
 */
import { ErrorCode, HindsightError } from "../../core/errors.js";
import type { Logger } from "../../core/ports.js";

/** Network errors of a server that is not there yet, or not listening yet. */
const RETRIED_ERRNO = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
]);

/**
 * SQLSTATEs of a server that cannot take the connection now: starting up, shutting down or
 * in recovery (57P03), shut down by its administrator (57P01, e.g. the restart at the end of a
 * container's first-time initialisation), out of connection slots (53300), and the
 * connection-exception class (08).
 */
const RETRIED_SQLSTATE = new Set(["57P03", "57P01", "53300", "08000", "08001", "08006"]);

/**
 * Why the connection failed, in a few words, when waiting may help; undefined when it will
 * not (authentication, a database that does not exist, TLS, anything else).
 */
export function connectionFailure(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code } = error as { code?: unknown };
  if (typeof code === "string") {
    if (RETRIED_ERRNO.has(code)) return code;
    // A Unix socket that is not there yet (host=/var/run/postgresql), not a missing TLS file.
    if (code === "ENOENT" && (error as { syscall?: unknown }).syscall === "connect") return code;
    if (RETRIED_SQLSTATE.has(code)) return `${code} ${error.message}`;
  }
  // Node's happy-eyeballs connect (localhost: ::1 and 127.0.0.1) fails with all its attempts.
  if (error instanceof AggregateError) {
    for (const inner of error.errors) {
      const reason = connectionFailure(inner);
      if (reason !== undefined) return reason;
    }
    return undefined;
  }
  // pg's own: its connection timeout, and a socket closed before the server's first answer.
  if (/timeout/i.test(error.message)) return "timeout";
  if (/^Connection terminated/i.test(error.message)) return "connection closed";
  return undefined;
}

/** The error's own words; a happy-eyeballs AggregateError has none, its attempts have. */
function describe(error: unknown): string {
  if (error instanceof AggregateError && error.message === "") {
    return error.errors.map((inner) => describe(inner)).join("; ");
  }
  return error instanceof Error ? error.message || error.name : String(error);
}

function storageFailed(context: string, error: unknown): HindsightError {
  return new HindsightError(ErrorCode.STORAGE_FAILED, `${context}: ${describe(error)}`, {
    cause: error,
  });
}

/** `host:port` of a connection string, for messages (no credentials). */
export function serverOf(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    const host = decodeURIComponent(url.hostname) || url.searchParams.get("host") || "localhost";
    return `${host}:${url.port || "5432"}`;
  } catch {
    return "(unparseable URL)";
  }
}

export interface WaitOptions {
  /** How long to keep trying, overall; 0: one attempt. */
  waitMs: number;
  /** The longest any one attempt may take (the pool's connection timeout). */
  attemptTimeoutMs: number;
  logger: Logger;
  /** Injected by tests; real time by default. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** The first pause between attempts, doubled after each, up to MAX_DELAY_MS. */
export const FIRST_DELAY_MS = 250;
export const MAX_DELAY_MS = 2000;

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(ms < 1000 ? 2 : 1))} s`;
const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` (one connection, given how long it may take) until it succeeds, fails in a
 * way waiting cannot fix, or `waitMs` has passed; failures become STORAGE_FAILED.
 */
export async function withConnectRetry<T>(
  server: string,
  attempt: (timeoutMs: number) => Promise<T>,
  options: WaitOptions,
): Promise<T> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const started = now();
  const deadline = started + Math.max(0, options.waitMs);
  let delay = FIRST_DELAY_MS;
  let waited = false;
  for (;;) {
    const left = deadline - now();
    try {
      const result = await attempt(Math.max(1000, Math.min(options.attemptTimeoutMs, left)));
      if (waited) {
        options.logger.info(
          `PostgreSQL at ${server} accepts connections, after ${seconds(now() - started)}`,
        );
      }
      return result;
    } catch (error) {
      const reason = connectionFailure(error);
      const remaining = deadline - now();
      if (reason === undefined) {
        throw storageFailed(`connecting to PostgreSQL at ${server}`, error);
      }
      if (remaining <= 0) {
        throw storageFailed(
          `connecting to PostgreSQL at ${server}: not accepting connections after ${seconds(now() - started)} (HINDSIGHT_DB_WAIT_MS sets how long to wait)`,
          error,
        );
      }
      const pause = Math.min(delay, remaining);
      options.logger.warn(
        `PostgreSQL at ${server} not accepting connections yet (${reason}); retrying in ${seconds(pause)}`,
      );
      waited = true;
      await sleep(pause);
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
  }
}

/** Servers (connection strings) this process has connected to once: they no longer wait. */
const REACHED = new Set<string>();

/**
 * Waits until PostgreSQL at `connectionString` accepts a connection (and authenticates it),
 * the first time this process opens it. `waitMs` 0: no wait, no probe (the pool connects on
 * first use, as before).
 */
export async function waitForPostgres(
  pg: typeof import("pg").default,
  connectionString: string,
  options: WaitOptions,
): Promise<void> {
  if (options.waitMs <= 0 || REACHED.has(connectionString)) return;
  await withConnectRetry(
    serverOf(connectionString),
    async (timeoutMs) => {
      const client = new pg.Client({ connectionString, connectionTimeoutMillis: timeoutMs });
      // A socket error after connect() settled must not crash the process.
      client.on("error", () => undefined);
      try {
        await client.connect();
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    options,
  );
  REACHED.add(connectionString);
}
