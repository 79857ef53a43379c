/**
 * The lifecycle jobs `hindsight serve` runs: maintenance and consolidation of every store it
 * serves (one per tenant), each skipped (not queued) while another server on the same database
 * is running it. One store failing does not keep the others from their turn.
 */
import type { MemoryApi } from "../memory-api.js";
import type { Logger } from "../ports.js";
import { type Scheduler, startScheduler } from "./scheduler.js";
import type { ScheduleSettings } from "./settings.js";

export type LifecycleJobs = Pick<MemoryApi, "maintain" | "consolidate">;

/** The stores to look after, asked again at every tick (tenants may be added). */
export type StoresToMaintain = () => Iterable<LifecycleJobs | Promise<LifecycleJobs>>;

async function eachStore(
  stores: StoresToMaintain,
  job: (memory: LifecycleJobs) => Promise<void>,
): Promise<void> {
  const failures: unknown[] = [];
  let count = 0;
  for (const store of stores()) {
    count++;
    try {
      await job(await store);
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) {
    const first = failures[0] instanceof Error ? failures[0].message : String(failures[0]);
    throw new Error(`${failures.length} of ${count} stores failed; first: ${first}`);
  }
}

export function startLifecycleSchedule(
  stores: StoresToMaintain,
  settings: ScheduleSettings,
  logger: Logger,
): Scheduler {
  return startScheduler(
    [
      {
        name: "maintain",
        intervalMs: settings.maintainIntervalSeconds * 1000,
        run: () =>
          eachStore(stores, async (memory) => {
            const result = await memory.maintain({}, { ifIdle: true });
            if (result.skipped) logger.debug("maintenance skipped: running elsewhere");
          }),
      },
      {
        name: "consolidate",
        intervalMs: settings.consolidateIntervalSeconds * 1000,
        run: () =>
          eachStore(stores, async (memory) => {
            const result = await memory.consolidate({}, { ifIdle: true });
            if (result.skipped) logger.debug("consolidation skipped: running elsewhere");
          }),
      },
    ],
    logger,
  );
}
