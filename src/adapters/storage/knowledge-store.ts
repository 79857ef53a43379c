/**
 * The knowledge port over SQL: a semantic memory inserted with its sources and creation
 * event, or merged into the one it repeats — each in one transaction.
 */
import { notFound } from "../../core/errors.js";
import type {
  KnowledgeStore,
  NeighbourQuery,
  SemanticChange,
  SemanticMerge,
  SemanticNeighbour,
} from "../../core/lifecycle/ports.js";
import type { NewSemantic } from "../../core/memories/ports.js";
import { type SqlDriver, type SqlExecutor, toVectorLiteral } from "./executor.js";
import { guard } from "./guard.js";
import { insertRows, refreshPlannerStatistics, semanticColumns } from "./insert-rows.js";
import * as lifecycle from "./lifecycle-sql.js";
import { TABLE } from "./rows.js";
import { termsOf, updateCorpus } from "./search-index.js";

export class SqlKnowledgeStore implements KnowledgeStore {
  constructor(private readonly driver: SqlDriver) {}

  async insertSemantic(row: NewSemantic, change?: SemanticChange): Promise<boolean> {
    const size = await guard("storing a semantic memory", () =>
      this.driver.transaction(async (tx) => {
        const written = await tx.query(...insertRows(TABLE.semantic, [semanticColumns(row)]));
        // An id stored before (a retried request) is skipped, not stored twice.
        if (written.length === 0) return undefined;
        const size = await updateCorpus(tx, "semantic", [row.search_text], 1);
        if (row.source_episode_ids.length > 0) {
          await linkSources(tx, row.id, row.source_episode_ids);
        }
        await lifecycle.recordCreation(
          tx,
          row.id,
          change ?? { at: row.created_at, reason: "stored" },
        );
        return size;
      }),
    );
    if (size) await refreshPlannerStatistics(this.driver, "semantic", size);
    return size !== undefined;
  }

  mergeSemantic(merge: SemanticMerge): Promise<boolean> {
    return guard("merging semantic memories", () =>
      this.driver.transaction(async (tx) => {
        const [old] = await tx.query<{ search_text: string }>(
          "SELECT search_text FROM semantic_memories WHERE id = $1 FOR UPDATE",
          [merge.target_id],
        );
        if (!old) return false;
        await tx.query(
          `UPDATE semantic_memories SET key_text = $2, value_text = $3, embedding = $4,
             search_text = $5, terms = $6, confidence = $7, tags = $8, metadata = $9,
             updated_at = $10
           WHERE id = $1`,
          [
            merge.target_id,
            merge.key_text,
            merge.value_text,
            toVectorLiteral(merge.embedding),
            merge.search_text,
            termsOf(merge.search_text),
            merge.confidence,
            merge.tags,
            merge.metadata,
            merge.at,
          ],
        );
        if (old.search_text !== merge.search_text) {
          await updateCorpus(tx, "semantic", [old.search_text], -1);
          await updateCorpus(tx, "semantic", [merge.search_text], 1);
        }
        if (merge.source_episode_ids.length > 0) {
          await linkSources(tx, merge.target_id, merge.source_episode_ids);
        }
        await lifecycle.recordEvents(
          tx,
          "semantic",
          [merge.target_id],
          "merged",
          merge.at,
          merge.reason,
          merge.details,
        );
        return true;
      }),
    );
  }

  semanticNeighbours(query: NeighbourQuery): Promise<SemanticNeighbour[]> {
    return guard("finding similar knowledge", () =>
      lifecycle.semanticNeighbours(this.driver, query),
    );
  }

  mergedRequest(requestId: string): Promise<string | null> {
    return guard("checking for a merged request", () =>
      lifecycle.mergedRequest(this.driver, requestId),
    );
  }
}

async function linkSources(tx: SqlExecutor, semanticId: string, episodeIds: readonly string[]) {
  const linked = await tx.query<{ episodic_id: string }>(
    `WITH wanted AS (SELECT e.id FROM episodic_memories e WHERE e.id = ANY($2::uuid[])),
     linked AS (INSERT INTO semantic_sources (semantic_id, episodic_id)
       SELECT $1, id FROM wanted ON CONFLICT DO NOTHING)
     SELECT id AS episodic_id FROM wanted`,
    [semanticId, episodeIds],
  );
  if (linked.length < new Set(episodeIds).size) {
    const found = new Set(linked.map((row) => row.episodic_id));
    const missing = episodeIds.find((id) => !found.has(id));
    // Thrown inside the transaction, so the semantic memory is not written either.
    throw notFound("source_episode_ids", missing ?? "");
  }
}
