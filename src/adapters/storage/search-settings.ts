/**
 * Session settings for vector search, applied on every connection.
 * - Iterative scans (pgvector ≥ 0.8) keep walking the HNSW graph until enough rows pass the
 *   WHERE filters (task type, time, scope); without them a filtered query can return fewer
 *   rows than asked for, or none.
 * - ef_search above the candidate limit, so the index can return that many neighbours.
 */
export const SEARCH_SETTINGS = "SET hnsw.iterative_scan = relaxed_order; SET hnsw.ef_search = 100;";
