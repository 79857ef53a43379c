/**
 * Storage over SQL, written once for PGlite and PostgreSQL: one adapter per port (see
 * core/ports `Storage`), all on the same driver, so a feature's transaction can span tables
 * that another port reads.
 */
import type { EmbedderIdentity, MigrationReport, Storage, StoreAdmin } from "../../core/ports.js";
import type { LayerCounts, MemoryLayer } from "../../core/types.js";
import type { WorkingMemoryStore } from "../../core/working/ports.js";
import { SqlWorkingStore } from "../working-stores/sql-store.js";
import { SqlAuditLog } from "./audit-sql.js";
import type { SqlDriver } from "./executor.js";
import { guard } from "./guard.js";
import { SqlKnowledgeStore } from "./knowledge-store.js";
import { SqlConsolidationStore, SqlLifecycleStore } from "./lifecycle-store.js";
import { SqlMemoryRecords } from "./memory-records.js";
import { migrate } from "./migrate.js";
import { SqlRecallStore } from "./recall-store.js";
import { TABLE } from "./rows.js";
import { SqlSharingStore } from "./sharing-store.js";
import { SqlTransferStore } from "./transfer-sql.js";
import { BulkImports, repairVectorIndexes } from "./vector-index.js";

export class SqlStoreAdmin implements StoreAdmin {
  constructor(
    private readonly driver: SqlDriver,
    private readonly bulk?: BulkImports,
  ) {}

  get description(): string {
    return this.driver.description;
  }

  migrate(embedder: EmbedderIdentity): Promise<MigrationReport> {
    return guard("migrating the database", async () => {
      const report = await migrate(this.driver, embedder);
      // An embedded store whose last process died during a restore (see BulkImports).
      if (this.driver.embedded) await repairVectorIndexes(this.driver);
      return report;
    });
  }

  counts(layer: MemoryLayer, agentId?: string): Promise<LayerCounts> {
    return guard("counting memories", async () => {
      const [row] = await this.driver.query<LayerCounts>(
        `SELECT count(*)::int AS total,
                count(*) FILTER (WHERE status = 'active')::int AS active,
                count(*) FILTER (WHERE status = 'archived')::int AS archived
         FROM ${TABLE[layer]}
         ${agentId === undefined ? "" : "WHERE agent_id = $1"}`,
        agentId === undefined ? [] : [agentId],
      );
      return row ?? { total: 0, active: 0, archived: 0 };
    });
  }

  ping(): Promise<void> {
    return guard("checking the database", async () => {
      await this.driver.query("SELECT 1");
    });
  }

  async close(): Promise<void> {
    try {
      await guard("building the vector index after an import", async () => this.bulk?.ready());
    } finally {
      await this.driver.close();
    }
  }
}

export class SqlStorage implements Storage {
  readonly admin: SqlStoreAdmin;
  readonly memories: SqlMemoryRecords;
  readonly recall: SqlRecallStore;
  readonly knowledge: SqlKnowledgeStore;
  readonly lifecycle: SqlLifecycleStore;
  readonly consolidation: SqlConsolidationStore;
  readonly sharing: SqlSharingStore;
  readonly audit: SqlAuditLog;
  readonly transfer: SqlTransferStore;

  constructor(private readonly driver: SqlDriver) {
    const bulk = driver.embedded ? new BulkImports(driver) : undefined;
    this.admin = new SqlStoreAdmin(driver, bulk);
    this.memories = new SqlMemoryRecords(driver);
    this.recall = new SqlRecallStore(driver, bulk);
    this.knowledge = new SqlKnowledgeStore(driver);
    this.lifecycle = new SqlLifecycleStore(driver);
    this.consolidation = new SqlConsolidationStore(driver);
    this.sharing = new SqlSharingStore(driver);
    this.audit = new SqlAuditLog(driver);
    this.transfer = new SqlTransferStore(driver, bulk);
  }

  /** Working memory kept in this database, for when no Redis is configured (migration 3). */
  workingStore(): WorkingMemoryStore {
    return new SqlWorkingStore(this.driver);
  }
}
