/**
 * Working memory's Redis faults: unreachable means WORKING_MEMORY_UNAVAILABLE, quickly, with
 * no switch to another store; an outage ends when Redis is back; sessions expire by TTL.
 */
import { connect, createServer, type Server, type Socket } from "node:net";
import { Redis } from "ioredis";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createHindsight, type Hindsight } from "../src/index.js";
import { REDIS_URL, redisSkipReason, testPrefix } from "./support/redis.js";

const prefix = testPrefix();
afterAll(() => (redisSkipReason ? undefined : prefix.cleanup()));

/** A TCP proxy to the real Redis that can be cut and restored, as a network outage would. */
async function outageProxy(
  target: URL,
): Promise<{ url: string; cut(): Promise<void>; restore(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 6379), target.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => socket.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, "127.0.0.1", () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  await listen();
  return {
    url: `redis://127.0.0.1:${port}${target.pathname}`,
    cut: async () => {
      await new Promise<void>((resolve) => {
        server!.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
    restore: listen,
  };
}

async function errorOf(promise: Promise<unknown>) {
  return promise.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (error: { code: string; message: string }) => error,
  );
}

describe.skipIf(redisSkipReason !== undefined)("working memory on Redis, when Redis fails", () => {
  let memory: Hindsight | undefined;
  afterEach(async () => {
    await memory?.close();
    memory = undefined;
  });

  it("fails quickly with WORKING_MEMORY_UNAVAILABLE when Redis cannot be reached, and nothing else breaks", async () => {
    memory = await createHindsight({
      embedder: { kind: "hash" },
      dataDir: "memory://",
      working: { redisUrl: "redis://127.0.0.1:1/11", keyPrefix: prefix.keyPrefix },
    });
    const started = Date.now();
    const error = await errorOf(
      memory.workingAppend({ session_id: "s", role: "user", content: "hello" }),
    );
    expect(error.code).toBe("WORKING_MEMORY_UNAVAILABLE");
    expect(error.message).toContain("redis://127.0.0.1:1/11");
    expect(Date.now() - started).toBeLessThan(3000);
    expect((await errorOf(memory.workingGet({ session_id: "s" }))).code).toBe(
      "WORKING_MEMORY_UNAVAILABLE",
    );
    // Episodic memory does not depend on Redis.
    const { id } = await memory.storeEpisodic({
      task_type: "t",
      summary: "still works",
      outcome: "success",
    });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("recovers once Redis is reachable again, without losing what was stored before", async () => {
    const proxy = await outageProxy(new URL(REDIS_URL));
    memory = await createHindsight({
      embedder: { kind: "hash" },
      dataDir: "memory://",
      working: { redisUrl: proxy.url, keyPrefix: prefix.keyPrefix, timeoutMs: 1000 },
    });
    await memory.workingAppend({
      session_id: "outage",
      kind: "goal",
      role: "user",
      content: "survive an outage",
    });
    await proxy.cut();
    const error = await errorOf(
      memory.workingAppend({ session_id: "outage", role: "user", content: "lost?" }),
    );
    expect(error.code).toBe("WORKING_MEMORY_UNAVAILABLE");
    await proxy.restore();
    let recovered: Awaited<ReturnType<Hindsight["workingAppend"]>> | undefined;
    const deadline = Date.now() + 10_000;
    while (!recovered && Date.now() < deadline) {
      recovered = await memory
        .workingAppend({ session_id: "outage", role: "user", content: "back" })
        .catch(() => undefined);
      if (!recovered) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(recovered?.seq).toBe(2);
    const context = await memory.workingGet({ session_id: "outage" });
    // The append that failed was never queued to land later.
    expect(context.items.map((item) => item.content)).toEqual(["survive an outage", "back"]);
    await proxy.cut();
  }, 20_000);

  it("gives every session a TTL, restarted by each write", async () => {
    memory = await createHindsight({
      embedder: { kind: "hash" },
      dataDir: "memory://",
      working: { redisUrl: REDIS_URL, keyPrefix: prefix.keyPrefix, ttlSeconds: 120 },
    });
    await memory.workingAppend({ session_id: "ttl", role: "user", content: "expires" });
    const raw = new Redis(REDIS_URL);
    try {
      const key = `${prefix.keyPrefix}ttl`;
      await raw.expire(key, 5);
      await memory.workingAppend({ session_id: "ttl", role: "user", content: "refreshes" });
      const ttl = await raw.ttl(key);
      expect(ttl).toBeGreaterThan(100);
      expect(ttl).toBeLessThanOrEqual(120);
      await raw.del(key);
      expect((await errorOf(memory.workingGet({ session_id: "ttl" }))).code).toBe("NOT_FOUND");
    } finally {
      raw.disconnect();
    }
  });

  it("lists only this tenant's sessions when another tenant's are nested under the prefix", async () => {
    // Tenants share a Redis by nesting their prefix (`<prefix>tenant/<name>/`) under the default's.
    const base = `${prefix.keyPrefix}list*:`;
    const open = (keyPrefix: string) =>
      createHindsight({
        embedder: { kind: "hash" },
        dataDir: "memory://",
        working: { redisUrl: REDIS_URL, keyPrefix },
      });
    memory = await open(base);
    const tenant = await open(`${base}tenant/acme/`);
    try {
      await memory.workingAppend({ session_id: "mine", role: "user", content: "default tenant" });
      await tenant.workingAppend({ session_id: "theirs", role: "user", content: "acme" });
      await tenant.workingAppend({
        session_id: "agents",
        agent_id: "bot",
        role: "user",
        content: "acme's agent",
      });
      // A key the prefix would match as a glob is not a session of this store.
      const raw = new Redis(REDIS_URL);
      await raw.hset(`${prefix.keyPrefix}listing:stray`, "seq", 1);
      await raw.expire(`${prefix.keyPrefix}listing:stray`, 60);
      raw.disconnect();
      expect((await memory.workingList()).sessions.map((entry) => entry.session)).toEqual(["mine"]);
      const listed = await tenant.workingList();
      expect(listed.sessions.map((entry) => [entry.agent_id, entry.session])).toEqual([
        ["bot", "agents"],
        [null, "theirs"],
      ]);
    } finally {
      await tenant.close();
    }
  });
});
