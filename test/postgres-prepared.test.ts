/**
 * PostgreSQL statements prepared under a name on each connection (adapters/storage/postgres):
 * parsed once per connection and, for recall's statements, planned once; and when the
 * connection has lost the name — a pooler handing the statement to another server connection,
 * or another process changing a table's columns — the statement still runs and answers right.
 * One connection per store here, so the session that prepared a statement is the one asked.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHashEmbedder, hashEmbed } from "../src/adapters/embedders/hash.js";
import { type SqlDriver, unplannedArray } from "../src/adapters/storage/executor.js";
import { openPostgres } from "../src/adapters/storage/postgres.js";
import { SqlStorage } from "../src/adapters/storage/sql-storage.js";
import { configFromEnv } from "../src/config/env.js";
import type { Logger } from "../src/core/ports.js";
import { parseConfig } from "../src/open/parse-config.js";
import { POSTGRES_URL, postgresSkipReason } from "./support/backends.js";

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  const nothing = () => undefined;
  return {
    warnings,
    debug: nothing,
    info: nothing,
    warn: (message) => {
      warnings.push(message);
    },
    error: nothing,
  };
}

describe.skipIf(postgresSkipReason !== undefined)("named statements on PostgreSQL", () => {
  const schema = `prepared_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  const drivers: SqlDriver[] = [];

  // A connection string of its own per store: stores on the same one share a pool.
  let opened = 0;
  async function open(preparedStatements?: boolean) {
    const logger = recordingLogger();
    const url = new URL(POSTGRES_URL);
    url.searchParams.set("application_name", `${schema}_${opened++}`);
    const driver = await openPostgres({
      connectionString: url.toString(),
      schema,
      maxConnections: 1,
      preparedStatements,
      logger,
    });
    drivers.push(driver);
    return { driver, logger };
  }
  const prepared = (driver: SqlDriver) =>
    driver.query<{ name: string; statement: string; generic_plans: number }>(
      `SELECT name, statement, generic_plans::int AS generic_plans FROM pg_prepared_statements
       WHERE statement LIKE $1`,
      ["%FROM prepared_probe%"],
    );

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.query(
      `CREATE TABLE ${schema}.prepared_probe (id int PRIMARY KEY, label text);
       INSERT INTO ${schema}.prepared_probe VALUES (1, 'one'), (2, 'two'), (3, 'three')`,
    );
  });
  afterAll(async () => {
    for (const driver of drivers) await driver.close();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });

  // Written as recall's statements are, so that a plan for any values is kept.
  const select = `SELECT id, label FROM prepared_probe WHERE id = ANY(${unplannedArray("$1", "int")}) ORDER BY id`;

  it("prepares a statement once per connection and keeps its plan", async () => {
    const { driver } = await open();
    for (let run = 0; run < 8; run++) {
      expect(await driver.query(select, [[1, 3]])).toEqual([
        { id: 1, label: "one" },
        { id: 3, label: "three" },
      ]);
    }
    const [statement, ...others] = await prepared(driver);
    expect(others).toEqual([]);
    expect(statement?.statement).toBe(select);
    expect(statement!.generic_plans).toBeGreaterThan(0);
  });

  it("runs a statement whose name the connection lost, then runs unnamed with one warning", async () => {
    const { driver, logger } = await open();
    await driver.query(select, [[2]]);
    expect(await prepared(driver)).toHaveLength(1);
    // What a transaction-mode pooler does: the next statement lands on a session that never
    // saw the name (pg believes it prepared, so it sends only Bind).
    await driver.exec("DEALLOCATE ALL");
    expect(await driver.query(select, [[2]])).toEqual([{ id: 2, label: "two" }]);
    expect(await driver.query(select, [[1]])).toEqual([{ id: 1, label: "one" }]);
    expect(await prepared(driver)).toEqual([]);
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toMatch(/HINDSIGHT_DB_PREPARED_STATEMENTS=false/);
  });

  it("runs a statement again when another process changed its table's columns", async () => {
    const { driver, logger } = await open();
    const all = "SELECT * FROM prepared_probe WHERE id = $1";
    expect(await driver.query(all, [1])).toEqual([{ id: 1, label: "one" }]);
    await admin.query(`ALTER TABLE ${schema}.prepared_probe ADD COLUMN note text DEFAULT 'n'`);
    try {
      expect(await driver.query(all, [1])).toEqual([{ id: 1, label: "one", note: "n" }]);
      expect(await driver.query(all, [2])).toEqual([{ id: 2, label: "two", note: "n" }]);
      // Still named: under a new name, no warning.
      const names = (await prepared(driver)).filter((row) => row.statement === all);
      expect(names).toHaveLength(2);
      expect(logger.warnings).toEqual([]);
    } finally {
      await admin.query(`ALTER TABLE ${schema}.prepared_probe DROP COLUMN note`);
    }
  });

  it("runs everything unnamed when told to", async () => {
    const { driver } = await open(false);
    for (let run = 0; run < 3; run++) await driver.query(select, [[1]]);
    expect(await prepared(driver)).toEqual([]);
  });

  it("keeps recall's candidate statement on one plan", async () => {
    const { driver } = await open();
    const storage = new SqlStorage(driver);
    await storage.admin.migrate(createHashEmbedder());
    for (let run = 0; run < 9; run++) {
      await storage.recall.findCandidates({
        layer: "episodic",
        embedding: hashEmbed(`probe ${run}`),
        keywords: [`probe${run}`],
        filter: { include_archived: false },
        limit: 30,
      });
    }
    const plans = await driver.query<{ generic_plans: number; custom_plans: number }>(
      `SELECT generic_plans::int AS generic_plans, custom_plans::int AS custom_plans
       FROM pg_prepared_statements WHERE statement LIKE $1`,
      ["%hits_0%"],
    );
    expect(plans).toEqual([{ generic_plans: 4, custom_plans: 5 }]);
  });

  it("is read from HINDSIGHT_DB_PREPARED_STATEMENTS, on unless set false", () => {
    const base = { HINDSIGHT_DATA_DIR: "memory://" };
    const read = (value?: string) =>
      parseConfig(
        configFromEnv(
          value === undefined ? base : { ...base, HINDSIGHT_DB_PREPARED_STATEMENTS: value },
        ),
      ).databasePreparedStatements;
    expect(read()).toBe(true);
    expect(read("false")).toBe(false);
    expect(read("0")).toBe(false);
    expect(read("true")).toBe(true);
    expect(() => read("maybe")).toThrow(
      /HINDSIGHT_DB_PREPARED_STATEMENTS: 'maybe' is not true or false/,
    );
  });
});
