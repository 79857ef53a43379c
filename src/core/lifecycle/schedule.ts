/**
 * The lifecycle jobs `hindsight serve` runs: maintenance and consolidation, each skipped
 * (not queued) while another server on the same database is running it.
 */
import type { MemoryApi } from "../memory-api.js";
import type { Logger } from "../ports.js";
import { type Scheduler, startScheduler } from "./scheduler.js";
import type { ScheduleSettings } from "./settings.js";

export function startLifecycleSchedule(
  memory: Pick<MemoryApi, "maintain" | "consolidate">,
  settings: ScheduleSettings,
  logger: Logger,
): Scheduler {
  return startScheduler(
    [
      {
        name: "maintain",
        intervalMs: settings.maintainIntervalSeconds * 1000,
        run: async () => {
          const result = await memory.maintain({}, { ifIdle: true });
          if (result.skipped) logger.debug("maintenance skipped: running elsewhere");
        },
      },
      {
        name: "consolidate",
        intervalMs: settings.consolidateIntervalSeconds * 1000,
        run: async () => {
          const result = await memory.consolidate({}, { ifIdle: true });
          if (result.skipped) logger.debug("consolidation skipped: running elsewhere");
        },
      },
    ],
    logger,
  );
}
