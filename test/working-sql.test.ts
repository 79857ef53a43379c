/**
 * The database fallback's time to live: without Redis to expire keys, sessions expire by the
 * injected clock, and every write starts the time again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHindsight, fixedClock, type Hindsight } from "../src/index.js";

describe("working memory in the database, expiring", () => {
  const clock = fixedClock(new Date("2026-01-01T00:00:00Z"));
  let memory: Hindsight;
  beforeAll(async () => {
    memory = await createHindsight(
      { dataDir: "memory://", embedder: { kind: "hash" }, working: { ttlSeconds: 60 } },
      { clock },
    );
  });
  afterAll(() => memory.close());

  const later = (seconds: number) => clock.set(new Date(clock.now().getTime() + seconds * 1000));

  it("keeps a session while it is written to and forgets it a TTL after the last write", async () => {
    await memory.workingAppend({ session_id: "ttl", role: "user", content: "first" });
    later(50);
    await memory.workingAppend({ session_id: "ttl", role: "user", content: "second" });
    later(50);
    expect((await memory.workingGet({ session_id: "ttl" })).items).toHaveLength(2);
    later(11);
    await expect(memory.workingGet({ session_id: "ttl" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    // An expired session starts afresh.
    const again = await memory.workingAppend({ session_id: "ttl", role: "user", content: "new" });
    expect(again.seq).toBe(1);
    expect(
      (await memory.workingGet({ session_id: "ttl" })).items.map((item) => item.content),
    ).toEqual(["new"]);
  });
});
