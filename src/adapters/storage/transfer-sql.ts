/**
 * Export and import over SQL. An export page reads a batch of memories with everything the
 * store keeps about them; an import writes a batch in one transaction: the rows (skipping ids
 * already stored), their search statistics, access counts, decay state, consolidation marks,
 * history, and the links — sources, superseded_by — to memories already in the store, in
 * whichever order the two sides of a link arrive.
 */
import type { ExportedGroup, ExportedMemory, ExportedTrust } from "../../core/transfer/format.js";
import type {
  ExportPosition,
  ImportCounts,
  ImportedMemory,
  KnowledgeLinks,
  TransferStore,
} from "../../core/transfer/ports.js";
import type { MemoryLayer } from "../../core/types.js";
import { isoDates } from "../../core/validate.js";
import type { SqlDriver, SqlExecutor } from "./executor.js";
import { guard } from "./guard.js";
import { INSERT_BATCH, insertRows } from "./insert-rows.js";
import { COLUMNS, joinsOf, LIFECYCLE_TABLE, TABLE, USAGE_TABLE } from "./rows.js";
import { termsOf, updateCorpus } from "./search-index.js";
import type { BulkImports } from "./vector-index.js";

const LAYERS: readonly MemoryLayer[] = ["episodic", "semantic"];

type Row = Record<string, unknown> & { id: string };

async function exportLayer(
  db: SqlExecutor,
  layer: MemoryLayer,
  after: string | undefined,
  limit: number,
  withVectors: boolean,
): Promise<ExportedMemory[]> {
  const rows = await db.query<Row>(
    `SELECT ${COLUMNS[layer]}, m.search_text, l.scored_at, l.decay_archived_at
       ${withVectors ? ", m.embedding::text AS embedding" : ""}
       ${layer === "episodic" ? ", c.consolidated_at" : ""}
     FROM ${TABLE[layer]} m ${joinsOf(layer)}
     ${layer === "episodic" ? "LEFT JOIN consolidated_episodes c ON c.episodic_id = m.id" : ""}
     ${after === undefined ? "" : "WHERE m.id > $2::uuid"}
     ORDER BY m.id LIMIT $1`,
    after === undefined ? [limit] : [limit, after],
  );
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const events = await db.query<{ memory_id: string } & Record<string, unknown>>(
    `SELECT memory_id::text AS memory_id, event, at, reason, details FROM memory_events
     WHERE memory_id = ANY($1::uuid[]) ORDER BY seq`,
    [ids],
  );
  const links =
    layer === "semantic"
      ? await db.query<{ kind: string; id: string; other: string }>(
          `SELECT 'source' AS kind, semantic_id::text AS id, episodic_id::text AS other
             FROM semantic_sources WHERE semantic_id = ANY($1::uuid[])
           UNION ALL
           SELECT 'supersedes', superseded_by::text, id::text FROM semantic_memories
             WHERE superseded_by = ANY($1::uuid[])
           ORDER BY 1, 2, 3`,
          [ids],
        )
      : [];
  return rows.map((row) => {
    const { embedding, ...fields } = row;
    const linked = (kind: string) =>
      links.filter((link) => link.kind === kind && link.id === row.id).map((link) => link.other);
    return {
      kind: "memory",
      layer,
      ...isoDates(fields),
      history: events
        .filter((event) => event.memory_id === row.id)
        .map(({ memory_id: _id, ...event }) => isoDates(event)),
      ...(layer === "semantic"
        ? { sources: linked("source"), supersedes: linked("supersedes") }
        : {}),
      ...(typeof embedding === "string" ? { embedding: JSON.parse(embedding) as number[] } : {}),
    } as unknown as ExportedMemory;
  });
}

/** The columns of a memory row an import writes; usage, decay and links go to their tables. */
function memoryColumns(memory: ImportedMemory): Record<string, unknown> {
  const shared = {
    id: memory.id,
    embedding: `[${memory.embedding.join(",")}]`,
    search_text: memory.search_text,
    terms: termsOf(memory.search_text),
    metadata: memory.metadata,
    tags: memory.tags,
    source: memory.source,
    subject: memory.subject,
    user_id: memory.user_id,
    agent_id: memory.agent_id,
    session_id: memory.session_id,
    confidence: memory.confidence,
    status: memory.status,
  };
  if (memory.layer === "episodic") {
    return {
      ...shared,
      occurred_at: memory.occurred_at,
      recorded_at: memory.recorded_at,
      task_type: memory.task_type,
      summary: memory.summary,
      outcome: memory.outcome,
      decay_score: memory.decay_score,
    };
  }
  return {
    ...shared,
    key_text: memory.key_text,
    value_text: memory.value_text,
    task_type: memory.task_type,
    created_at: memory.created_at,
    updated_at: memory.updated_at,
    valid_from: memory.valid_from,
    valid_to: memory.valid_to,
    shared_group: memory.shared_group,
    source_trust: memory.source_trust,
    review_status: memory.review_status,
    reviewed_by: memory.reviewed_by,
    reviewed_at: memory.reviewed_at,
  };
}

