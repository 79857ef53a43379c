/**
 * A DATABASE_URL whose search_path names an application schema (`?options=-c search_path=app`,
 * common on a shared server): the default tenant's tables, and pgvector when the database did
 * not have it yet, go into that schema — and every other tenant's store must still find
 * pgvector's types there.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHindsight } from "../src/index.js";
import { POSTGRES_URL, postgresSkipReason } from "./support/backends.js";

describe.skipIf(postgresSkipReason !== undefined)("a DATABASE_URL with its own search_path", () => {
  const database = `hs_search_path_${randomBytes(5).toString("hex")}`;
  const admin = (name = "postgres") => {
    const url = new URL(POSTGRES_URL);
    url.pathname = `/${name}`;
    return new pg.Client({ connectionString: url.toString() });
  };
  let databaseUrl: string;

  beforeAll(async () => {
    const server = admin();
    await server.connect();
    await server.query(`CREATE DATABASE ${database}`);
    await server.end();
    const fresh = admin(database);
    await fresh.connect();
    await fresh.query("CREATE SCHEMA app");
    await fresh.end();
    const url = new URL(POSTGRES_URL);
    url.pathname = `/${database}`;
    url.searchParams.set("options", "-c search_path=app");
    databaseUrl = url.toString();
  });
  afterAll(async () => {
    const server = admin();
    await server.connect();
    await server.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await server.end();
  });

  it("keeps pgvector reachable for every tenant", async () => {
    const open = (tenant: string) =>
      createHindsight({ databaseUrl, dataDir: "memory://", tenant, embedder: { kind: "hash" } });
    for (const tenant of ["default", "acme"]) {
      const memory = await open(tenant);
      try {
        const { id } = await memory.storeEpisodic({
          task_type: "deploy",
          summary: `${tenant}: the billing deploy failed on a missing secret`,
          outcome: "failure",
        });
        const { results } = await memory.recall({ query_text: "billing deploy secret" });
        expect(results.map((result) => result.id)).toEqual([id]);
      } finally {
        await memory.close();
      }
    }
    const client = admin(database);
    await client.connect();
    const { rows } = await client.query<{ schema: string }>(
      "SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'vector'",
    );
    const tables = await client.query<{ schema: string }>(
      "SELECT DISTINCT schemaname AS schema FROM pg_tables WHERE tablename = 'episodic_memories' ORDER BY 1",
    );
    await client.end();
    // Where the URL's search_path put it, and each tenant's tables in their own schema.
    expect(rows).toEqual([{ schema: "app" }]);
    expect(tables.rows.map((row) => row.schema)).toEqual(["app", "hindsight_acme"]);
  });
});
