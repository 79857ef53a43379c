import type { SqlExecutor } from "./executor.js";

/**
 * Whether every one of these tables exists in the store's own schema. Only the current schema
 * counts: a tenant's search_path also reaches `public`, which may hold another store's tables.
 * `to_regclass` answers from the catalog cache (the `pg_tables` view cost a cold process ~10 ms
 * more per lookup).
 */
export async function tablesPresent(db: SqlExecutor, names: readonly string[]): Promise<boolean> {
  // One test per name rather than an aggregate over unnest(), which cost a cold process
  // another 2–5 ms to plan.
  const tests = names.map(
    (_, i) => `to_regclass(quote_ident(current_schema()) || '.' || quote_ident($${i + 1}::text))
      IS NOT NULL`,
  );
  const [row] = await db.query<{ present: boolean | null }>(
    `SELECT ${tests.join(" AND ")} AS present`,
    names,
  );
  return row?.present === true;
}
