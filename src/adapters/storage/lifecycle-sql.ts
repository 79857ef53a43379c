/**
 * The memory lifecycle in SQL, written once for PGlite and PostgreSQL: decay and cold storage
 * (one statement per slice of a layer), restore, feedback, history, the neighbours
 * deduplication and superseding compare against, and the bookkeeping of consolidation.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import type { AuditedOperation } from "../../core/audit.js";
import type {
  DecayCounts,
  DecayParameters,
  DecayPreview,
  EpisodeGroup,
  FeedbackChange,
  FeedbackOutcome,
  GroupEpisode,
  MemoryEvent,
  MemoryEventKind,
  MemoryHistory,
  NeighbourQuery,
  RestoreOutcome,
  SemanticChange,
  SemanticNeighbour,
  SemanticScope,
} from "../../core/lifecycle/ports.js";
import type { JsonObject, MemoryLayer, MemoryStatus } from "../../core/types.js";
import { recordAudit } from "./audit-sql.js";
import { type SqlExecutor, toVectorLiteral, unplannedArray } from "./executor.js";
import { LIFECYCLE_TABLE, RECALLABLE_BY_OTHERS, TABLE, USAGE_TABLE } from "./rows.js";

/** When a memory was last written: decay counts from then when it was never recalled. */
const WRITTEN_AT: Record<MemoryLayer, string> = {
  episodic: "m.recorded_at",
  semantic: "m.updated_at",
};

/** Whole days from a timestamp to $1 (the maintenance time), never negative. */
const daysUntilNow = (from: string) =>
  `GREATEST(0, EXTRACT(EPOCH FROM ($1::timestamptz - ${from}))::float8 / 86400)`;

/**
 * Decay that cannot underflow. PostgreSQL raises "value out of range: underflow" for exp of a
 * large negative number, for a float8 product that rounds to 0, and for a float8 under
 * float4's range stored in a `real` column — all reached by a memory idle for millennia (or
 * `maintain --now 9999-12-31`), where the answer is simply 0. The exponent is floored at -60
 * and a result under 1e-30 is written as 0.
 */
const decayed = (exponent: string) => `exp(GREATEST(${exponent}, -60::float8))`;
const storable = (value: string) => `(CASE WHEN (${value}) < 1e-30 THEN 0 ELSE (${value}) END)`;

/**
 * Scores every memory of a layer and moves it between active and cold storage:
 *
 *   decay_score = confidence · exp(−λ · idle_days) + α · ln(1 + access_count)
 *
 * where idle_days counts from the last recall, or from when the memory was written. Semantic
 * confidence itself decays while the memory goes unused past a grace period, from the last
 * run on (so repeated runs never decay the same days twice). Active memories under the
 * threshold (or the minimum confidence) are archived; memories decay archived come back when
 * they have been recalled since and score above the threshold again. Nothing is deleted.
 */
export async function applyDecay(
  db: SqlExecutor,
  layer: MemoryLayer,
  p: DecayParameters,
  at: Date,
  sliceSize = DECAY_SLICE,
): Promise<DecayCounts> {
  const total = { ...NO_DECAY };
  for await (const counts of perSlice<DecayCounts>(db, layer, "apply", p, at, sliceSize)) {
    addCounts(total, counts);
  }
  return total;
}

/** The decay statement's row for each slice of the layer in turn. */
async function* perSlice<Row>(
  db: SqlExecutor,
  layer: MemoryLayer,
  mode: "apply" | "preview",
  p: DecayParameters,
  at: Date,
  sliceSize: number,
): AsyncGenerator<Row | undefined> {
  for await (const slice of slices(db, layer, sliceSize)) {
    const [row] = await db.query<Row>(decayStatement(layer, mode, slice), [
      ...decayParams(p, at),
      ...sliceParams(slice),
    ]);
    yield row;
  }
}

