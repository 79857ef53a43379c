/**
 * The lifecycle and consolidation ports over SQL (the statements are in lifecycle-sql): what
 * changes a memory after it is written, each change with its history and audit entry in the
 * same transaction.
 */
import type {
  ConsolidationStore,
  DecayCounts,
  DecayParameters,
  DecayPreview,
  EpisodeGroup,
  Exclusive,
  FeedbackChange,
  FeedbackOutcome,
  GroupEpisode,
  LifecycleStore,
  MemoryHistory,
  RestoreOutcome,
  SemanticScope,
} from "../../core/lifecycle/ports.js";
import type { ForgetResult, MemoryLayer } from "../../core/types.js";
import { recordAudit } from "./audit-sql.js";
import type { SqlDriver } from "./executor.js";
import { guard } from "./guard.js";
import * as lifecycle from "./lifecycle-sql.js";
import { TABLE } from "./rows.js";
import { updateCorpus } from "./search-index.js";

export class SqlLifecycleStore implements LifecycleStore {
  constructor(private readonly driver: SqlDriver) {}

  applyDecay(layer: MemoryLayer, parameters: DecayParameters, at: Date): Promise<DecayCounts> {
    return guard("applying decay", () => lifecycle.applyDecay(this.driver, layer, parameters, at));
  }

  previewDecay(layer: MemoryLayer, parameters: DecayParameters, at: Date): Promise<DecayPreview> {
    return guard("previewing decay", () =>
      lifecycle.previewDecay(this.driver, layer, parameters, at),
    );
  }

  restore(id: string, minConfidence: number, at: Date): Promise<RestoreOutcome | null> {
    return guard("restoring a memory", () =>
      this.driver.transaction((tx) => lifecycle.restore(tx, id, minConfidence, at)),
    );
  }

  applyFeedback(change: FeedbackChange): Promise<FeedbackOutcome | null> {
    return guard("recording feedback", () =>
      this.driver.transaction((tx) => lifecycle.applyFeedback(tx, change)),
    );
  }

  forget(
    id: string,
    mode: "soft" | "hard",
    at: Date,
    reason?: string,
  ): Promise<ForgetResult | null> {
    return guard("forgetting a memory", () =>
      this.driver.transaction(async (tx) => {
        for (const layer of ["episodic", "semantic"] as const) {
          const sql =
            mode === "hard"
              ? `DELETE FROM ${TABLE[layer]} WHERE id = $1 RETURNING search_text`
              : `UPDATE ${TABLE[layer]} SET status = 'archived' WHERE id = $1 RETURNING search_text`;
          const rows = await tx.query<{ search_text: string }>(sql, [id]);
          if (rows.length === 0) continue;
          if (mode === "hard") {
            await updateCorpus(tx, layer, [rows[0]!.search_text], -1);
            await tx.query("DELETE FROM memory_events WHERE memory_id = $1", [id]);
          } else {
            await lifecycle.recordForgotten(tx, layer, id, at);
          }
          await recordAudit(tx, [
            {
              at,
              operation: mode === "hard" ? "delete" : "forget",
              memory_id: id,
              layer,
              reason: reason ?? (mode === "hard" ? "deleted on request" : "forgotten on request"),
              details: { mode },
            },
          ]);
          return { id, layer, mode, status: mode === "hard" ? "deleted" : "archived" } as const;
        }
        return null;
      }),
    );
  }

  history(id: string): Promise<MemoryHistory | null> {
    return guard("reading a memory's history", () => lifecycle.history(this.driver, id));
  }

  exclusive<T>(job: string, wait: boolean, fn: () => Promise<T>): Promise<Exclusive<T>> {
    // Only taking the lock is a storage failure; what the job throws passes through as is.
    return this.driver.exclusive(job, wait, fn);
  }
}

export class SqlConsolidationStore implements ConsolidationStore {
  constructor(private readonly driver: SqlDriver) {}

  pendingEpisodeGroups(
    minEpisodes: number,
    taskType: string | undefined,
    limit: number,
  ): Promise<EpisodeGroup[]> {
    return guard("finding episodes to consolidate", () =>
      lifecycle.pendingEpisodeGroups(this.driver, minEpisodes, taskType, limit),
    );
  }

  groupEpisodes(
    group: SemanticScope & { task_type: string },
    limit: number,
  ): Promise<GroupEpisode[]> {
    return guard("reading episodes to consolidate", () =>
      lifecycle.groupEpisodes(this.driver, group, limit),
    );
  }

  markConsolidated(episodeIds: readonly string[], into: readonly string[], at: Date) {
    return guard("recording consolidation", () =>
      this.driver.transaction((tx) => lifecycle.markConsolidated(tx, episodeIds, into, at)),
    );
  }
}
