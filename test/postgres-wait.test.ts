/**
 * Opening a PostgreSQL store waits for a server that does not accept connections yet (Compose
 * starting hindsight beside its database, a restart policy racing it): it retries failures of
 * the connection itself with a bounded backoff, logging why, and opens once the server is
 * there; what waiting cannot fix (a missing database, a refused password) fails at once; past
 * the deadline it fails with STORAGE_FAILED. The server in between is a TCP gate on loopback in
 * front of the machine's PostgreSQL: closed (nothing listens), answering as a server that is
 * starting up (57P03), or forwarding.
 */
import { connect, createServer, type Server, type Socket } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import {
  FIRST_DELAY_MS,
  MAX_DELAY_MS,
  withConnectRetry,
} from "../src/adapters/storage/connect-retry.js";
import { configFromEnv, DEFAULT_DB_WAIT_MS } from "../src/config/env.js";
import type { Logger } from "../src/core/ports.js";
import { createHindsight, type Hindsight, isHindsightError } from "../src/index.js";
import { parseConfig } from "../src/open/parse-config.js";
import { createTestSchema, POSTGRES_URL, postgresSkipReason } from "./support/backends.js";
import { until } from "./support/until.js";

function capture(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const put = (message: string) => {
    lines.push(message);
  };
  return { lines, debug: put, info: put, warn: put, error: put };
}

/** hindsight on PostgreSQL at `databaseUrl`, waiting up to `waitMs` for it at start. */
function openOn(databaseUrl: string, waitMs: number, logger: Logger) {
  return createHindsight(
    { databaseUrl, dataDir: "memory://", embedder: { kind: "hash" }, databaseWaitMs: waitMs },
    { logger },
  );
}

async function errorOf(promise: Promise<unknown>) {
  return promise.then(
    () => {
      throw new Error("expected the open to fail");
    },
    (error: Error & { code?: string }) => error,
  );
}

/** A PostgreSQL ErrorResponse message, as a server sends it instead of accepting a startup. */
function errorResponse(sqlstate: string, message: string): Buffer {
  const field = (type: string, value: string) => Buffer.from(`${type}${value}\0`, "utf8");
  const body = Buffer.concat([
    field("S", "FATAL"),
    field("V", "FATAL"),
    field("C", sqlstate),
    field("M", message),
    Buffer.from([0]),
  ]);
  const header = Buffer.alloc(5);
  header.write("E", 0, "ascii");
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

type Mode = "closed" | "starting" | "refusing-password" | "forwarding";

/** A port on loopback whose behaviour the test switches; in front of the real PostgreSQL. */
async function gate() {
  const upstream = new URL(POSTGRES_URL);
  const probe = createServer();
  const port = await new Promise<number>((resolve) =>
    probe.listen(0, "127.0.0.1", () => resolve((probe.address() as { port: number }).port)),
  );
  await new Promise((resolve) => probe.close(resolve));

  let mode: Mode = "closed";
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  const connections: Record<Mode, number> = {
    closed: 0,
    starting: 0,
    "refusing-password": 0,
    forwarding: 0,
  };
  const onConnection = (client: Socket) => {
    connections[mode]++;
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => client.destroy());
    if (mode === "forwarding") {
      const target = connect(Number(upstream.port || 5432), upstream.hostname);
      sockets.add(target);
      target.on("close", () => sockets.delete(target));
      target.on("error", () => target.destroy());
      client.pipe(target).pipe(client);
      return;
    }
    // The server's answer to the startup message, then it hangs up.
    client.once("data", () => {
      client.end(
        mode === "starting"
          ? errorResponse("57P03", "the database system is starting up")
          : errorResponse("28P01", 'password authentication failed for user "postgres"'),
      );
    });
  };
  const close = async () => {
    const closing = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    if (closing) await new Promise((resolve) => closing.close(resolve));
  };
  return {
    port,
    connections,
    url(base: string) {
      const url = new URL(base);
      url.hostname = "127.0.0.1";
      url.port = String(port);
      return url.toString();
    },
    async set(next: Mode) {
      mode = next;
      if (next === "closed") return close();
      if (server) return;
      const listening = createServer(onConnection);
      server = listening;
      await new Promise<void>((resolve) => listening.listen(port, "127.0.0.1", () => resolve()));
    },
    close,
  };
}

