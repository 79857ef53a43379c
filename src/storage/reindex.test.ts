import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../adapters.js";
import type { NewEpisodic } from "../core/ports.js";
import { searchText } from "../core/search-text.js";
import { wordTokens } from "../text/tokenize.js";
import type { SqlDriver } from "./executor.js";
import { migrate } from "./migrate.js";
import { MIGRATIONS } from "./migrations.js";
import { IN_MEMORY, openPGlite } from "./pglite.js";
import { restemmedSearchText } from "./reindex.js";
import { SqlMemoryStore } from "./sql-store.js";

/** What the tokenizer wrote before stemming: the same words, unstemmed. */
const unstemmed = (parts: string[], context?: string) => {
  const own = parts.flatMap(wordTokens);
  const around = context ? wordTokens(context) : [];
  return (around.length > 0 ? [...own, "|", ...around] : own).join(" ");
};

describe("restemmedSearchText", () => {
  const summary = "Caroline went hiking with friends";
  const context = "Melanie: did you go camping?";

  it("stems every word, context included, of a row written before stemming", () => {
    const old = unstemmed(["conversation", summary], context);
    expect(old).toContain("hiking");
    expect(restemmedSearchText(old, summary)).toBe(searchText(["conversation", summary], context));
  });

  it("leaves a current row alone, though stemming again would change it", () => {
    const current = searchText(["conversation", "We agreed on hiking"]);
    expect(current).toContain("agre"); // stem("agre") is "agr": stemming is not idempotent
    expect(restemmedSearchText(current, "We agreed on hiking")).toBeUndefined();
  });

  it("leaves a row whose own words stemming does not change, and Chinese", () => {
    expect(restemmedSearchText("port | hiking", "port")).toBeUndefined();
    const chinese = "用户偏好用中文回复";
    expect(restemmedSearchText(unstemmed([chinese]), chinese)).toBeUndefined();
  });
});

describe("migration 7 re-indexes rows written before stemming (PGlite)", () => {
  let driver: SqlDriver | undefined;
  afterEach(async () => {
    await driver?.close();
    driver = undefined;
  });

  const embedder = { id: "test-embedder", dimensions: 4 };
  const row = (id: string, summary: string, text: string): NewEpisodic => ({
    id,
    occurred_at: new Date("2024-05-01T00:00:00Z"),
    recorded_at: new Date("2024-05-01T00:00:00Z"),
    task_type: "conversation",
    summary,
    outcome: "success",
    metadata: {},
    tags: [],
    confidence: 1,
    decay_score: 1,
    status: "active",
    subject: null,
    user_id: null,
    agent_id: null,
    session_id: null,
    source: null,
    embedding: new Float32Array([1, 0, 0, 0]),
    search_text: text,
  });

  it("rewrites search text, terms and BM25 statistics, and only the old rows", async () => {
    driver = await openPGlite({ dataDir: IN_MEMORY, logger: silentLogger });
    const before = MIGRATIONS.filter((migration) => migration.version < 7);
    await migrate(driver, embedder, before);
    const store = new SqlMemoryStore(driver);
    const oldId = "00000000-0000-4000-8000-000000000001";
    const newId = "00000000-0000-4000-8000-000000000002";
    await store.insertEpisodic([
      row(oldId, "Caroline went hiking", unstemmed(["conversation", "Caroline went hiking"])),
      row(newId, "We agreed on hiking", searchText(["conversation", "We agreed on hiking"])),
    ]);
    const statsBefore = await driver.query<{ tokens: number }>(
      "SELECT tokens::int AS tokens FROM search_stats WHERE layer = 'episodic'",
    );

    const report = await migrate(driver, embedder);
    expect(report.applied).toEqual([7]);

    const rows = await driver.query<{ id: string; search_text: string; terms: string[] }>(
      "SELECT id::text AS id, search_text, terms FROM episodic_memories ORDER BY id",
    );
    expect(rows[0]!.search_text).toBe(searchText(["conversation", "Caroline went hiking"]));
    expect(rows[0]!.terms).toContain("hike");
    expect(rows[0]!.terms).not.toContain("hiking");
    expect(rows[1]!.search_text).toBe(searchText(["conversation", "We agreed on hiking"]));

    const df = Object.fromEntries(
      (
        await driver.query<{ term: string; df: number }>(
          "SELECT term, df FROM search_terms WHERE layer = 'episodic'",
        )
      ).map(({ term, df }) => [term, df]),
    );
    expect(df.hike).toBe(2);
    expect(df.hiking).toBeUndefined();
    expect(df.went).toBe(1);
    const statsAfter = await driver.query<{ documents: number; tokens: number }>(
      "SELECT documents::int AS documents, tokens::int AS tokens FROM search_stats WHERE layer = 'episodic'",
    );
    // Stemming maps a word to a word: lengths are unchanged, the documents the same two.
    expect(statsAfter[0]).toEqual({ documents: 2, tokens: statsBefore[0]!.tokens });
  });
});
