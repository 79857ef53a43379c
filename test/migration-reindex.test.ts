/**
 * Migrations 7, 9 and 10 (storage/reindex) on both backends: a database written before
 * stemming, or before calendar words or units of measure had one form, is re-indexed when it
 * is next opened.
 */
import { describe, expect, it } from "vitest";
import type { SqlDriver } from "../src/adapters/storage/executor.js";
import { SqlMemoryRecords } from "../src/adapters/storage/memory-records.js";
import { migrate } from "../src/adapters/storage/migrate.js";
import { MIGRATIONS } from "../src/adapters/storage/migrations.js";
import type { NewEpisodic } from "../src/core/memories/ports.js";
import { documentLength } from "../src/core/recall/bm25.js";
import { searchDocument, searchText } from "../src/core/recall/search-text.js";
import { calendarWords, separateCalendarWords } from "../src/text/calendar-words.js";
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

  /**
   * A database migrated up to `version` (not included) holding one English and one Chinese
   * conversation turn with the search texts `write` gives (what an older tokenizer wrote).
   */
  const writtenBefore = async (
    version: number,
    turns: string[][],
    context: string,
    write: (parts: string[], context: string) => string,
  ): Promise<SqlDriver> => {
    const driver = await open();
    await migrate(
      driver,
      embedder,
      MIGRATIONS.filter((migration) => migration.version < version),
    );
    await new SqlMemoryRecords(driver).insertEpisodic(
      turns.map((parts, index) =>
        episode(
          `00000000-0000-4000-8000-${`${version}${index}`.padStart(12, "0")}`,
          parts[1]!,
          write(parts, context),
        ),
      ),
    );
    return driver;
  };

  /** The rows' search texts and terms, once the BM25 statistics are checked to match them. */
  const rowsMatchingStatistics = async (driver: SqlDriver) => {
    const rows = await driver.query<{ search_text: string; terms: string[] }>(
      "SELECT search_text, terms FROM episodic_memories ORDER BY id",
    );
    const stats = await driver.query<{ documents: number; tokens: number }>(
      "SELECT documents::int AS documents, tokens::int AS tokens FROM search_stats WHERE layer = 'episodic'",
    );
    const tokens = rows.reduce(
      (sum, row) => sum + Math.round(documentLength(searchDocument(row.search_text))),
      0,
    );
    expect(stats[0]).toEqual({ documents: rows.length, tokens });
    return rows;
  };

  /** What the tokenizer wrote before calendar words: stems of the segmenter's words. */
  const stored = (parts: string[], context: string) =>
    [...parts.flatMap(wordTokens), "|", ...wordTokens(context)].map(stem).join(" ");

  it.skipIf(backend.skip !== undefined)(
    "migration 9 writes calendar words one way: search text, terms and BM25 statistics, in English and Chinese",
    async () => {
      const english = ["conversation", "Moved the sync to Friday evening, 9am on Mondays"];
      const chinese = ["conversation", "用户每周五晚上打羽毛球，星期一早上开例会"];
      const context = "Mel: still on Tuesday?";
      const driver = await writtenBefore(9, [english, chinese], context, stored);
      expect((await documentFrequencies(driver)).fridai).toBe(1);

      const report = await migrate(
        driver,
        embedder,
        MIGRATIONS.filter((migration) => migration.version <= 9),
      );
      expect(report.applied).toEqual([9]);

      const rows = await rowsMatchingStatistics(driver);
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
    },
  );

  it.skipIf(backend.skip !== undefined)(
    "migration 10 writes units of measure one way: search text, terms and BM25 statistics",
    async () => {
      const english = ["conversation", "Ran 5km in 30 mins"];
      const chinese = ["conversation", "我表妹身高有164公分，每天跑5公里"];
      const context = "Mel: she is 164cm?";
      // What the tokenizer wrote before units had one form: the calendar's words, stemmed.
      const storedBeforeUnits = (parts: string[], around: string) =>
        [...parts.flatMap(searchWordsBeforeUnits), "|", ...searchWordsBeforeUnits(around)]
          .map(stem)
          .join(" ");
      const driver = await writtenBefore(10, [english, chinese], context, storedBeforeUnits);
      expect(await documentFrequencies(driver)).toMatchObject({ "5km": 1, "164cm": 2 });

      const report = await migrate(driver, embedder);
      expect(report.applied).toEqual([10]);
      const rows = await rowsMatchingStatistics(driver);
      expect(rows.map((row) => row.search_text)).toEqual([
        searchText(english, context),
        searchText(chinese, context),
      ]);
      const after = await documentFrequencies(driver);
      expect(after).toMatchObject({ 公里: 2, 厘米: 2, 164: 2, 5: 2, 分钟: 1 });
      expect(after["5km"]).toBeUndefined();
      expect(after["164cm"]).toBeUndefined();
      expect(after.公分).toBeUndefined();
    },
  );
});

function searchWordsBeforeUnits(text: string): string[] {
  return calendarWords(wordTokens(separateCalendarWords(text)));
}

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
