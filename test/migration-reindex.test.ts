/**
 * Migrations 7 and 9 (storage/reindex) on both backends: a database written before stemming,
 * or before calendar words had one form, is re-indexed when it is next opened.
 */
import { describe, expect, it } from "vitest";
import type { SqlDriver } from "../src/adapters/storage/executor.js";
import { SqlMemoryRecords } from "../src/adapters/storage/memory-records.js";
import { migrate } from "../src/adapters/storage/migrate.js";
import { MIGRATIONS } from "../src/adapters/storage/migrations.js";
import type { NewEpisodic } from "../src/core/memories/ports.js";
import { documentLength } from "../src/core/recall/bm25.js";
import { searchDocument, searchText } from "../src/core/recall/search-text.js";
import { stem } from "../src/text/stem.js";
import { wordTokens } from "../src/text/tokenize.js";
import { BACKENDS } from "./support/backends.js";
import { freshDrivers } from "./support/drivers.js";

/** What the tokenizer wrote before stemming: the same words, unstemmed. */
const unstemmed = (parts: string[]) => parts.flatMap(wordTokens).join(" ");

describe.each(BACKENDS)("migrations re-index rows written before on $name", (backend) => {
  const open = freshDrivers(backend);
  const embedder = { id: "test-embedder", dimensions: 4 };

  /** Document frequencies of the episodic layer's terms. */
  const documentFrequencies = async (db: SqlDriver): Promise<Record<string, number>> =>
    Object.fromEntries(
      (
        await db.query<{ term: string; df: number }>(
          "SELECT term, df FROM search_terms WHERE layer = 'episodic'",
        )
      ).map(({ term, df }) => [term, df]),
    );

  it.skipIf(backend.skip !== undefined)(
    "migration 7 rewrites search text, terms and BM25 statistics, and only the old rows",
    async () => {
      const driver = await open();
      const before = MIGRATIONS.filter((migration) => migration.version < 7);
      await migrate(driver, embedder, before);
      const store = new SqlMemoryRecords(driver);
      const oldId = "00000000-0000-4000-8000-000000000001";
      const newId = "00000000-0000-4000-8000-000000000002";
      await store.insertEpisodic([
        episode(oldId, "Caroline went hiking", unstemmed(["conversation", "Caroline went hiking"])),
        episode(newId, "We agreed on hiking", searchText(["conversation", "We agreed on hiking"])),
      ]);
      const statsBefore = await driver.query<{ tokens: number }>(
        "SELECT tokens::int AS tokens FROM search_stats WHERE layer = 'episodic'",
      );

      const report = await migrate(driver, embedder);
      expect(report.applied).toEqual(
        MIGRATIONS.filter((migration) => migration.version >= 7).map((m) => m.version),
      );

      const rows = await driver.query<{ id: string; search_text: string; terms: string[] }>(
        "SELECT id::text AS id, search_text, terms FROM episodic_memories ORDER BY id",
      );
      expect(rows[0]!.search_text).toBe(searchText(["conversation", "Caroline went hiking"]));
      expect(rows[0]!.terms).toContain("hike");
      expect(rows[0]!.terms).not.toContain("hiking");
      expect(rows[1]!.search_text).toBe(searchText(["conversation", "We agreed on hiking"]));

      const df = await documentFrequencies(driver);
      expect(df.hike).toBe(2);
      expect(df.hiking).toBeUndefined();
      expect(df.went).toBe(1);
      const statsAfter = await driver.query<{ documents: number; tokens: number }>(
        "SELECT documents::int AS documents, tokens::int AS tokens FROM search_stats WHERE layer = 'episodic'",
      );
      // Stemming maps a word to a word: lengths are unchanged, the documents the same two.
      expect(statsAfter[0]).toEqual({ documents: 2, tokens: statsBefore[0]!.tokens });
    },
  );

  /** What the tokenizer wrote before calendar words: stems of the segmenter's words. */
  const stored = (parts: string[], context: string) =>
    [...parts.flatMap(wordTokens), "|", ...wordTokens(context)].map(stem).join(" ");

  it.skipIf(backend.skip !== undefined)(
    "migration 9 writes calendar words one way: search text, terms and BM25 statistics, in English and Chinese",
    async () => {
      const driver = await open();
      await migrate(
        driver,
        embedder,
        MIGRATIONS.filter((migration) => migration.version < 9),
      );
      const english = ["conversation", "Moved the sync to Friday evening, 9am on Mondays"];
      const chinese = ["conversation", "用户每周五晚上打羽毛球，星期一早上开例会"];
      const context = "Mel: still on Tuesday?";
      const ids = ["00000000-0000-4000-8000-000000000011", "00000000-0000-4000-8000-000000000012"];
      await new SqlMemoryRecords(driver).insertEpisodic([
        episode(ids[0]!, english[1]!, stored(english, context)),
        episode(ids[1]!, chinese[1]!, stored(chinese, context)),
      ]);
      expect((await documentFrequencies(driver)).fridai).toBe(1);

      const report = await migrate(driver, embedder);
      expect(report.applied).toEqual([9]);

      const rows = await driver.query<{ search_text: string; terms: string[] }>(
        "SELECT search_text, terms FROM episodic_memories ORDER BY id",
      );
      expect(rows.map((row) => row.search_text)).toEqual([
        searchText(english, context),
        searchText(chinese, context),
      ]);
      for (const row of rows)
        expect(row.terms).toEqual(expect.arrayContaining(["周五", "晚上", "周一", "上午", "周二"]));
      const after = await documentFrequencies(driver);
      expect(after).toMatchObject({ 周五: 2, 晚上: 2, 周一: 2, 上午: 2, 周二: 2 });
      expect(after.fridai).toBeUndefined();
      expect(after.每周).toBeUndefined();
      const stats = await driver.query<{ documents: number; tokens: number }>(
        "SELECT documents::int AS documents, tokens::int AS tokens FROM search_stats WHERE layer = 'episodic'",
      );
      const tokens = rows.reduce(
        (sum, row) => sum + Math.round(documentLength(searchDocument(row.search_text))),
        0,
      );
      expect(stats[0]).toEqual({ documents: 2, tokens });
    },
  );
});

function episode(id: string, summary: string, text: string): NewEpisodic {
  return {
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
  };
}
