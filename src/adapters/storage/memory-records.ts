/** The memory records port over SQL: episodes written in bulk, rows of either layer by id. */
import type {
  ListQuery,
  MemoryCorrection,
  MemoryPage,
  MemoryRecords,
  NewEpisodic,
  StoredMemory,
} from "../../core/memories/ports.js";
import type { MemoryLayer } from "../../core/types.js";
import type { SqlDriver } from "./executor.js";
import { guard } from "./guard.js";
import {
  episodicColumns,
  INSERT_BATCH,
  insertRows,
  refreshPlannerStatistics,
} from "./insert-rows.js";
import { listMemories } from "./list-sql.js";
import { readMemories, TABLE } from "./rows.js";
import { updateCorpus } from "./search-index.js";
import { applyCorrection } from "./update-sql.js";

export class SqlMemoryRecords implements MemoryRecords {
  constructor(private readonly driver: SqlDriver) {}

  async insertEpisodic(rows: readonly NewEpisodic[]): Promise<void> {
    if (rows.length === 0) return;
    const size = await guard("storing episodic memories", () =>
      this.driver.transaction(async (tx) => {
        const inserted = new Set<string>();
        for (let start = 0; start < rows.length; start += INSERT_BATCH) {
          const batch = rows.slice(start, start + INSERT_BATCH);
          const written = await tx.query<{ id: string }>(
            ...insertRows(TABLE.episodic, batch.map(episodicColumns)),
          );
          for (const { id } of written) inserted.add(id);
        }
        const texts = rows.filter((row) => inserted.has(row.id)).map((row) => row.search_text);
        return updateCorpus(tx, "episodic", texts, 1);
      }),
    );
    await refreshPlannerStatistics(this.driver, "episodic", size);
  }

  getMany(layer: MemoryLayer, ids: readonly string[]): Promise<StoredMemory[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return guard("reading memories", () => readMemories(this.driver, layer, ids));
  }

  list(query: ListQuery): Promise<MemoryPage> {
    return guard("listing memories", () => listMemories(this.driver, query));
  }

  update(correction: MemoryCorrection): Promise<boolean> {
    return guard("correcting a memory", () =>
      this.driver.transaction((tx) => applyCorrection(tx, correction)),
    );
  }
}
