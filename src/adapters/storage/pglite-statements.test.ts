import { PGlite, protocol, types } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { silentLogger } from "../logger.js";
import type { SqlExecutor } from "./executor.js";
import { IN_MEMORY, openPGlite } from "./pglite.js";
import {
  type PGliteProtocolHost,
  type PreparedQueries,
  preparedQueries,
} from "./pglite-statements.js";

describe("PGlite statements prepared once, run in one round trip", () => {
  let db: PGlite;
  let statements: PreparedQueries;
  const query = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
    statements.query<T>(sql, params, false);
  const preparedCount = async () =>
    Number(
      (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_prepared_statements"))
        .rows[0]!.n,
    );

  // One database for the file (starting PGlite takes a second or two); a fresh table and no
  // kept statements for each case.
  beforeAll(async () => {
    db = await PGlite.create({ extensions: { vector } });
    await db.exec("CREATE EXTENSION IF NOT EXISTS vector");
  });
  beforeEach(async () => {
    await db.exec(`DEALLOCATE ALL; DROP TABLE IF EXISTS t;
      CREATE TABLE t (id int PRIMARY KEY, label text, tags text[], meta jsonb, at timestamptz,
                      score float8, ok boolean, embedding vector(3));`);
    statements = preparedQueries(db as unknown as PGliteProtocolHost, protocol, types.parseType, {
      maxPrepared: 3,
    });
  });
  afterAll(async () => {
    await db.close();
  });

  it("sends values and reads rows exactly as PGlite's own query does", async () => {
    const insert = `INSERT INTO t VALUES ($1, $2, $3, $4, $5, $6, $7, $8::vector)`;
    const row = [
      1,
      'it\'s "quoted"',
      ["a", "b,c", 'd"e', "中文"],
      { nested: [1, "x"] },
      new Date("2025-03-04T05:06:07.089Z"),
      0.25,
      true,
      "[1,0.5,-2]",
    ];
    await query(insert, row);
    await query(insert, [2, null, [], null, null, null, false, null]);
    const select = `SELECT *, embedding <=> $1::vector AS distance, cardinality(tags) AS n
                    FROM t WHERE id = ANY($2::int[]) ORDER BY id`;
    const params = ["[1,0,0]", [1, 2]];
    const mine = await query(select, params);
    expect(mine).toEqual((await db.query(select, params)).rows);
    expect(mine[0]).toMatchObject({ label: 'it\'s "quoted"', tags: row[2], meta: row[3] });
    expect(mine[0]!.at).toEqual(row[4]);
    // Run again from the kept statement: the same rows.
    expect(await query(select, params)).toEqual(mine);
  });

  it("reads a reply of many rows, multi-byte text and NULLs, as PGlite's own query does", async () => {
    // Larger than one write of PostgreSQL's output buffer: the reply arrives in many chunks.
    const select = `SELECT g AS id, CASE WHEN g % 7 = 0 THEN NULL ELSE repeat('记忆 é ', g % 50) END AS label,
                           g * 0.5 AS half FROM generate_series(1, $1::int) g`;
    const mine = await query(select, [5000]);
    expect(mine).toHaveLength(5000);
    expect(mine).toEqual((await db.query(select, [5000])).rows);
  });

  it("leaves PGlite's own query, exec and transaction reading their replies", async () => {
    await query("INSERT INTO t (id, label) VALUES ($1, $2)", [1, "one"]);
    expect((await db.query("SELECT label FROM t WHERE id = $1", [1])).rows).toEqual([
      { label: "one" },
    ]);
    await query("SELECT id FROM t", []);
    await expect(db.exec("SELECT 1/0")).rejects.toMatchObject({ code: "22012" });
    await query("SELECT id FROM t", []);
    await db.transaction(async (tx) => {
      await statements.query("INSERT INTO t (id) VALUES ($1)", [2], true);
      expect((await tx.query("SELECT count(*)::int AS n FROM t")).rows).toEqual([{ n: 2 }]);
    });
    // A statement described after a run reads its description (its columns) too.
    expect(await query("SELECT id, label FROM t ORDER BY id", [])).toEqual([
      { id: 1, label: "one" },
      { id: 2, label: null },
    ]);
  });

  it("keeps a statement working after its table gains a column", async () => {
    await query("INSERT INTO t (id, label) VALUES ($1, $2)", [1, "one"]);
    expect(await query("SELECT * FROM t WHERE id = $1", [1])).toHaveLength(1);
    await db.exec("ALTER TABLE t ADD COLUMN extra text DEFAULT 'new'");
    const [row] = await query("SELECT * FROM t WHERE id = $1", [1]);
    expect(row).toMatchObject({ label: "one", extra: "new" });
  });

  it("fails a transaction whose kept statement went stale, and describes it again for the next", async () => {
    await query("INSERT INTO t (id, label) VALUES ($1, $2)", [1, "one"]);
    const select = "SELECT * FROM t WHERE id = $1";
    await query(select, [1]);
    await db.exec("ALTER TABLE t ADD COLUMN extra text DEFAULT 'new'");
    const inTransaction = () => db.transaction(() => statements.query(select, [1], true));
    // Cached plan must not change result type: the transaction is aborted, no retry can run.
    await expect(inTransaction()).rejects.toMatchObject({ code: "0A000" });
    expect(await inTransaction()).toEqual([expect.objectContaining({ extra: "new" })]);
    // The stale statement is closed by the next run outside a transaction, not left behind:
    // the insert, the select described again, and this one.
    await query("SELECT 1 AS one", []);
    expect(await preparedCount()).toBe(3);
  });

  it("reports a failed statement with PostgreSQL's code and stays usable", async () => {
    await query("INSERT INTO t (id) VALUES ($1)", [1]);
    await expect(query("INSERT INTO t (id) VALUES ($1)", [1])).rejects.toMatchObject({
      code: "23505",
    });
    await expect(query("SELECT nope FROM t", [])).rejects.toMatchObject({ code: "42703" });
    expect(await query("SELECT id FROM t", [])).toEqual([{ id: 1 }]);
  });

  it("writes nothing from a transaction that fails part way", async () => {
    await expect(
      db.transaction(async () => {
        await statements.query("INSERT INTO t (id) VALUES ($1)", [7], true);
        await statements.query("INSERT INTO t (id) VALUES ($1)", [7], true);
      }),
    ).rejects.toMatchObject({ code: "23505" });
    expect(await query("SELECT id FROM t", [])).toEqual([]);
  });

  it("keeps at most its limit of statements, and runs a forgotten one again", async () => {
    for (let i = 0; i < 5; i++) await query(`SELECT $1::int + ${i} AS v`, [1]);
    expect(await preparedCount()).toBe(3);
    expect(await query("SELECT $1::int + 0 AS v", [1])).toEqual([{ v: 1 }]);
    expect(await preparedCount()).toBe(3);
  });

  it("runs a statement of many parameters unnamed, keeping nothing", async () => {
    const ids = Array.from({ length: 100 }, (_, i) => i);
    await query(`INSERT INTO t (id) VALUES ${ids.map((_, i) => `($${i + 1})`).join(", ")}`, ids);
    expect(await query("SELECT count(*)::int AS n FROM t", [])).toEqual([{ n: 100 }]);
    expect(await preparedCount()).toBe(1);
  });
});

describe("the embedded driver's statements", () => {
  it("run inside and outside a transaction, and not on a transaction that has ended", async () => {
    const driver = await openPGlite({ dataDir: IN_MEMORY, logger: silentLogger });
    try {
      await driver.exec("CREATE TABLE n (v int)");
      let ended: SqlExecutor | undefined;
      await driver.transaction(async (tx) => {
        await tx.query("INSERT INTO n VALUES ($1)", [1]);
        ended = tx;
      });
      await expect(ended!.query("INSERT INTO n VALUES ($1)", [2])).rejects.toThrow(/closed/);
      expect(await driver.query("SELECT v FROM n")).toEqual([{ v: 1 }]);
    } finally {
      await driver.close();
    }
  });
});