/** The layer's primary key cut into ranges of `size` ids, found one bound at a time. */
async function* slices(db: SqlExecutor, layer: MemoryLayer, size: number): AsyncGenerator<Slice> {
  let after: string | undefined;
  for (;;) {
    // PGlite runs a statement on this thread and resolves it at once, so statements chained by
    // await never give the event loop a turn: a recall arriving over HTTP would wait for every
    // slice. One turn between slices lets it in (at 100k: a `get` asked every 5 ms got through
    // between every two slices of a 1.6 s preview; without the turn, it waited for the whole).
    await nextTurn();
    const [next] = await db.query<{ id: string }>(
      `SELECT id FROM ${TABLE[layer]} ${after === undefined ? "" : "WHERE id > $1::uuid"}
       ORDER BY id OFFSET ${size - 1} LIMIT 1`,
      after === undefined ? [] : [after],
    );
    yield { ...(after === undefined ? {} : { after }), ...(next && { through: next.id }) };
    if (!next) return;
    after = next.id;
  }
}

function addCounts(total: DecayCounts, counts: DecayCounts | undefined): void {
  for (const key of Object.keys(total) as (keyof DecayCounts)[]) total[key] += counts?.[key] ?? 0;
}

/**
 * Memories one decay statement judges and writes: a run over a large store is a series of
 * statements, each its own transaction, so that a recall on the embedded store — one
 * connection — waits for one slice, not for the whole table (~2 s at 100 000 memories).
 */
export const DECAY_SLICE = 5000;

/** A range of ids, by primary key: after one (exclusive), through another (inclusive). */
interface Slice {
  after?: string;
  through?: string;
}

function sliceParams(slice: Slice): string[] {
  return [slice.after, slice.through].filter((id): id is string => id !== undefined);
}

/** The condition that keeps `column` within the slice, bound after the decay parameters. */
function inSlice(column: string, slice: Slice): string {
  const conditions: string[] = [];
  let param = DECAY_PARAMS;
  if (slice.after !== undefined) conditions.push(`${column} > $${++param}::uuid`);
  if (slice.through !== undefined) conditions.push(`${column} <= $${++param}::uuid`);
  return conditions.length > 0 ? conditions.join(" AND ") : "TRUE";
}

/**
 * What applyDecay would do, from the same judgement and in the same slices, writing nothing:
 * the counts and the memories it would archive and reactivate, lowest score first (at most
 * PREVIEW_IDS of each).
 */
export async function previewDecay(
  db: SqlExecutor,
  layer: MemoryLayer,
  p: DecayParameters,
  at: Date,
  sliceSize = DECAY_SLICE,
): Promise<DecayPreview> {
  const total = { ...NO_DECAY };
  const archived: ScoredId[] = [];
  const reactivated: ScoredId[] = [];
  for await (const preview of perSlice<SlicePreview>(db, layer, "preview", p, at, sliceSize)) {
    if (!preview) continue;
    addCounts(total, preview);
    lowestScores(archived, preview.archived_scores);
    lowestScores(reactivated, preview.reactivated_scores);
  }
  return {
    ...total,
    archived_ids: archived.map(([, id]) => id),
    reactivated_ids: reactivated.map(([, id]) => id),
  };
}

/** A memory's decay score and id, as a preview orders them. */
type ScoredId = [score: number, id: string];

interface SlicePreview extends DecayCounts {
  archived_scores: ScoredId[];
  reactivated_scores: ScoredId[];
}

/**
 * Merges a slice's lowest scores into those kept so far: lowest score first, then by id (the
 * order uuids sort in as lowercase text), the first PREVIEW_IDS kept.
 */
function lowestScores(kept: ScoredId[], slice: readonly ScoredId[]): void {
  kept.push(...slice);
  kept.sort(([a, idA], [b, idB]) => a - b || (idA < idB ? -1 : idA > idB ? 1 : 0));
  kept.length = Math.min(kept.length, PREVIEW_IDS);
}

const NO_DECAY: DecayCounts = { scored: 0, archived: 0, reactivated: 0, confidence_lowered: 0 };

/** Ids a decay preview lists per change: enough to look at, bounded for a large store. */
export const PREVIEW_IDS = 1000;