describe.skipIf(postgresSkipReason !== undefined)("opening waits for PostgreSQL", () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });

  it("waits while nothing listens and while the server starts up, then opens and works", async () => {
    const schema = await createTestSchema();
    cleanups.push(schema.drop);
    const door = await gate();
    cleanups.push(door.close);
    const logger = capture();
    const opening = openOn(door.url(schema.url), 30_000, logger);
    let settled = false;
    void opening.then(
      () => (settled = true),
      () => (settled = true),
    );

    await until("a refused connection", () =>
      logger.lines.some((line) =>
        /PostgreSQL at 127\.0\.0\.1:\d+ not accepting connections yet \(ECONNREFUSED\); retrying in [\d.]+ s/.test(
          line,
        ),
      ),
    );
    await door.set("starting");
    await until("a 57P03 answer", () =>
      logger.lines.some((line) =>
        line.includes("not accepting connections yet (57P03 the database system is starting up)"),
      ),
    );
    expect(settled).toBe(false);
    await door.set("forwarding");

    const memory: Hindsight = await opening;
    cleanups.push(() => memory.close());
    expect(logger.lines.some((line) => /accepts connections, after [\d.]+ s/.test(line))).toBe(
      true,
    );
    // The backoff is bounded: no pause longer than the cap was announced.
    const pauses = logger.lines.flatMap((line) => {
      const match = /retrying in ([\d.]+) s/.exec(line);
      return match ? [Number(match[1]) * 1000] : [];
    });
    expect(pauses[0]).toBe(FIRST_DELAY_MS);
    expect(Math.max(...pauses)).toBeLessThanOrEqual(MAX_DELAY_MS);

    const stored = await memory.storeEpisodic({
      task_type: "deploy",
      summary: "waited for the database to start, then stored this",
      outcome: "success",
    });
    const { results } = await memory.recall({ query_text: "waited for the database to start" });
    expect(results.map((result) => result.id)).toContain(stored.id);

    // Reached once, the server no longer gets a start-up wait: a later open during an outage
    // (a tenant's first request) fails at once, as requests do.
    await door.set("closed");
    const again = capture();
    const failure = await errorOf(openOn(door.url(schema.url), 30_000, again));
    // At once: no retry was logged (a clock would say the same less reliably on a busy machine).
    expect(isHindsightError(failure) && failure.code).toBe("STORAGE_FAILED");
    expect(again.lines.join("\n")).not.toMatch(/retrying/);
  });

  it("fails at once when waiting cannot help: a missing database, a refused password", async () => {
    const missing = new URL(POSTGRES_URL);
    missing.pathname = "/hindsight_no_such_database";
    const logger = capture();
    const noDatabase = await errorOf(openOn(missing.toString(), 30_000, logger));
    expect(isHindsightError(noDatabase) && noDatabase.code).toBe("STORAGE_FAILED");
    expect(noDatabase.message).toMatch(
      /connecting to PostgreSQL at 127\.0\.0\.1:5432: database "hindsight_no_such_database" does not exist/,
    );

    const door = await gate();
    cleanups.push(door.close);
    await door.set("refusing-password");
    const refused = await errorOf(openOn(door.url(POSTGRES_URL), 30_000, logger));
    expect(isHindsightError(refused) && refused.code).toBe("STORAGE_FAILED");
    expect(refused.message).toContain("password authentication failed");
    expect(door.connections["refusing-password"]).toBe(1);
    expect(logger.lines.join("\n")).not.toMatch(/retrying/);
  });

  it("gives up with STORAGE_FAILED once the wait is over, naming the server and the reason", async () => {
    const door = await gate();
    cleanups.push(door.close);
    const logger = capture();
    const failure = await errorOf(openOn(door.url(POSTGRES_URL), 600, logger));
    expect(isHindsightError(failure) && failure.code).toBe("STORAGE_FAILED");
    expect(failure.message).toMatch(
      new RegExp(
        `connecting to PostgreSQL at 127\\.0\\.0\\.1:${door.port}: not accepting connections after [\\d.]+ s .*ECONNREFUSED`,
      ),
    );
    expect(logger.lines.filter((line) => line.includes("retrying")).length).toBeGreaterThan(0);
  });
});

describe("the start-up wait", () => {
  it("backs off from 250 ms to at most 2 s, ending at the deadline (a clock of its own)", async () => {
    let now = 0;
    const pauses: number[] = [];
    const logger = capture();
    const refused = Object.assign(new Error("connect ECONNREFUSED 10.0.0.1:5432"), {
      code: "ECONNREFUSED",
    });
    const failure = await errorOf(
      withConnectRetry(
        "db:5432",
        async () => {
          now += 5; // each attempt takes a little time
          throw refused;
        },
        {
          waitMs: 10_000,
          attemptTimeoutMs: 60_000,
          logger,
          now: () => now,
          sleep: async (ms) => {
            pauses.push(ms);
            now += ms;
          },
        },
      ),
    );
    expect(pauses.slice(0, 5)).toEqual([250, 500, 1000, 2000, 2000]);
    expect(Math.max(...pauses)).toBe(2000);
    expect(pauses.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(10_000);
    expect(now).toBeGreaterThanOrEqual(10_000);
    expect(isHindsightError(failure) && failure.code).toBe("STORAGE_FAILED");
    expect(logger.lines[0]).toBe(
      "PostgreSQL at db:5432 not accepting connections yet (ECONNREFUSED); retrying in 0.25 s",
    );
  });

  it("is 60 s from the environment (HINDSIGHT_DB_WAIT_MS), none in the library unless asked", () => {
    const base = { HINDSIGHT_DATA_DIR: "memory://" };
    expect(DEFAULT_DB_WAIT_MS).toBe(60_000);
    expect(parseConfig(configFromEnv(base)).databaseWaitMs).toBe(60_000);
    expect(parseConfig(configFromEnv({ ...base, HINDSIGHT_DB_WAIT_MS: "0" })).databaseWaitMs).toBe(
      0,
    );
    expect(
      parseConfig(configFromEnv({ ...base, HINDSIGHT_DB_WAIT_MS: "5000" })).databaseWaitMs,
    ).toBe(5000);
    expect(parseConfig({ dataDir: "memory://" }).databaseWaitMs).toBe(0);
    expect(() => configFromEnv({ ...base, HINDSIGHT_DB_WAIT_MS: "soon" })).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID", field: "HINDSIGHT_DB_WAIT_MS" }),
    );
  });
});
