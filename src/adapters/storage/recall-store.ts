/** The recall port over SQL: candidates for ranking (see candidates), and access counts. */
import type { CandidateQuery, CandidateSet, RecallStore } from "../../core/recall/ports.js";
import type { MemoryLayer } from "../../core/types.js";
import { findCandidates } from "./candidates.js";
import type { SqlDriver } from "./executor.js";
import { guard } from "./guard.js";
import { touch } from "./lifecycle-sql.js";

export class SqlRecallStore implements RecallStore {
  constructor(private readonly driver: SqlDriver) {}

  findCandidates(query: CandidateQuery): Promise<CandidateSet> {
    return guard("searching memories", () => findCandidates(this.driver, query));
  }

  recordAccess(layer: MemoryLayer, ids: readonly string[], at: Date): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    return guard("recording memory access", () => touch(this.driver, layer, ids, at));
  }
}
