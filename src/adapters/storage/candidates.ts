/**
 * The candidate query, one statement: nearest neighbours by vector, plus memories sharing the
 * query's more selective words, all passing the filters, with the BM25 corpus statistics of
 * the query's words. Only what ranking needs is returned; full rows are fetched for the
 * winners alone.
 */
import type { CorpusStats } from "../../core/recall/bm25.js";
import type {
  Candidate,
  CandidateFilter,
  CandidateQuery,
  CandidateSet,
} from "../../core/recall/ports.js";
import type { MemoryLayer, Outcome } from "../../core/types.js";
import { type SqlExecutor, toVectorLiteral, unplannedArray } from "./executor.js";
import { filterConditions } from "./filter-sql.js";
import { RECALLABLE_BY_OTHERS, TABLE, USAGE_TABLE } from "./rows.js";

/**
 * Keyword candidates come from query words found in at most this many memories: very common
 * words (stop words in any language) would pull in a large share of the table. They still
 * count in every candidate's BM25 score. When every query word is that common, memories
 * holding the two rarest together are taken instead.
 */
const MAX_KEYWORD_DOCUMENT_FREQUENCY = 1000;

/**
 * Which semantic memories a recall may see. An agent sees its own, quarantined ones included,
 * and the confirmed knowledge of every group it has been granted; a recall for no agent sees
 * all confirmed and private knowledge. Quarantined knowledge reaches nobody else, rejected
 * knowledge nobody at all.
 */
function sharedVisibility(agentId: string | undefined, bind: (value: unknown) => string): string {
  if (agentId === undefined) return RECALLABLE_BY_OTHERS;
  const agent = bind(agentId);
  return `((m.agent_id = ${agent} AND COALESCE(m.review_status, 'confirmed') <> 'rejected')
    OR (m.review_status = 'confirmed' AND m.shared_group IN
        (SELECT g.group_name FROM group_members g WHERE g.agent_id = ${agent})))`;
}

function whereClause(
  layer: MemoryLayer,
  filter: CandidateFilter,
  bind: (value: unknown) => string,
): string {
  const conditions: string[] = [];
  if (!filter.include_archived) conditions.push("m.status = 'active'");
  if (layer === "semantic") conditions.push(sharedVisibility(filter.agent_id, bind));
  else if (filter.agent_id !== undefined) conditions.push(`m.agent_id = ${bind(filter.agent_id)}`);
  conditions.push(...filterConditions(layer, filter, bind));
  // Superseded knowledge stays in history but is not recalled as current.
  if (layer === "semantic") conditions.push("m.valid_to IS NULL");
  return conditions.length > 0 ? conditions.join(" AND ") : "TRUE";
}

/**
 * Keyword candidates best first, by an approximate BM25 computed from what the GIN index row
 * holds: the idf of each query term the memory has, term frequency taken as 1, its number of
 * distinct terms as its length (k1 1.2, b 0.75). The exact score is computed in ranking; this
 * only decides which memories reach it when more match than the limit.
 */
const keywordOrder = (
  n: number,
) => `(SELECT sum(q.idf) FROM query_terms_${n} q WHERE q.term = ANY(m.terms))
  / (1 + 1.2 * (0.25 + 0.75 * cardinality(m.terms) / (SELECT average_length FROM corpus_${n})))`;

/**
 * The rarest selective query words whose memories are gathered for that ordering, up to the
 * limit for each word: the work stays bounded however many memories share a common word
 * (ordering every match was slower at p90 on the 10k benchmark corpus; this is as fast as an
 * unordered fetch, docs/evaluation.md), and the memories holding the rarest words — the ones
 * BM25 ranks highest — are all seen.
 */
const GATHERED_TERMS = 8;

/**
 * What every branch returns for a candidate: the columns ranking reads, taken from the row the
 * branch already visits, so the statement does not look each candidate up again by id.
 */
