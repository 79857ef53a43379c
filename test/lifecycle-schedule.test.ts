/**
 * Scheduled lifecycle jobs across server instances sharing one database: only one instance
 * runs a job at a time, the others skip it, and a held job lock never blocks a manual run for
 * good.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLifecycleSchedule } from "../src/core/lifecycle/schedule.js";
import type { Storage } from "../src/core/ports.js";
import type { MemoryService } from "../src/core/service.js";
import { silentLogger } from "../src/index.js";
import { BACKENDS } from "./support/backends.js";
import { openLifecycleService } from "./support/lifecycle.js";
import { until } from "./support/until.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Records, from inside the job lock, when each run of each job held it. */
function observed(name: string, runs: { who: string; job: string; from: number; to: number }[]) {
  return (storage: Storage): Storage => ({
    ...storage,
    lifecycle: Object.assign(Object.create(storage.lifecycle) as Storage["lifecycle"], {
      exclusive: <T>(job: string, wait: boolean, fn: () => Promise<T>) =>
        storage.lifecycle.exclusive(job, wait, async () => {
          const from = performance.now();
          try {
            const value = await fn();
            // Long enough that a broken lock would show as overlapping runs.
            await sleep(15);
            return value;
          } finally {
            runs.push({ who: name, job, from, to: performance.now() });
          }
        }),
    }),
  });
}

describe.each(BACKENDS)("scheduled jobs on $name", (backend) => {
  const runs: { who: string; job: string; from: number; to: number }[] = [];
  let a: MemoryService;
  let b: MemoryService;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    if (backend.skip) return;
    const fresh = await backend.fresh();
    cleanup = fresh.cleanup;
    // Two instances on one PostgreSQL; PGlite has one owner process, so one service twice.
    a = await openLifecycleService(fresh.location, { wrapStorage: observed("a", runs) });
    b =
      backend.name === "postgres"
        ? await openLifecycleService(fresh.location, { wrapStorage: observed("b", runs) })
        : a;
    await a.storeEpisodic({ task_type: "deploy", summary: "Deployed", outcome: "success" });
  });
  afterAll(async () => {
    if (b !== a) await b?.close();
    await a?.close();
    await cleanup?.();
  });

  describe.skipIf(backend.skip !== undefined)("with the backend available", () => {
    it("skips a job another instance holds, and runs it once the lock is free", async () => {
      let release!: () => void;
      let entered!: () => void;
      const holding = new Promise<void>((r) => (entered = r));
      const held = a.storage.lifecycle.exclusive("maintain", true, () => {
        entered();
        return new Promise<void>((r) => (release = r));
      });
      // Held once its function runs: not after a fixed pause a busy machine can overrun.
      await holding;
      expect(await b.maintain({}, { ifIdle: true })).toMatchObject({ skipped: true, scored: 0 });
      expect(await b.consolidate({}, { ifIdle: true })).not.toHaveProperty("skipped");
      release();
      expect(await held).toEqual({ ran: true, value: undefined });
      const free = await b.maintain({}, { ifIdle: true });
      expect(free.skipped).toBeUndefined();
      expect(free.scored).toBe(1);
    });

    it("runs each job on one instance at a time when both schedules tick", async () => {
      runs.length = 0;
      const settings = { maintainIntervalSeconds: 0.02, consolidateIntervalSeconds: 0.03 };
      const schedules = [a, b].map((memory) =>
        startLifecycleSchedule(() => [memory], settings, silentLogger),
      );
      // Until each job has run a few times, on both instances where there are two: a count,
      // not a pause, so a busy machine only takes longer.
      const ranOften = (job: string) => runs.filter((run) => run.job === job).length > 2;
      const whoRan = () => new Set(runs.map((run) => run.who)).size;
      await until(
        "both jobs to run several times",
        () => ranOften("maintain") && ranOften("consolidate") && whoRan() === (a === b ? 1 : 2),
        120_000,
      );
      await Promise.all(schedules.map((schedule) => schedule.stop()));
      for (const job of ["maintain", "consolidate"]) {
        const of = runs.filter((run) => run.job === job).sort((x, y) => x.from - y.from);
        expect(of.length, job).toBeGreaterThan(2);
        for (let i = 1; i < of.length; i++) {
          expect(of[i]!.from, `${job} runs overlap`).toBeGreaterThanOrEqual(of[i - 1]!.to);
        }
      }
      if (backend.name === "postgres") {
        expect(new Set(runs.map((run) => run.who))).toEqual(new Set(["a", "b"]));
      }
    });
  });
});
