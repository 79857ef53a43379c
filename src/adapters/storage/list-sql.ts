/**
 * Listing memories: one page, newest first, of the memories passing a filter, with how many
 * pass it. The order — listing time, layer, id, all descending — is total, so a page ends at
 * one position and the next starts right after it (keyset pagination: no offset scans, and
 * memories written meanwhile neither repeat nor shift a page). Every time is written from a
 * JavaScript Date, so a position's millisecond time is exact.
 */
import type { ListQuery, MemoryPage, StoredMemory } from "../../core/memories/ports.js";
import type { ListStatus } from "../../core/schemas.js";
import type { MemoryLayer } from "../../core/types.js";
import type { SqlExecutor } from "./executor.js";
import { filterConditions, MEMORY_TIME } from "./filter-sql.js";
import { readMemories, TABLE } from "./rows.js";

/** Knowledge in effect: neither replaced by a newer fact nor waiting for or refused review. */
const CURRENT_KNOWLEDGE =
  "m.valid_to IS NULL AND COALESCE(m.review_status, 'confirmed') = 'confirmed'";

/** The status condition of a layer; null when no memory of the layer can have it. */
function statusCondition(layer: MemoryLayer, status: ListStatus): string | null {
  const semantic = layer === "semantic";
  switch (status) {
    case "all":
      return "TRUE";
    case "active":
      return semantic ? `m.status = 'active' AND ${CURRENT_KNOWLEDGE}` : "m.status = 'active'";
    case "archived":
      return "m.status = 'archived'";
    case "quarantined":
    case "rejected":
      return semantic ? `m.review_status = '${status}'` : null;
    case "superseded":
      return semantic ? "m.valid_to IS NOT NULL" : null;
  }
}

function whereOf(
  layer: MemoryLayer,
  { filter }: ListQuery,
  bind: (value: unknown) => string,
): string | null {
  const status = statusCondition(layer, filter.status);
  if (status === null) return null;
  // A listing names an agent's own memories (an agent key lists its own): no group sharing.
  const agent = filter.agent_id === undefined ? [] : [`m.agent_id = ${bind(filter.agent_id)}`];
  return [status, ...agent, ...filterConditions(layer, filter, bind)].join(" AND ");
}

export async function listMemories(db: SqlExecutor, query: ListQuery): Promise<MemoryPage> {
  const params: unknown[] = [];
  const bind = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const branches: { layer: MemoryLayer; where: string }[] = [];
  for (const layer of query.layers) {
    const where = whereOf(layer, query, bind);
    if (where !== null) branches.push({ layer, where });
  }
  if (branches.length === 0) return { memories: [], total: 0 };
  // The filters' parameters come first: the count alone needs no others.
  const filterParams = params.length;
  const after = query.after;
  const position = after
    ? `(${bind(after.at)}::timestamptz, ${bind(after.layer)}::text, ${bind(after.id)}::uuid)`
    : undefined;
  // One more than the page: whether it is there says if a next page exists.
  const limit = bind(query.limit + 1);
  const pages = branches.map(
    ({ layer, where }) => `(SELECT '${layer}'::text AS layer, m.id, ${MEMORY_TIME[layer]} AS at
       FROM ${TABLE[layer]} m
       WHERE ${where}${position ? ` AND (${MEMORY_TIME[layer]}, '${layer}'::text, m.id) < ${position}` : ""}
       ORDER BY ${MEMORY_TIME[layer]} DESC, m.id DESC LIMIT ${limit})`,
  );
  const counts = branches.map(
    ({ layer, where }) => `(SELECT count(*) FROM ${TABLE[layer]} m WHERE ${where})`,
  );
  const rows = await db.query<{ layer: MemoryLayer; id: string; at: Date; total: number }>(
    `SELECT page.layer, page.id::text AS id, page.at, (${counts.join(" + ")})::int AS total
     FROM (${pages.join(" UNION ALL ")}) page
     ORDER BY page.at DESC, page.layer DESC, page.id DESC LIMIT ${limit}`,
    params,
  );
  const total =
    rows[0]?.total ??
    (
      await db.query<{ total: number }>(
        `SELECT (${counts.join(" + ")})::int AS total`,
        params.slice(0, filterParams),
      )
    )[0]!.total;
  const page = rows.slice(0, query.limit);
  const memories = await fullRows(db, page);
  const last = page.at(-1);
  return rows.length > query.limit && last
    ? { memories, total, next: { at: last.at, layer: last.layer, id: last.id } }
    : { memories, total };
}

/** The page's full rows, in the page's order. */
async function fullRows(
  db: SqlExecutor,
  page: readonly { layer: MemoryLayer; id: string }[],
): Promise<StoredMemory[]> {
  const found = new Map<string, StoredMemory>();
  for (const layer of ["episodic", "semantic"] as const) {
    const ids = page.filter((entry) => entry.layer === layer).map((entry) => entry.id);
    for (const row of await readMemories(db, layer, ids)) found.set(`${layer}:${row.id}`, row);
  }
  return page.flatMap((entry) => found.get(`${entry.layer}:${entry.id}`) ?? []);
}