function branchColumns(layer: MemoryLayer, vector: string): string {
  const eventTime = layer === "episodic" ? "m.occurred_at" : "m.updated_at";
  const outcome = layer === "episodic" ? "m.outcome" : "NULL::text";
  const own = layer === "episodic" ? "m.summary" : "m.value_text";
  return `m.id, m.search_text, ${eventTime} AS event_time, ${outcome} AS outcome,
    1 - (m.embedding <=> ${vector}) AS vector_similarity, ${own} AS own_text`;
}

/** The keyword branches of part `n`, returning `columns` and each memory's terms. */
function keywordBranches(
  n: number,
  table: string,
  where: string,
  limit: string,
  columns: string,
): string {
  return `
    UNION ALL
    (SELECT m.* FROM (
       SELECT DISTINCT ON (hit.id) hit.*
       FROM (SELECT term FROM query_terms_${n}
             WHERE df > 0 AND df <= ${MAX_KEYWORD_DOCUMENT_FREQUENCY}
             ORDER BY df, term LIMIT ${GATHERED_TERMS}) rare_term
       CROSS JOIN LATERAL (
         SELECT ${columns}, m.terms FROM ${table} m
         WHERE ${where} AND m.terms @> ARRAY[rare_term.term] LIMIT ${limit}) hit
     ) m
     ORDER BY ${keywordOrder(n)} DESC, m.id LIMIT ${limit})
    UNION ALL
    (SELECT ${columns}, m.terms FROM ${table} m
     WHERE ${where} AND cardinality((SELECT rare FROM selective_${n})) = 0
       AND cardinality((SELECT rarest FROM selective_${n})) > 0
       AND m.terms @> (SELECT rarest FROM selective_${n}) LIMIT ${limit})`;
}

interface CandidateRow {
  part: number;
  id: string;
  search_text: string;
  event_time: Date;
  access_count: number;
  outcome: Outcome | null;
  vector_similarity: number;
  asks: boolean;
  documents: number;
  tokens: number;
  df: Record<string, number> | null;
}

/**
 * One query's share of the statement: its common table expressions (named with `_n`) and the
 * SELECT of its candidates, tagged with `n`.
 */
