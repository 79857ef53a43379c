/** The recall port over SQL: candidates for ranking (see candidates), and access counts. */
import type { CandidateQuery, CandidateSet, RecallStore } from "../../core/recall/ports.js";
import type { MemoryLayer } from "../../core/types.js";
import { findCandidateSets } from "./candidates.js";
import type { SqlDriver } from "./executor.js";
import { guard } from "./guard.js";
import { touch } from "./lifecycle-sql.js";
import type { BulkImports } from "./vector-index.js";

export class SqlRecallStore implements RecallStore {
  /** `bulk`: the embedded store's, whose vector indexes a restore may have left to build. */
  constructor(
    private readonly driver: SqlDriver,
    private readonly bulk?: BulkImports,
  ) {}

  async findCandidates(query: CandidateQuery): Promise<CandidateSet> {
    const [set] = await this.findCandidateSets([query]);
    return set!;
  }

  findCandidateSets(queries: readonly CandidateQuery[]): Promise<CandidateSet[]> {
    return guard("searching memories", async () => {
      // A recall after a restore builds the index once rather than scan every vector.
      if (this.bulk?.pending) await this.bulk.ready();
      return findCandidateSets(this.driver, queries);
    });
  }

  recordAccess(layer: MemoryLayer, ids: readonly string[], at: Date): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    return guard("recording memory access", () => touch(this.driver, layer, ids, at));
  }
}
