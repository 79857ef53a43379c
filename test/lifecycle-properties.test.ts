/**
 * Properties of soft forgetting, with fast-check: whatever the memories, their ages, their
 * recalls and the moments maintenance runs, decay never deletes anything, and everything it
 * (or a soft forget) archived can be brought back.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "../src/adapters/clock.js";
import type { MemoryService } from "../src/core/service.js";
import { BACKENDS } from "./support/backends.js";
import { type Clock, DAY, openLifecycleService } from "./support/lifecycle.js";

const START = new Date("2025-01-01T00:00:00Z").getTime();

const scenario = fc.record({
  episodes: fc.array(
    fc.record({
      ageDays: fc.integer({ min: 0, max: 400 }),
      recalls: fc.integer({ min: 0, max: 5 }),
      confidence: fc.double({ min: 0.05, max: 1, noNaN: true }),
      forgotten: fc.boolean(),
    }),
    { minLength: 1, maxLength: 12 },
  ),
  facts: fc.array(
    fc.record({
      confidence: fc.double({ min: 0.05, max: 1, noNaN: true }),
      useful: fc.array(fc.boolean(), { maxLength: 4 }),
    }),
    { maxLength: 4 },
  ),
  /** Days after START at which maintenance runs, in any order. */
  runs: fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 4 }),
});

describe.each(BACKENDS)("soft forgetting on $name", (backend) => {
  let memory: MemoryService;
  let clock: Clock;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    if (backend.skip) return;
    const fresh = await backend.scratch();
    cleanup = fresh.cleanup;
    clock = fixedClock(new Date(START));
    memory = await openLifecycleService(fresh.location, { clock });
  });
  afterAll(async () => {
    await memory?.close();
    await cleanup?.();
  });

  async function counts() {
    const stats = await memory.stats();
    return { episodic: stats.episodic.total, semantic: stats.semantic.total };
  }

  it.skipIf(backend.skip !== undefined)(
    "never deletes, and restore brings back everything archived",
    async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async ({ episodes, facts, runs }) => {
          clock.set(new Date(START));
          const stored: string[] = [];
          for (const [index, episode] of episodes.entries()) {
            clock.set(new Date(START - episode.ageDays * DAY));
            const { id } = await memory.storeEpisodic({
              task_type: "property",
              summary: `episode ${index} of a generated scenario`,
              outcome: "success",
              confidence: episode.confidence,
            });
            stored.push(id);
          }
          for (const [index, f] of facts.entries()) {
            clock.set(new Date(START));
            const { id } = await memory.storeSemantic({
              key_text: `generated fact ${stored[0]} ${index}`,
              value_text: `value ${index}`,
              confidence: f.confidence,
            });
            stored.push(id);
            for (const useful of f.useful) await memory.feedback({ memory_id: id, useful });
          }
          clock.set(new Date(START));
          for (const [index, episode] of episodes.entries()) {
            for (let r = 0; r < episode.recalls; r++) {
              await memory.feedback({ memory_id: stored[index]!, useful: true });
            }
            if (episode.forgotten) await memory.forget({ memory_id: stored[index]! });
          }
          const before = await counts();
          for (const day of runs) {
            const result = await memory.maintain({
              now: new Date(START + day * DAY).toISOString(),
            });
            expect(result.scored).toBe(before.episodic + before.semantic);
            // Decay never deletes: every memory is still there, with its text.
            expect(await counts()).toEqual(before);
          }
          const rows = [
            ...(await memory.storage.memories.getMany("episodic", stored)),
            ...(await memory.storage.memories.getMany("semantic", stored)),
          ];
          expect(rows.map((row) => row.id).sort()).toEqual([...stored].sort());
          // Reversible: restoring brings each archived memory back to active.
          for (const row of rows.filter((r) => r.status === "archived")) {
            const restored = await memory.restore({ memory_id: row.id });
            expect(restored.status).toBe("active");
          }
          const back = [
            ...(await memory.storage.memories.getMany("episodic", stored)),
            ...(await memory.storage.memories.getMany("semantic", stored)),
          ];
          expect(back.every((row) => row.status === "active")).toBe(true);
          // Restored memories are not archived again by a maintenance run at the same moment.
          const last = Math.max(...runs);
          clock.set(new Date(START + last * DAY));
          for (const id of stored) await memory.restore({ memory_id: id });
          const after = await memory.maintain({ now: new Date(START + last * DAY).toISOString() });
          expect(after.archived).toBe(0);
        }),
        { numRuns: backend.name === "pglite" ? 15 : 10 },
      );
    },
    120_000,
  );
});