/** The decay statement's own parameters, in order: a slice's bounds are bound after them. */
type DecayParamValues = [
  at: Date,
  lambda: number,
  accessWeight: number,
  archiveThreshold: number,
  minConfidence: number,
  confidenceDecayPerDay: number,
  unusedGraceDays: number,
];

/** How many they are ($1 to $7): typed by the tuple, so a new parameter cannot be missed here. */
const DECAY_PARAMS: DecayParamValues["length"] = 7;

function decayParams(p: DecayParameters, at: Date): DecayParamValues {
  return [
    at,
    p.lambda,
    p.accessWeight,
    p.archiveThreshold,
    p.minConfidence,
    p.confidenceDecayPerDay,
    p.unusedGraceDays,
  ];
}

/**
 * The decay statement over a slice of the layer (all of it without bounds). A slice's bounds
 * are written into every table's join condition too, so each is read by a range of its primary
 * key: joined whole, a slice would read the whole usage and decay tables every time.
 */
function decayStatement(layer: MemoryLayer, mode: "apply" | "preview", slice: Slice = {}): string {
  const written = WRITTEN_AT[layer];
  const lastUse = `GREATEST(${written}, COALESCE(u.last_accessed_at, ${written}))`;
  const grace = "($7::float8 * interval '1 day')";
  const idleFrom = `GREATEST(COALESCE(l.scored_at, ${written}), ${lastUse}) `;
  // Episodic confidence does not decay: the caller passes a rate of 0.
  const confidence = `m.confidence * ${decayed(`-$6::float8 * ${daysUntilNow(`GREATEST(${idleFrom}, ${lastUse} + ${grace})`)}`)}`;
  const judgement = `WITH base AS MATERIALIZED (
       SELECT m.id, m.status, l.decay_archived_at, u.last_accessed_at,
              COALESCE(u.access_count, 0) AS access_count,
              m.confidence::float8 AS old_confidence,
              ${storable(`(${confidence})::float8`)} AS confidence,
              ${daysUntilNow(lastUse)} AS idle_days
       FROM ${TABLE[layer]} m
       LEFT JOIN ${USAGE_TABLE[layer]} u ON u.id = m.id AND ${inSlice("u.id", slice)}
       LEFT JOIN ${LIFECYCLE_TABLE[layer]} l ON l.id = m.id AND ${inSlice("l.id", slice)}
       WHERE ${inSlice("m.id", slice)}
     ), scored AS MATERIALIZED (
       SELECT b.*, ${storable(`b.confidence * ${decayed("-$2::float8 * b.idle_days")}
                   + $3::float8 * ln(1 + b.access_count)`)} AS score
       FROM base b
     ), judged AS MATERIALIZED (
       SELECT s.*, CASE
         WHEN s.status = 'active' AND (s.score < $4::float8 OR s.confidence < $5::float8)
           THEN 'archived'
         WHEN s.status = 'archived' AND s.decay_archived_at IS NOT NULL
              AND s.last_accessed_at > s.decay_archived_at
              AND s.score >= $4::float8 AND s.confidence >= $5::float8
           THEN 'reactivated'
       END AS change
       FROM scored s
     )`;
  const counts = `count(*)::int AS scored,
            count(*) FILTER (WHERE change = 'archived')::int AS archived,
            count(*) FILTER (WHERE change = 'reactivated')::int AS reactivated,
            count(*) FILTER (WHERE confidence < old_confidence - 0.001)::int AS confidence_lowered`;
  if (mode === "preview") {
    // [score, id] pairs as JSON: a float8 keeps its digits there, and the pairs merge in JS.
    const ids = (change: string) =>
      `COALESCE((SELECT json_agg(json_build_array(score, id) ORDER BY score, id) FROM (
         SELECT score, id FROM judged WHERE change = '${change}' ORDER BY score, id
         LIMIT ${PREVIEW_IDS}) lowest), '[]'::json)`;
    return `${judgement}
     SELECT ${counts}, ${ids("archived")} AS archived_scores,
            ${ids("reactivated")} AS reactivated_scores
     FROM judged`;
  }
  return `${judgement}, lifecycle AS (
       INSERT INTO ${LIFECYCLE_TABLE[layer]} (id, decay_score, scored_at, decay_archived_at)
       SELECT id, score, $1::timestamptz, CASE change WHEN 'archived' THEN $1::timestamptz
                                               WHEN 'reactivated' THEN NULL
                                               ELSE decay_archived_at END
       FROM judged
       ON CONFLICT (id) DO UPDATE SET decay_score = excluded.decay_score,
         scored_at = GREATEST(${LIFECYCLE_TABLE[layer]}.scored_at, excluded.scored_at),
         decay_archived_at = excluded.decay_archived_at
     ), memories AS (
       UPDATE ${TABLE[layer]} m
       SET status = CASE j.change WHEN 'archived' THEN 'archived'
                                  WHEN 'reactivated' THEN 'active' ELSE m.status END,
           confidence = LEAST(m.confidence, j.confidence)
       FROM judged j
       WHERE j.id = m.id AND ${inSlice("m.id", slice)}
         AND (j.change IS NOT NULL OR j.confidence < j.old_confidence - 0.001)
     ), events AS (
       INSERT INTO memory_events (memory_id, layer, event, at, reason, details)
       SELECT id, '${layer}', change, $1::timestamptz,
              CASE WHEN change = 'reactivated'
                     THEN 'recalled again after decay archived it; its decay score is back above the threshold'
                   WHEN confidence < $5::float8 THEN 'confidence fell below the minimum'
                   ELSE 'decay score fell below the archive threshold' END,
              jsonb_build_object('decay_score', round(score::numeric, 4),
                                 'confidence', round(confidence::numeric, 4),
                                 'idle_days', round(idle_days::numeric, 1),
                                 'access_count', access_count,
                                 'threshold', $4::float8)
       FROM judged WHERE change IS NOT NULL
     )
     SELECT ${counts} FROM judged`;
}

