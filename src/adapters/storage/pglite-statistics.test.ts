import { describe, expect, it } from "vitest";
import type { Logger } from "../../core/ports.js";
import { FLUSH_COUNTERS_SQL, STALE_TABLES_SQL, statisticsKeeper } from "./pglite-statistics.js";

function fakeDatabase(stale: string[][], failWith?: Error) {
  const sent: string[] = [];
  return {
    sent,
    db: {
      query: async <T>(sql: string): Promise<T[]> => {
        sent.push(sql);
        if (failWith) throw failWith;
        if (sql === FLUSH_COUNTERS_SQL) return [];
        return (stale.shift() ?? []).map((name) => ({ name })) as T[];
      },
      exec: async (sql: string) => {
        sent.push(sql);
      },
    },
  };
}

const warnings: unknown[][] = [];
const logger = { warn: (...args: unknown[]) => warnings.push(args) } as unknown as Logger;

describe("statisticsKeeper", () => {
  it("asks for stale tables every so many statements and analyses each one", async () => {
    const { db, sent } = fakeDatabase([["public.episodic_usage", "public.search_terms"], []]);
    const keeper = statisticsKeeper(db, logger, 3);
    keeper.finished();
    keeper.finished();
    await keeper.settled();
    expect(sent).toEqual([]);
    keeper.finished();
    await keeper.settled();
    expect(sent).toEqual([
      FLUSH_COUNTERS_SQL,
      STALE_TABLES_SQL,
      "ANALYZE public.episodic_usage",
      "ANALYZE public.search_terms",
    ]);
    for (let i = 0; i < 3; i++) keeper.finished();
    await keeper.settled();
    expect(sent.slice(4)).toEqual([FLUSH_COUNTERS_SQL, STALE_TABLES_SQL]);
  });

  it("logs a failed check instead of failing the work that triggered it, and goes on", async () => {
    const { db } = fakeDatabase([], new Error("database is closing"));
    const keeper = statisticsKeeper(db, logger, 1);
    warnings.length = 0;
    keeper.finished();
    await keeper.settled();
    keeper.finished();
    await keeper.settled();
    expect(warnings).toHaveLength(2);
    expect(JSON.stringify(warnings[0])).toContain("database is closing");
  });
});
