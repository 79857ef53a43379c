/**
 * The storage backends every contract test runs against. PostgreSQL tests get a schema of
 * their own, so runs never see each other's rows. With CI=true a missing PostgreSQL or
 * pgvector fails the run instead of skipping it.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

export const POSTGRES_URL =
  process.env.HINDSIGHT_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

async function probePostgres(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    const { rows } = await client.query(
      "SELECT count(*)::int AS n FROM pg_available_extensions WHERE name = 'vector'",
    );
    if (rows[0]?.n !== 1) return "pgvector is not installed in the test PostgreSQL";
    await client.query("CREATE EXTENSION IF NOT EXISTS vector");
    return undefined;
  } catch (error) {
    return `PostgreSQL unreachable at ${POSTGRES_URL}: ${(error as Error).message}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const unavailable = await probePostgres();
if (unavailable && process.env.CI === "true") {
  throw new Error(`CI=true and ${unavailable}; run scripts/install-pgvector.sh`);
}

/** Why PostgreSQL tests are skipped on this machine, or undefined when they run. */
export const postgresSkipReason = unavailable;

/** A fresh schema on the test PostgreSQL and a URL whose search_path points at it. */
export async function createTestSchema(): Promise<{ url: string; drop: () => Promise<void> }> {
  const schema = `hs_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.searchParams.set("options", `-c search_path=${schema},public`);
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}

export interface Backend {
  name: "pglite" | "postgres";
  skip: string | undefined;
  /** Config fields pointing at a fresh, empty store that can be reopened, and its cleanup. */
  fresh(): Promise<FreshStore>;
  /**
   * A fresh, empty store for one opening: PGlite in memory (the same SQL, without a data
   * directory to create), a schema of its own on PostgreSQL.
   */
  scratch(): Promise<FreshStore>;
}

export interface FreshStore {
  location: { databaseUrl?: string; dataDir: string; embedder: { kind: "hash" } };
  cleanup: () => Promise<void>;
}

/**
 * Stores in tests embed with the hash embedder unless a test is about embedding: it is fast,
 * deterministic and needs no model (the default, multilingual-e5-small, is tested on its own).
 */
const HASH = { kind: "hash" } as const;

const postgresFresh = async (): Promise<FreshStore> => {
  const { url, drop } = await createTestSchema();
  return { location: { databaseUrl: url, dataDir: "memory://", embedder: HASH }, cleanup: drop };
};

export const BACKENDS: Backend[] = [
  {
    name: "pglite",
    skip: undefined,
    fresh: async () => {
      const dataDir = await mkdtemp(join(tmpdir(), "hindsight-test-"));
      return {
        location: { dataDir, embedder: HASH },
        cleanup: () => rm(dataDir, { recursive: true, force: true }),
      };
    },
    scratch: async () => ({
      location: { dataDir: "memory://", embedder: HASH },
      cleanup: async () => {},
    }),
  },
  {
    name: "postgres",
    skip: postgresSkipReason,
    fresh: postgresFresh,
    scratch: postgresFresh,
  },
];