/** Events that destroy or rewrite a memory, or undo that: they go to the audit log too. */
const AUDITED_EVENTS: Partial<Record<MemoryEventKind, AuditedOperation>> = {
  merged: "merge",
  superseded: "supersede",
  restored: "restore",
  updated: "update",
  confirmed: "confirm",
  rejected: "reject",
};

export async function recordEvents(
  db: SqlExecutor,
  layer: MemoryLayer,
  ids: readonly string[],
  event: MemoryEventKind,
  at: Date,
  reason: string,
  details: JsonObject = {},
  /** The group (shared memory) the audit entries concern, for `audit --target`. */
  target: string | null = null,
): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    `INSERT INTO memory_events (memory_id, layer, event, at, reason, details)
     SELECT id, $2, $3, $4, $5, $6 FROM unnest($1::uuid[]) AS t(id)`,
    [ids, layer, event, at, reason, details],
  );
  const operation = AUDITED_EVENTS[event];
  if (operation) {
    await recordAudit(
      db,
      ids.map((memory_id) => ({ at, operation, memory_id, layer, target, reason, details })),
    );
  }
}

/** One more access at this time: the memory was recalled, or used, or asked back. */
export async function touch(
  db: SqlExecutor,
  layer: MemoryLayer,
  ids: readonly string[],
  at: Date,
): Promise<void> {
  // Selecting the ids from the memory table skips any deleted in the meantime.
  await db.query(
    `INSERT INTO ${USAGE_TABLE[layer]} (id, access_count, last_accessed_at)
     SELECT id, 1, $2 FROM ${TABLE[layer]} WHERE id = ANY(${unplannedArray("$1", "uuid")})
     ON CONFLICT (id) DO UPDATE SET access_count = ${USAGE_TABLE[layer]}.access_count + 1,
       last_accessed_at = GREATEST(${USAGE_TABLE[layer]}.last_accessed_at, excluded.last_accessed_at)`,
    [ids, at],
  );
}

