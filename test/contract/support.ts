/**
 * What the storage port contracts share: one fresh, migrated store per backend and file, and
 * rows that pass every constraint, each with a vector and search text made from its own text.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect } from "vitest";
import { createHashEmbedder, hashEmbed } from "../../src/adapters/embedders/hash.js";
import { silentLogger } from "../../src/adapters/logger.js";
import { openStorage } from "../../src/adapters/storage/open-store.js";
import type { SqlStorage } from "../../src/adapters/storage/sql-storage.js";
import { embeddingText } from "../../src/core/memories/embedding-text.js";
import type { NewEpisodic, NewSemantic } from "../../src/core/memories/ports.js";
import type { EmbedderIdentity, MigrationReport } from "../../src/core/ports.js";
import { searchText } from "../../src/core/recall/search-text.js";
import { PRIVATE } from "../../src/core/sharing/types.js";
import type { Backend } from "../support/backends.js";

const embedder = createHashEmbedder();
export const EMBEDDER: EmbedderIdentity = { id: embedder.id, dimensions: embedder.dimensions };

/** The time rows are written at unless a case says otherwise. */
export const AT = new Date("2025-03-10T12:00:00Z");
export const DAY = 86_400_000;
export const daysAfter = (days: number, from = AT) => new Date(from.getTime() + days * DAY);

/**
 * A name no other case in the file uses: every file shares one store, so a case scopes what it
 * asserts by task type, user, agent, group or source.
 */
export const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

export interface ContractStore {
  storage: SqlStorage;
  location: { databaseUrl?: string; dataDir: string };
  /** What the first migration of the fresh store reported. */
  migration: MigrationReport;
}

/**
 * Opens a fresh migrated store for the file's cases on `backend` (in beforeAll) and closes and
 * removes it afterwards; its fields are set once beforeAll has run.
 */
export function contractStore(backend: Backend): ContractStore {
  const store = {} as ContractStore;
  let cleanup: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    if (backend.skip) return;
    const fresh = await backend.fresh();
    cleanup = fresh.cleanup;
    store.location = fresh.location;
    store.storage = await openStorage(fresh.location, silentLogger);
    store.migration = await store.storage.admin.migrate(EMBEDDER);
  });
  afterAll(async () => {
    await store.storage?.admin.close();
    await cleanup?.();
  });
  return store;
}

export function newEpisodic(overrides: Partial<NewEpisodic> = {}): NewEpisodic {
  const task_type = overrides.task_type ?? "contract";
  const summary = overrides.summary ?? "Ran the contract suite against the store";
  const tags = overrides.tags ?? [];
  return {
    id: randomUUID(),
    occurred_at: AT,
    recorded_at: AT,
    task_type,
    summary,
    outcome: "success",
    metadata: {},
    tags,
    source: null,
    subject: null,
    user_id: null,
    agent_id: null,
    session_id: null,
    confidence: 1,
    decay_score: 1,
    status: "active",
    embedding: hashEmbed(embeddingText("episodic", { task_type, summary })),
    search_text: searchText([task_type, summary, ...tags]),
    ...overrides,
  };
}

export function newSemantic(overrides: Partial<NewSemantic> = {}): NewSemantic {
  const key_text = overrides.key_text ?? "contract suite";
  const value_text = overrides.value_text ?? "runs on every storage backend";
  const tags = overrides.tags ?? [];
  return {
    id: randomUUID(),
    key_text,
    value_text,
    task_type: null,
    confidence: 1,
    created_at: AT,
    updated_at: AT,
    valid_from: AT,
    valid_to: null,
    metadata: {},
    tags,
    source: null,
    subject: null,
    user_id: null,
    agent_id: null,
    session_id: null,
    status: "active",
    ...PRIVATE,
    source_episode_ids: [],
    embedding: hashEmbed(embeddingText("semantic", { key_text, value_text })),
    search_text: searchText([key_text, value_text, ...tags]),
    ...overrides,
  };
}

/** The rejection of a call that must fail, with its HindsightError code. */
export async function failure(
  promise: Promise<unknown>,
): Promise<{ code: string; field?: string }> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught as { code: string; field?: string },
  );
  expect(error, "expected the call to fail").toBeDefined();
  return error!;
}