function part(
  n: number,
  query: CandidateQuery,
  bind: (value: unknown) => string,
): { ctes: string; select: string } {
  const vector = `${bind(toVectorLiteral(query.embedding))}::vector`;
  // The limit and the layer are written into the statement, not bound: with a bound LIMIT the
  // planner must guess how many rows a generic plan returns, and its guess made the generic plan
  // look twice as costly, so every run was planned again (~0.9 ms of a 3.5 ms statement).
  if (!Number.isSafeInteger(query.limit) || query.limit < 1) {
    throw new RangeError(`candidate limit must be a positive integer, not ${query.limit}`);
  }
  const limit = String(query.limit);
  const layer = `'${query.layer}'`;
  const keywords = bind(query.keywords);
  const where = whereClause(query.layer, query.filter, bind);
  const table = TABLE[query.layer];
  const columns = branchColumns(query.layer, vector);
  // Memories from a period the query names, nearest first, even when other words dominate.
  const windowBranch =
    query.window && query.layer === "episodic"
      ? `UNION ALL
         (SELECT ${columns}, NULL::text[] AS terms FROM ${table} m WHERE ${where}
            AND m.occurred_at BETWEEN ${bind(query.window.from)} AND ${bind(query.window.to)}
          ORDER BY m.embedding <=> ${vector} LIMIT ${limit})`
      : "";
  const ctes = `corpus_${n} AS MATERIALIZED (
       SELECT COALESCE(max(documents), 0)::float8 AS documents,
              GREATEST(COALESCE(max(tokens)::float8 / NULLIF(max(documents), 0), 1), 1) AS average_length
       FROM search_stats WHERE layer = ${layer}
     ), query_terms_${n} AS MATERIALIZED (
       SELECT term, df,
              ln(1 + ((SELECT documents FROM corpus_${n}) - df + 0.5) / (df + 0.5)) AS idf
       FROM search_terms WHERE layer = ${layer} AND term = ANY(${unplannedArray(keywords, "text")})
     ), selective_${n} AS MATERIALIZED (
       SELECT COALESCE(array_agg(term) FILTER (WHERE df <= ${MAX_KEYWORD_DOCUMENT_FREQUENCY}), '{}') AS rare,
              COALESCE((SELECT array_agg(term) FROM
                (SELECT term FROM query_terms_${n} WHERE df > 0 ORDER BY df LIMIT 2) rarest), '{}') AS rarest
       FROM query_terms_${n} WHERE df > 0
     ), hits_${n} AS (
       (SELECT ${columns}, NULL::text[] AS terms FROM ${table} m WHERE ${where} ORDER BY m.embedding <=> ${vector} LIMIT ${limit})
       ${query.keywords.length > 0 ? keywordBranches(n, table, where, limit, columns) : ""}
       ${windowBranch}
     )`;
  const select = `SELECT ${n} AS part, m.id, m.search_text,
            ${query.layer === "episodic" ? "m.event_time" : "COALESCE(u.last_accessed_at, m.event_time)"} AS event_time,
            m.outcome, COALESCE(u.access_count, 0) AS access_count, m.vector_similarity,
            -- Once per candidate, not in every branch row (a keyword branch reads up to ${GATHERED_TERMS}× the limit).
            right(rtrim(m.own_text, E' \\t\\r\\n'), 1) IN ('?', '？') AS asks,
            s.documents::float8 AS documents, s.tokens::float8 AS tokens,
            -- The query words' document frequencies, once: not copied into every row.
            CASE WHEN row_number() OVER () = 1
              THEN (SELECT json_object_agg(term, df) FROM query_terms_${n}) END AS df
     FROM (SELECT DISTINCT ON (id) * FROM hits_${n}) m
     -- One primary-key probe per candidate. As a join, the planner hashed the whole usage table,
     -- which every recall grows: a cost rising with every memory ever recalled.
     LEFT JOIN LATERAL (SELECT u.access_count, u.last_accessed_at FROM ${USAGE_TABLE[query.layer]} u
                        WHERE u.id = m.id OFFSET 0) u ON TRUE
     LEFT JOIN search_stats s ON s.layer = ${layer}`;
  return { ctes, select };
}

/**
 * The candidates of several queries — a recall's layers — in one statement: one round trip
 * however many layers are searched.
 */
export async function findCandidateSets(
  db: SqlExecutor,
  queries: readonly CandidateQuery[],
): Promise<CandidateSet[]> {
  if (queries.length === 0) return [];
  const params: unknown[] = [];
  const bind = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const parts = queries.map((query, n) => part(n, query, bind));
  const rows = await db.query<CandidateRow>(
    `WITH ${parts.map(({ ctes }) => ctes).join(",\n")}
     ${parts.map(({ select }) => `(${select})`).join("\nUNION ALL\n")}`,
    params,
  );
  return queries.map((query, n) => {
    const mine = rows.filter((row) => Number(row.part) === n);
    const first = mine[0];
    const corpus: CorpusStats = {
      documents: first?.documents ?? 0,
      averageLength: first && first.documents > 0 ? first.tokens / first.documents : 0,
      // One row carries them (whichever the window numbered first).
      documentFrequency: new Map(Object.entries(mine.find((row) => row.df)?.df ?? {})),
    };
    const candidates = mine.map(
      (row): Candidate => ({
        layer: query.layer,
        id: row.id,
        search_text: row.search_text,
        event_time: row.event_time,
        access_count: row.access_count,
        outcome: row.outcome,
        vector_similarity: Number(row.vector_similarity),
        asks: row.asks === true,
      }),
    );
    return { candidates, corpus };
  });
}