/** Which layer holds a memory, and its status; null when neither does. */
export async function locate(
  db: SqlExecutor,
  id: string,
): Promise<{ layer: MemoryLayer; status: MemoryStatus; confidence: number } | null> {
  const [row] = await db.query<{ layer: MemoryLayer; status: MemoryStatus; confidence: number }>(
    `SELECT 'episodic' AS layer, status, confidence FROM episodic_memories WHERE id = $1
     UNION ALL
     SELECT 'semantic', status, confidence FROM semantic_memories WHERE id = $1`,
    [id],
  );
  return row ?? null;
}

/** Marks a memory archived by decay or low confidence, so recall can bring it back. */
async function markDecayArchived(
  db: SqlExecutor,
  layer: MemoryLayer,
  id: string,
  at: Date | null,
): Promise<void> {
  await db.query(
    `INSERT INTO ${LIFECYCLE_TABLE[layer]} (id, decay_score, scored_at, decay_archived_at)
     SELECT id, confidence, $2, $3 FROM ${TABLE[layer]} WHERE id = $1
     ON CONFLICT (id) DO UPDATE SET decay_archived_at = excluded.decay_archived_at`,
    [id, at ?? new Date(0), at],
  );
}

/**
 * Brings an archived memory back: active, one more access now (so the next maintenance does
 * not archive it again at once) and, for knowledge, confidence at least the minimum.
 */
export async function restore(
  db: SqlExecutor,
  id: string,
  minConfidence: number,
  at: Date,
): Promise<RestoreOutcome | null> {
  const found = await locate(db, id);
  if (!found) return null;
  const { layer } = found;
  await db.query(
    `UPDATE ${TABLE[layer]} SET status = 'active', confidence = GREATEST(confidence, $2) WHERE id = $1`,
    [id, minConfidence],
  );
  await db.query(`UPDATE ${LIFECYCLE_TABLE[layer]} SET decay_archived_at = NULL WHERE id = $1`, [
    id,
  ]);
  await touch(db, layer, [id], at);
  if (found.status === "archived") {
    await recordEvents(db, layer, [id], "restored", at, "restored from cold storage on request", {
      confidence: Math.max(found.confidence, minConfidence),
    });
  }
  return { id, layer, previous_status: found.status, status: "active" };
}

/**
 * Knowledge that a memory superseded becomes current again when that memory turns out wrong
 * (rejected on review): a poisoned fact must not leave the truth it replaced buried. Recorded
 * as a restore in its history and the audit log. (Deleting a memory for good brings nothing
 * back: the user removed it, not a reviewer who judged it false.)
 */
export async function reinstateSuperseded(
  db: SqlExecutor,
  id: string,
  at: Date,
  reason: string,
): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `UPDATE semantic_memories SET valid_to = NULL, superseded_by = NULL
     WHERE superseded_by = $1 RETURNING id`,
    [id],
  );
  const ids = rows.map((row) => row.id);
  await recordEvents(db, "semantic", ids, "restored", at, reason, { superseded_by: id });
  return ids;
}

/** Soft forgetting, in the memory's history; it stays archived until restored by hand. */
export async function recordForgotten(
  db: SqlExecutor,
  layer: MemoryLayer,
  id: string,
  at: Date,
): Promise<void> {
  await db.query(`UPDATE ${LIFECYCLE_TABLE[layer]} SET decay_archived_at = NULL WHERE id = $1`, [
    id,
  ]);
  await recordEvents(db, layer, [id], "archived", at, "forgotten on request (soft)");
}