/**
 * Runs a statement that reads its rows from `$1`, a JSON array (`jsonb_array_elements($1)`),
 * after the other parameters; nothing when there are no rows: most imported memories have no
 * history, usage or links, and a statement over an empty array is a round trip for nothing.
 */
async function fromJsonRows(
  tx: SqlExecutor,
  sql: string,
  rows: readonly unknown[],
  ...params: unknown[]
): Promise<void> {
  if (rows.length > 0) await tx.query(sql, [JSON.stringify(rows), ...params]);
}

async function importLayer(
  tx: SqlExecutor,
  layer: MemoryLayer,
  memories: readonly ImportedMemory[],
): Promise<number> {
  const written = new Set<string>();
  for (let start = 0; start < memories.length; start += INSERT_BATCH) {
    const batch = memories.slice(start, start + INSERT_BATCH);
    const rows = await tx.query<{ id: string }>(
      ...insertRows(TABLE[layer], batch.map(memoryColumns)),
    );
    for (const { id } of rows) written.add(id);
  }
  const fresh = memories.filter((memory) => written.has(memory.id));
  if (fresh.length === 0) return 0;
  await updateCorpus(
    tx,
    layer,
    fresh.map((memory) => memory.search_text),
    1,
  );
  await fromJsonRows(
    tx,
    `INSERT INTO ${USAGE_TABLE[layer]} (id, access_count, last_accessed_at)
     SELECT (r->>'id')::uuid, (r->>'access_count')::int, (r->>'at')::timestamptz
     FROM jsonb_array_elements($1::jsonb) r`,
    fresh.flatMap((memory) => {
      const at = memory.layer === "episodic" ? memory.last_accessed_at : memory.last_used_at;
      return memory.access_count > 0 && at
        ? [{ id: memory.id, access_count: memory.access_count, at }]
        : [];
    }),
  );
  await fromJsonRows(
    tx,
    `INSERT INTO ${LIFECYCLE_TABLE[layer]} (id, decay_score, scored_at, decay_archived_at)
     SELECT (r->>'id')::uuid, (r->>'decay_score')::real, (r->>'scored_at')::timestamptz,
            (r->>'decay_archived_at')::timestamptz
     FROM jsonb_array_elements($1::jsonb) r`,
    fresh
      .filter((memory) => memory.scored_at !== null)
      .map(({ id, decay_score, scored_at, decay_archived_at }) => ({
        id,
        decay_score,
        scored_at,
        decay_archived_at,
      })),
  );
  await fromJsonRows(
    tx,
    `INSERT INTO memory_events (memory_id, layer, event, at, reason, details)
     SELECT (r->>'id')::uuid, $2, r->>'event', (r->>'at')::timestamptz, r->>'reason', r->'details'
     FROM jsonb_array_elements($1::jsonb) r`,
    fresh.flatMap((memory) => memory.history.map((event) => ({ id: memory.id, ...event }))),
    layer,
  );
  if (layer === "episodic") {
    await fromJsonRows(
      tx,
      `INSERT INTO consolidated_episodes (episodic_id, consolidated_at)
       SELECT (r->>'id')::uuid, (r->>'at')::timestamptz FROM jsonb_array_elements($1::jsonb) r
       ON CONFLICT DO NOTHING`,
      fresh.flatMap((memory) =>
        memory.layer === "episodic" && memory.consolidated_at
          ? [{ id: memory.id, at: memory.consolidated_at }]
          : [],
      ),
    );
  }
  return fresh.length;
}

/**
 * The links of knowledge to the episodes it was drawn from and to what it superseded, where
 * both ends are stored and the link is missing: links of knowledge written with this batch,
 * and of knowledge stored before whose other end had not arrived then. A superseded_by the
 * store has set already is kept.
 */
