/**
 * A real Redis server restarted under a working-memory load: while it is down every append
 * fails quickly with WORKING_MEMORY_UNAVAILABLE (never a silent switch to another store,
 * never a late write), and once it is back the same service appends again, without a
 * restart. Runs on a redis-server of its own (no persistence, like the machine's), which it
 * kills with SIGKILL.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHindsight, type Hindsight, isHindsightError } from "../src/index.js";
import { freePort } from "./support/free-port.js";

const REDIS_SERVER = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].find(existsSync);
if (!REDIS_SERVER && process.env.CI === "true") {
  throw new Error("CI=true and no redis-server binary to start a private Redis");
}

function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    REDIS_SERVER!,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk;
      if (output.includes("Ready to accept connections")) resolve(child);
    });
    child.on("exit", (code) => reject(new Error(`redis-server exited ${code}: ${output}`)));
  });
}

/** Embedded memory whose working memory is the Redis on `port`, with a short deadline. */
function memoryOn(port: number): Promise<Hindsight> {
  return createHindsight({
    embedder: { kind: "hash" },
    dataDir: "memory://",
    working: { redisUrl: `redis://127.0.0.1:${port}/0`, timeoutMs: 500 },
  });
}

describe.skipIf(!REDIS_SERVER)("Redis restarted under a working-memory load", () => {
  let port: number;
  let redis: ChildProcess;
  let memory: Hindsight;

  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    memory = await memoryOn(port);
  }, 60_000);

  afterAll(async () => {
    await memory?.close();
    redis?.kill("SIGKILL");
  });

  it("fails clearly while Redis is down and recovers once it is back", async () => {
    const outcomes: { phase: string; ok: boolean; code?: string; ms: number }[] = [];
    let phase = "up";
    let n = 0;
    const append = async () => {
      const started = Date.now();
      try {
        await memory.workingAppend({
          session_id: "restart-test",
          role: "assistant",
          content: `step ${n++}: checked the deployment logs`,
        });
        outcomes.push({ phase, ok: true, ms: Date.now() - started });
      } catch (error) {
        outcomes.push({
          phase,
          ok: false,
          code: isHindsightError(error) ? error.code : "UNCODED",
          ms: Date.now() - started,
        });
      }
    };
    for (let i = 0; i < 20; i++) await append();

    redis.kill("SIGKILL");
    await new Promise((resolve) => redis.once("exit", resolve));
    phase = "down";
    for (let i = 0; i < 5; i++) await append();

    redis = await startRedis(port);
    phase = "back";
    // ioredis reconnects with backoff; the service needs no restart, only a moment.
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      await append();
      if (outcomes.at(-1)!.ok) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    for (let i = 0; i < 5; i++) await append();

    const of = (name: string) => outcomes.filter((outcome) => outcome.phase === name);
    expect(of("up").every((outcome) => outcome.ok)).toBe(true);
    for (const failure of of("down")) {
      expect(failure.ok).toBe(false);
      expect(failure.code).toBe("WORKING_MEMORY_UNAVAILABLE");
      // Within the configured timeout (500 ms) and some scheduling slack, never hanging.
      expect(failure.ms).toBeLessThan(3000);
    }
    expect(
      of("back")
        .slice(-5)
        .every((outcome) => outcome.ok),
    ).toBe(true);
    // No persistence: the restarted Redis starts empty, and what is there now is only what
    // was acknowledged after the restart (no late write from the outage).
    const session = await memory.workingGet({ session_id: "restart-test" });
    const acknowledgedAfter = of("back").filter((outcome) => outcome.ok).length;
    expect(session.items.length + (session.summary?.items_summarized ?? 0)).toBe(acknowledgedAfter);
    console.error(
      `redis restart: ${outcomes.length} appends attempted, ${outcomes.filter((o) => o.ok).length} acknowledged, ` +
        `${of("down").length} failed fast while down (max ${Math.max(...of("down").map((o) => o.ms))} ms), ` +
        `recovered after ${of("back").findIndex((o) => o.ok) + 1} attempts`,
    );
  }, 60_000);
});

describe.skipIf(!REDIS_SERVER)("Redis frozen (SIGSTOP) during an append", () => {
  let redis: ChildProcess;
  let memory: Hindsight;

  beforeAll(async () => {
    const port = await freePort();
    redis = await startRedis(port);
    memory = await memoryOn(port);
  }, 60_000);

  afterAll(async () => {
    redis?.kill("SIGCONT");
    await memory?.close();
    redis?.kill("SIGKILL");
  });

  it("never lands an append it answered as failed, once Redis resumes", async () => {
    const session = "frozen-test";
    await memory.workingAppend({ session_id: session, role: "user", content: "before" });
    redis.kill("SIGSTOP");
    let failed: unknown;
    try {
      failed = await memory
        .workingAppend({ session_id: session, role: "user", content: "during the freeze" })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
    } finally {
      // Long after the caller was told: Redis now runs what was queued on the connection.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      redis.kill("SIGCONT");
    }
    expect(isHindsightError(failed) && failed.code).toBe("WORKING_MEMORY_UNAVAILABLE");
    await expect
      .poll(
        async () =>
          (await memory.workingGet({ session_id: session }).catch(() => undefined))?.items.map(
            (item) => item.content,
          ),
        { timeout: 20_000 },
      )
      .toEqual(["before"]);
    // And it works again.
    await memory.workingAppend({ session_id: session, role: "user", content: "after" });
    const { items } = await memory.workingGet({ session_id: session });
    expect(items.map((item) => item.content)).toEqual(["before", "after"]);
  }, 60_000);
});