export async function applyFeedback(
  db: SqlExecutor,
  change: FeedbackChange,
): Promise<FeedbackOutcome | null> {
  const found = await locate(db, change.id);
  if (!found) return null;
  const { layer } = found;
  const [row] = await db.query<{ confidence: number }>(
    `UPDATE ${TABLE[layer]} SET confidence = LEAST(1, GREATEST(0, confidence + $2::float8))
     WHERE id = $1 RETURNING confidence::float8 AS confidence`,
    [change.id, change.delta],
  );
  const confidence = row?.confidence ?? found.confidence;
  if (change.useful) await touch(db, layer, [change.id], change.at);
  await recordEvents(
    db,
    layer,
    [change.id],
    "feedback",
    change.at,
    change.reason ?? (change.useful ? "reported useful" : "reported not useful"),
    { useful: change.useful, previous_confidence: found.confidence, confidence },
  );
  let status = found.status;
  if (status === "active" && confidence < change.minConfidence) {
    await db.query(`UPDATE ${TABLE[layer]} SET status = 'archived' WHERE id = $1`, [change.id]);
    await markDecayArchived(db, layer, change.id, change.at);
    await recordEvents(
      db,
      layer,
      [change.id],
      "archived",
      change.at,
      "confidence fell below the minimum",
      {
        confidence,
        minimum: change.minConfidence,
      },
    );
    status = "archived";
  }
  return { id: change.id, layer, previous_confidence: found.confidence, confidence, status };
}

export async function history(db: SqlExecutor, id: string): Promise<MemoryHistory | null> {
  const found = await locate(db, id);
  if (!found) return null;
  const events = await db.query<MemoryEvent>(
    `SELECT event, at, reason, details FROM memory_events WHERE memory_id = $1 ORDER BY seq`,
    [id],
  );
  const related = await db.query<{ kind: string; id: string }>(
    `SELECT 'source' AS kind, episodic_id AS id FROM semantic_sources WHERE semantic_id = $1
     UNION ALL
     SELECT 'consolidated_into', semantic_id FROM semantic_sources WHERE episodic_id = $1
     UNION ALL
     SELECT 'superseded_by', superseded_by FROM semantic_memories
       WHERE id = $1 AND superseded_by IS NOT NULL
     UNION ALL
     SELECT 'supersedes', id FROM semantic_memories WHERE superseded_by = $1`,
    [id],
  );
  const of = (kind: string) => related.filter((row) => row.kind === kind).map((row) => row.id);
  return {
    id,
    layer: found.layer,
    status: found.status,
    events: events.map((event) => ({ ...event, at: new Date(event.at) })),
    sources: of("source"),
    consolidated_into: of("consolidated_into"),
    superseded_by: of("superseded_by")[0] ?? null,
    supersedes: of("supersedes"),
  };
}

/** The SQL of migration 2's key_norm, applied to a parameter. */
const normaliseKey = (param: string) =>
  `lower(btrim(regexp_replace(${param}::text, '[[:space:][:punct:]]+', ' ', 'g')))`;

/**
 * Scope columns compared null-safely: no scope is a scope of its own. Knowledge shared with a
 * group is compared with the group's confirmed knowledge whoever wrote it; quarantined
 * knowledge is never merged into nor superseded.
 */
const SAME_SCOPE = `m.status = 'active' AND m.valid_to IS NULL
  AND m.task_type IS NOT DISTINCT FROM $3 AND m.user_id IS NOT DISTINCT FROM $4
  AND m.shared_group IS NOT DISTINCT FROM $7
  AND ($7::text IS NOT NULL OR m.agent_id IS NOT DISTINCT FROM $5)
  AND ${RECALLABLE_BY_OTHERS}`;

/** The nearest current memories of the scope, plus any with the same key. */
export function semanticNeighbours(
  db: SqlExecutor,
  query: NeighbourQuery,
): Promise<SemanticNeighbour[]> {
  return db.query<SemanticNeighbour>(
    `SELECT m.id, m.key_text, m.value_text, m.confidence::float8 AS confidence, m.tags, m.metadata,
            (1 - (m.embedding <=> $1::vector))::float8 AS similarity,
            m.key_norm = ${normaliseKey("$2")} AS same_key, m.source_trust, m.agent_id, m.source
     FROM semantic_memories m
     WHERE m.id IN (
       (SELECT m.id FROM semantic_memories m WHERE ${SAME_SCOPE}
        ORDER BY m.embedding <=> $1::vector LIMIT $6)
       UNION
       (SELECT m.id FROM semantic_memories m WHERE ${SAME_SCOPE}
          AND m.key_norm = ${normaliseKey("$2")} LIMIT $6))
     ORDER BY similarity DESC`,
    [
      toVectorLiteral(query.embedding),
      query.key_text,
      query.task_type,
      query.user_id,
      query.agent_id,
      query.limit,
      query.shared_group,
    ],
  );
}