async function restoreLinks(tx: SqlExecutor, links: readonly KnowledgeLinks[]): Promise<void> {
  await fromJsonRows(
    tx,
    `INSERT INTO semantic_sources (semantic_id, episodic_id)
     SELECT (r->>'id')::uuid, (r->>'source')::uuid FROM jsonb_array_elements($1::jsonb) r
     WHERE EXISTS (SELECT 1 FROM episodic_memories e WHERE e.id = (r->>'source')::uuid)
       AND EXISTS (SELECT 1 FROM semantic_memories s WHERE s.id = (r->>'id')::uuid)
     ON CONFLICT DO NOTHING`,
    links.flatMap((memory) => memory.sources.map((source) => ({ id: memory.id, source }))),
  );
  await fromJsonRows(
    tx,
    `UPDATE semantic_memories m SET superseded_by = (r->>'by')::uuid
     FROM jsonb_array_elements($1::jsonb) r
     WHERE m.id = (r->>'old')::uuid AND m.superseded_by IS NULL
       AND EXISTS (SELECT 1 FROM semantic_memories n WHERE n.id = (r->>'by')::uuid)`,
    links.flatMap((memory) => [
      ...(memory.superseded_by ? [{ old: memory.id, by: memory.superseded_by }] : []),
      ...memory.supersedes.map((old) => ({ old, by: memory.id })),
    ]),
  );
}

export class SqlTransferStore implements TransferStore {
  /** `bulk`: the embedded store's, which leaves a new table's vector index out during a restore. */
  constructor(
    private readonly driver: SqlDriver,
    private readonly bulk?: BulkImports,
  ) {}

  exportMemories(
    after: ExportPosition | undefined,
    limit: number,
    withVectors: boolean,
  ): Promise<{ memories: ExportedMemory[]; next?: ExportPosition }> {
    return guard("exporting memories", async () => {
      const memories: ExportedMemory[] = [];
      for (const layer of LAYERS) {
        if (after && LAYERS.indexOf(layer) < LAYERS.indexOf(after.layer)) continue;
        const from = after?.layer === layer ? after.id : undefined;
        memories.push(
          ...(await exportLayer(this.driver, layer, from, limit - memories.length, withVectors)),
        );
        if (memories.length >= limit) break;
      }
      const last = memories.at(-1);
      return memories.length >= limit && last
        ? { memories, next: { layer: last.layer, id: last.id } }
        : { memories };
    });
  }

  exportSharing(): Promise<{ groups: ExportedGroup[]; trust: ExportedTrust[] }> {
    return guard("exporting groups and trust", async () => {
      const members = await this.driver.query<{
        group: string;
        agent_id: string;
        granted_at: Date;
      }>(
        `SELECT group_name AS "group", agent_id, granted_at FROM group_members
         ORDER BY group_name, agent_id`,
      );
      const groups = new Map<string, ExportedGroup>();
      for (const member of members) {
        const group = groups.get(member.group) ?? {
          kind: "group",
          group: member.group,
          members: [],
        };
        group.members.push({
          agent_id: member.agent_id,
          granted_at: member.granted_at.toISOString(),
        });
        groups.set(member.group, group);
      }
      const trust = await this.driver.query<
        Omit<ExportedTrust, "kind" | "updated_at"> & { updated_at: Date }
      >("SELECT source, trust, note, updated_at FROM source_trust ORDER BY source");
      return {
        groups: [...groups.values()],
        trust: trust.map((entry) => ({
          kind: "trust",
          ...entry,
          updated_at: entry.updated_at.toISOString(),
        })),
      };
    });
  }

  importRecords(
    memories: readonly ImportedMemory[],
    groups: readonly ExportedGroup[],
    trust: readonly ExportedTrust[],
    links: readonly KnowledgeLinks[],
  ): Promise<ImportCounts> {
    const dropped: MemoryLayer[] = [];
    return guard("importing memories", async () => {
      const counts = await this.driver.transaction(async (tx) => {
        let imported = 0;
        for (const layer of LAYERS) {
          const rows = memories.filter((memory) => memory.layer === layer);
          if (await this.bulk?.beforeWrite(tx, layer, rows.length)) dropped.push(layer);
          imported += await importLayer(tx, layer, rows);
        }
        await restoreLinks(tx, links);
        const members = await tx.query(
          `INSERT INTO group_members (group_name, agent_id, granted_at)
           SELECT r->>'group', r->>'agent_id', (r->>'granted_at')::timestamptz
           FROM jsonb_array_elements($1::jsonb) r ON CONFLICT DO NOTHING RETURNING agent_id`,
          [
            JSON.stringify(
              groups.flatMap((group) =>
                group.members.map((member) => ({ group: group.group, ...member })),
              ),
            ),
          ],
        );
        const trusted = await tx.query(
          `INSERT INTO source_trust (source, trust, note, updated_at)
           SELECT r->>'source', r->>'trust', r->>'note', (r->>'updated_at')::timestamptz
           FROM jsonb_array_elements($1::jsonb) r ON CONFLICT DO NOTHING RETURNING source`,
          [JSON.stringify(trust)],
        );
        return {
          imported,
          skipped: memories.length - imported,
          groups: members.length,
          trust: trusted.length,
        };
      });
      this.bulk?.committed(dropped);
      return counts;
    });
  }
}
