/** Shared memory's SQL (migration 6), shared by PGlite and PostgreSQL. */
import type { MembershipChange, ReviewRequest } from "../../core/sharing/ports.js";
import type {
  Group,
  ReviewResult,
  ReviewStatus,
  SourceTrust,
  TrustLevel,
} from "../../core/sharing/types.js";
import type { SemanticMemory } from "../../core/types.js";
import { recordAudit } from "./audit-sql.js";
import type { SqlExecutor } from "./executor.js";
import { recordEvents, reinstateSuperseded } from "./lifecycle-sql.js";
import { COLUMNS, joinsOf } from "./rows.js";

interface MemberRow {
  group_name: string;
  agent_id: string;
  granted_at: Date;
}

export async function listGroups(db: SqlExecutor, group?: string): Promise<Group[]> {
  const rows = await db.query<MemberRow>(
    `SELECT group_name, agent_id, granted_at FROM group_members
     WHERE $1::text IS NULL OR group_name = $1 ORDER BY group_name, agent_id`,
    [group ?? null],
  );
  const groups = new Map<string, Group>();
  for (const row of rows) {
    const entry = groups.get(row.group_name) ?? { group: row.group_name, members: [] };
    entry.members.push({ agent_id: row.agent_id, granted_at: row.granted_at });
    groups.set(row.group_name, entry);
  }
  return [...groups.values()];
}

export async function groupsOf(db: SqlExecutor, agent: string): Promise<string[]> {
  const rows = await db.query<{ group_name: string }>(
    "SELECT group_name FROM group_members WHERE agent_id = $1",
    [agent],
  );
  return rows.map((row) => row.group_name);
}

async function groupAfter(db: SqlExecutor, group: string): Promise<Group> {
  const [found] = await listGroups(db, group);
  return found ?? { group, members: [] };
}

/** Grants in one statement; agents already members keep their first grant time. */
export async function grantMembers(db: SqlExecutor, change: MembershipChange): Promise<Group> {
  const added = await db.query<{ agent_id: string }>(
    `INSERT INTO group_members (group_name, agent_id, granted_at)
     SELECT $1, agent_id, $3 FROM unnest($2::text[]) AS t(agent_id)
     ON CONFLICT DO NOTHING RETURNING agent_id`,
    [change.group, [...new Set(change.agent_ids)], change.at],
  );
  if (added.length > 0) {
    await recordAudit(db, [membershipEntry("grant", change, added)]);
  }
  return groupAfter(db, change.group);
}

export async function revokeMembers(db: SqlExecutor, change: MembershipChange): Promise<Group> {
  const removed = await db.query<{ agent_id: string }>(
    `DELETE FROM group_members WHERE group_name = $1 AND agent_id = ANY($2::text[])
     RETURNING agent_id`,
    [change.group, [...change.agent_ids]],
  );
  if (removed.length > 0) {
    await recordAudit(db, [membershipEntry("revoke", change, removed)]);
  }
  return groupAfter(db, change.group);
}

function membershipEntry(
  operation: "grant" | "revoke",
  change: MembershipChange,
  agents: readonly { agent_id: string }[],
) {
  return {
    at: change.at,
    operation,
    memory_id: null,
    layer: null,
    target: change.group,
    reason: change.reason,
    details: { agent_ids: agents.map((row) => row.agent_id).sort() },
  };
}

export async function setSourceTrust(db: SqlExecutor, entry: SourceTrust): Promise<SourceTrust> {
  const [previous] = await db.query<{ trust: TrustLevel }>(
    "SELECT trust FROM source_trust WHERE source = $1",
    [entry.source],
  );
  const [row] = await db.query<SourceTrust>(
    `INSERT INTO source_trust (source, trust, note, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (source) DO UPDATE SET trust = $2, note = $3, updated_at = $4
     RETURNING source, trust, note, updated_at`,
    [entry.source, entry.trust, entry.note, entry.updated_at],
  );
  await recordAudit(db, [
    {
      at: entry.updated_at,
      operation: "trust",
      memory_id: null,
      layer: null,
      target: entry.source,
      reason: entry.note ?? `trust set to ${entry.trust}`,
      details: { trust: entry.trust, previous_trust: previous?.trust ?? null },
    },
  ]);
  return row!;
}

export async function trustOf(db: SqlExecutor, source: string): Promise<TrustLevel | undefined> {
  const [row] = await db.query<{ trust: TrustLevel }>(
    "SELECT trust FROM source_trust WHERE source = $1",
    [source],
  );
  return row?.trust;
}

export function listTrust(db: SqlExecutor): Promise<SourceTrust[]> {
  return db.query<SourceTrust>(
    "SELECT source, trust, note, updated_at FROM source_trust ORDER BY source",
  );
}

export function listQuarantined(
  db: SqlExecutor,
  query: { group?: string; limit: number },
): Promise<SemanticMemory[]> {
  return db.query<SemanticMemory>(
    `SELECT ${COLUMNS.semantic} FROM semantic_memories m ${joinsOf("semantic")}
     WHERE m.review_status = 'quarantined' AND ($1::text IS NULL OR m.shared_group = $1)
     ORDER BY m.created_at, m.id LIMIT $2`,
    [query.group ?? null, query.limit],
  );
}

const STATUS_AFTER: Record<ReviewRequest["decision"], "confirmed" | "rejected"> = {
  confirm: "confirmed",
  reject: "rejected",
};

/** Confirms or rejects a shared memory; a rejected one is archived as well. */
export async function reviewShared(
  db: SqlExecutor,
  request: ReviewRequest,
): Promise<ReviewResult | "not_shared" | "rejected" | undefined> {
  const [found] = await db.query<{
    shared_group: string | null;
    review_status: ReviewStatus | null;
    reviewed_by: string | null;
    reviewed_at: Date | null;
    valid_to: Date | null;
  }>(
    `SELECT shared_group, review_status, reviewed_by, reviewed_at, valid_to FROM semantic_memories
     WHERE id = $1 FOR UPDATE`,
    [request.id],
  );
  if (!found) return undefined;
  if (found.shared_group === null) return "not_shared";
  const status = STATUS_AFTER[request.decision];
  // Rejected knowledge was archived and what it superseded brought back: confirming it now
  // would leave two current answers. It is stored again instead, and reviewed afresh.
  if (found.review_status === "rejected" && status === "confirmed") return "rejected";
  if (found.review_status === status) {
    return {
      id: request.id,
      decision: request.decision,
      review_status: status,
      shared_group: found.shared_group,
      reviewed_by: found.reviewed_by,
      reviewed_at: found.reviewed_at,
      changed: false,
    };
  }
  await db.query(
    `UPDATE semantic_memories SET review_status = $2, reviewed_by = $3, reviewed_at = $4,
       status = CASE WHEN $2 = 'rejected' THEN 'archived' ELSE status END
     WHERE id = $1`,
    [request.id, status, request.reviewer, request.at],
  );
  await recordEvents(
    db,
    "semantic",
    [request.id],
    status,
    request.at,
    request.reason,
    {
      reviewer: request.reviewer,
      group: found.shared_group,
      previous_status: found.review_status,
    },
    found.shared_group,
  );
  // Only while it is current: once something newer superseded it, that is the answer.
  if (status === "rejected" && found.valid_to === null) {
    await reinstateSuperseded(
      db,
      request.id,
      request.at,
      "what superseded it was rejected on review",
    );
  }
  return {
    id: request.id,
    decision: request.decision,
    review_status: status,
    shared_group: found.shared_group,
    reviewed_by: request.reviewer,
    reviewed_at: request.at,
    changed: true,
  };
}
