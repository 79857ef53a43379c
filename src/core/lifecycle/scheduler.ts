/**
 * Periodic jobs inside a long-running server (maintenance, consolidation). A failed run is
 * logged and tried again at the next tick, never thrown; a run still going at the next tick is
 * not started twice; timers never keep the process alive, and stop() waits for a run in
 * flight. Exclusion across processes is the job's own (see LifecycleStore.exclusive).
 */
import type { Logger } from "../ports.js";

export interface ScheduledJob {
  name: string;
  /** Milliseconds between runs; 0 turns the job off. */
  intervalMs: number;
  run(): Promise<void>;
}

export interface Scheduler {
  /** The jobs that are on. */
  readonly jobs: readonly string[];
  stop(): Promise<void>;
}

export function startScheduler(jobs: readonly ScheduledJob[], logger: Logger): Scheduler {
  const timers: ReturnType<typeof setInterval>[] = [];
  const running = new Map<string, Promise<void>>();
  let stopped = false;
  const active = jobs.filter((job) => job.intervalMs > 0);
  for (const job of active) {
    const tick = () => {
      if (stopped || running.has(job.name)) return;
      const run = job
        .run()
        .catch((error: unknown) => {
          logger.error(`scheduled ${job.name} failed; retrying at the next tick`, {
            error: error instanceof Error ? error.message : String(error),
          });
        })
        .finally(() => running.delete(job.name));
      running.set(job.name, run);
    };
    const timer = setInterval(tick, job.intervalMs);
    timer.unref();
    timers.push(timer);
  }
  return {
    jobs: active.map((job) => job.name),
    async stop() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      await Promise.all(running.values());
    },
  };
}