/** Ends the validity of the memories a new one supersedes, and records both sides. */
export async function recordCreation(
  db: SqlExecutor,
  id: string,
  change: SemanticChange,
): Promise<void> {
  const superseded =
    change.supersedes && change.supersedes.length > 0
      ? await db.query<{ id: string }>(
          `UPDATE semantic_memories SET valid_to = $2, superseded_by = $3
           WHERE id = ANY($1::uuid[]) AND valid_to IS NULL RETURNING id`,
          [change.supersedes, change.at, id],
        )
      : [];
  const supersededIds = superseded.map((row) => row.id);
  await recordEvents(db, "semantic", [id], "created", change.at, change.reason, {
    ...change.details,
    ...(supersededIds.length > 0 ? { supersedes: supersededIds } : {}),
  });
  await recordEvents(
    db,
    "semantic",
    supersededIds,
    "superseded",
    change.at,
    "contradicted by a newer fact",
    { superseded_by: id, ...(change.details?.rule ? { rule: change.details.rule } : {}) },
  );
}

export async function mergedRequest(db: SqlExecutor, requestId: string): Promise<string | null> {
  const [row] = await db.query<{ memory_id: string }>(
    `SELECT memory_id FROM memory_events
     WHERE event = 'merged' AND details->>'request_id' = $1 LIMIT 1`,
    [requestId],
  );
  return row?.memory_id ?? null;
}

export function pendingEpisodeGroups(
  db: SqlExecutor,
  minEpisodes: number,
  taskType: string | undefined,
  limit: number,
): Promise<EpisodeGroup[]> {
  return db.query<EpisodeGroup>(
    `SELECT e.task_type, e.user_id, e.agent_id, count(*)::int AS pending
     FROM episodic_memories e
     WHERE e.status = 'active' AND ($2::text IS NULL OR e.task_type = $2)
       AND NOT EXISTS (SELECT 1 FROM consolidated_episodes c WHERE c.episodic_id = e.id)
     GROUP BY e.task_type, e.user_id, e.agent_id
     HAVING count(*) >= $1
     ORDER BY pending DESC, e.task_type LIMIT $3`,
    [minEpisodes, taskType ?? null, limit],
  );
}

export function groupEpisodes(
  db: SqlExecutor,
  group: SemanticScope & { task_type: string },
  limit: number,
): Promise<GroupEpisode[]> {
  return db.query<GroupEpisode>(
    `SELECT m.id, m.occurred_at, m.summary, m.outcome,
            EXISTS (SELECT 1 FROM consolidated_episodes c WHERE c.episodic_id = m.id) AS consolidated
     FROM episodic_memories m
     WHERE m.status = 'active' AND m.task_type = $1
       AND m.user_id IS NOT DISTINCT FROM $2 AND m.agent_id IS NOT DISTINCT FROM $3
     ORDER BY consolidated, m.occurred_at DESC, m.id LIMIT $4`,
    [group.task_type, group.user_id, group.agent_id, limit],
  );
}

export async function markConsolidated(
  db: SqlExecutor,
  episodeIds: readonly string[],
  into: readonly string[],
  at: Date,
): Promise<void> {
  const marked = await db.query<{ episodic_id: string }>(
    `INSERT INTO consolidated_episodes (episodic_id, consolidated_at)
     SELECT e.id, $2 FROM episodic_memories e WHERE e.id = ANY($1::uuid[])
     ON CONFLICT DO NOTHING RETURNING episodic_id`,
    [episodeIds, at],
  );
  await recordEvents(
    db,
    "episodic",
    marked.map((row) => row.episodic_id),
    "consolidated",
    at,
    into.length > 0 ? "consolidated into semantic memory" : "consolidated; no pattern kept",
    { into: [...into] },
  );
}
