/**
 * The memory contract: the same cases on every storage backend.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS } from "../../src/adapters/storage/migrations.js";
import {
  createHashEmbedder,
  createHindsight,
  fixedClock,
  type Hindsight,
} from "../../src/index.js";
import { BACKENDS } from "../support/backends.js";

const clock = fixedClock(new Date("2025-03-10T12:00:00Z"));

async function expectError(promise: Promise<unknown>, code: string, field?: string) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught as { code: string; field?: string },
  );
  expect(error, "expected the call to fail").toBeDefined();
  expect(error!.code).toBe(code);
  if (field !== undefined) expect(error!.field).toBe(field);
}

describe.each(BACKENDS)("memory contract on $name", (backend) => {
  let location: { databaseUrl?: string; dataDir: string };
  let cleanup: () => Promise<void>;
  let memory: Hindsight;
  let deployFailure: string;
  let reviewSuccess: string;
  let chinese: string;

  async function seed() {
    deployFailure = (
      await memory.storeEpisodic({
        task_type: "deploy",
        summary: "Deploying the billing service failed: port 8080 already in use",
        outcome: "failure",
        tags: ["billing", "k8s"],
        metadata: { ticket: "OPS-12", attempts: 2 },
        source: "conversation-7",
        user_id: "alice",
        occurred_at: "2025-03-01T09:00:00Z",
      })
    ).id;
    reviewSuccess = (
      await memory.storeEpisodic({
        task_type: "code_review",
        summary: "Reviewed the payments pull request and found a race condition in refunds",
        outcome: "success",
        user_id: "bob",
        occurred_at: "2025-02-01T09:00:00Z",
      })
    ).id;
    chinese = (
      await memory.storeEpisodic({
        task_type: "preference",
        summary: "用户偏好用中文回复且不喜欢冗长解释",
        outcome: "success",
        occurred_at: "2025-03-09T09:00:00Z",
      })
    ).id;
  }

  beforeAll(async () => {
    if (backend.skip) return;
    ({ location, cleanup } = await backend.fresh());
    memory = await createHindsight(location, { clock });
    await seed();
  });
  afterAll(async () => {
    await memory?.close();
    await cleanup?.();
  });

  describe.skipIf(backend.skip !== undefined)("with the backend available", () => {
    it("recalls a stored memory with its fields, score and signals", async () => {
      const { results } = await memory.recall({ query_text: "billing deploy port in use" });
      expect(results[0]).toMatchObject({
        id: deployFailure,
        layer: "episodic",
        task_type: "deploy",
        outcome: "failure",
        tags: ["billing", "k8s"],
        metadata: { ticket: "OPS-12", attempts: 2 },
        source: "conversation-7",
        user_id: "alice",
        status: "active",
      });
      expect(results[0]!.score).toBeGreaterThan(0.2);
      expect((results[0] as { occurred_at: Date }).occurred_at.toISOString()).toBe(
        "2025-03-01T09:00:00.000Z",
      );
    });

    it("scopes memories by session, on store and in recall filters", async () => {
      const store = (summary: string, session_id: string) =>
        memory.storeEpisodic({
          task_type: "session-scope",
          summary,
          outcome: "success",
          session_id,
        });
      const mine = (await store("rebuilt the search index for tenant reports", "run-1")).id;
      const other = (await store("rebuilt the search index for invoices", "run-2")).id;
      const scoped = await memory.recall({
        query_text: "rebuilt the search index",
        session_id: "run-1",
        min_score: 0,
        top_k: 20,
      });
      expect(scoped.results.map((result) => result.id)).toEqual([mine]);
      expect(scoped.results[0]).toMatchObject({ session_id: "run-1" });
      const all = await memory.recall({ query_text: "rebuilt the search index", top_k: 20 });
      expect(all.results.map((result) => result.id)).toEqual(expect.arrayContaining([mine, other]));
      // Memories stored without a session have none.
      const [unscoped] = (await memory.recall({ query_text: "billing deploy port in use" }))
        .results;
      expect(unscoped).toMatchObject({ id: deployFailure, session_id: null });
    });

    it("counts recalls as accesses", async () => {
      const first = await memory.recall({ query_text: "payments race condition refunds" });
      const second = await memory.recall({ query_text: "payments race condition refunds" });
      expect(first.results[0]!.id).toBe(reviewSuccess);
      expect(second.results[0]!.access_count).toBe(first.results[0]!.access_count + 1);
      expect((second.results[0] as { last_accessed_at: Date }).last_accessed_at).toEqual(
        clock.now(),
      );
    });

    it("finds a Chinese word inside a longer Chinese sentence", async () => {
      const { results } = await memory.recall({ query_text: "中文回复" });
      expect(results.map((r) => r.id)).toContain(chinese);
    });

    it("finds a memory by its context and by other forms of its words", async () => {
      const question = "Mel: Which trail did you take at the lake last weekend?";
      const { ids } = await memory.storeEpisodicBatch([
        {
          task_type: "chat",
          summary: question,
          outcome: "success",
          user_id: "context-case",
        },
        {
          task_type: "chat",
          summary: "Caroline: The northern one, it was beautiful!",
          context: question,
          outcome: "success",
          user_id: "context-case",
        },
      ]);
      const byContext = await memory.recall({
        query_text: "trails at the lake",
        user_id: "context-case",
        explain: true,
      });
      const [asked, reply] = ids.map((id) => byContext.results.find((r) => r.id === id));
      expect(reply, "the reply is found by the words of its context").toBeDefined();
      expect(reply).not.toHaveProperty("context");
      expect(reply).toMatchObject({ summary: "Caroline: The northern one, it was beautiful!" });
      // Context words count for less than a memory's own ("trails" finds "trail": stemming).
      expect(reply!.explanation!.bm25).toBeGreaterThan(0);
      expect(reply!.explanation!.bm25).toBeLessThan(asked!.explanation!.bm25);
      const byOwnWord = await memory.recall({ query_text: "Caroline", user_id: "context-case" });
      expect(byOwnWord.results[0]!.id).toBe(ids[1]);
    });

    it("ranks the turn that says something above the reply that takes it up", async () => {
      // Turns of a conversation, each stored with the one before it as context.
      const turns = [
        ["Caroline: How was your week?", "Melanie: I just signed up for a pottery class!"],
        ["Melanie: I just signed up for a pottery class!", "Caroline: A pottery class, how fun!"],
      ];
      const { ids } = await memory.storeEpisodicBatch(
        turns.map(([context, summary]) => ({
          task_type: "chat",
          summary: summary!,
          context: context!,
          outcome: "success" as const,
          user_id: "echo-case",
        })),
      );
      const { results } = await memory.recall({
        query_text: "Who signed up for a pottery class?",
        user_id: "echo-case",
        explain: true,
        min_score: 0,
      });
      expect(results.map((r) => r.id)).toEqual(ids);
      expect(results[0]!.explanation?.echo_weight).toBe(1);
      // The reply repeats two of its own five words, "pottery" and "class" (its task type
      // "chat", "caroline" and "fun" are new): 1 − (1 − 0.6) · 2/5.
      expect(results[1]!.explanation?.echo_weight).toBeCloseTo(0.84, 10);
    });

    it("answers a question asking when with the turn that says when", async () => {
      // Turns of a conversation, each stored with the one before it as context.
      const asked = "Joanna: How is the gaming going?";
      const { ids } = await memory.storeEpisodicBatch(
        [
          "Nate: I hope to win the tournament!",
          "Nate: I did win the tournament last week, and after the final match the whole crowd went wild for our team!",
        ].map((summary) => ({
          task_type: "chat",
          summary,
          context: asked,
          outcome: "success" as const,
          user_id: "when-case",
        })),
      );
      const [dreams, says] = ids;
      const ask = (query_text: string, user_id = "when-case") =>
        memory.recall({ query_text, user_id, explain: true, min_score: 0 });
      const when = await ask("When did Nate win the tournament?");
      expect(when.results.map((r) => r.id)).toEqual([says, dreams]);
      expect(when.results.map((r) => r.explanation?.when_weight)).toEqual([1, 0.7]);
      // The weight is what put the shorter, closer match second.
      const [first, second] = when.results;
      expect(second!.score / 0.7).toBeGreaterThan(first!.score);
      // A question that does not ask when weighs nothing down.
      const what = await ask("Did Nate win the tournament?");
      expect(what.results.map((r) => r.explanation?.when_weight)).toEqual([1, 1]);

      // A record stored on its own is placed in time by its timestamp: a plan that names a day
      // does not pass the record of what was done.
      const records = await memory.storeEpisodicBatch(
        [
          "Deployed billing v2 to production, all checks green",
          "Billing v2 rollout planned for next Friday",
        ].map((summary) => ({
          task_type: "deploy",
          summary,
          outcome: "success" as const,
          user_id: "when-records",
        })),
      );
      const deployed = await ask("When did we deploy billing v2?", "when-records");
      expect(deployed.results[0]?.id).toBe(records.ids[0]);
      expect(deployed.results.every((r) => r.explanation?.when_weight === 1)).toBe(true);
    });

    it("returns nothing rather than noise", async () => {
      const { results } = await memory.recall({
        query_text: "quantum chromodynamics lecture notes",
      });
      expect(results).toEqual([]);
    });

    it("understands periods named in the query, in English and Chinese", async () => {
      // The clock says Monday 2025-03-10; "yesterday" is Sunday 03-09, "last week" 03-03..03-09.
      const old = await memory.storeEpisodic({
        task_type: "ops",
        summary: "Rotated the database credentials for the payments cluster",
        outcome: "success",
        occurred_at: "2025-01-15T10:00:00Z",
      });
      const recent = await memory.storeEpisodic({
        task_type: "ops",
        summary: "Rotated the database credentials for the search cluster",
        outcome: "success",
        occurred_at: "2025-03-09T15:00:00Z",
      });
      const english = await memory.recall({
        query_text: "which credentials did I rotate yesterday?",
      });
      expect(english.results[0]?.id).toBe(recent.id);
      expect(english.time_expressions?.[0]).toMatchObject({
        text: "yesterday",
        precision: "exact",
      });

      const chinese = await memory.recall({ query_text: "上周做了什么", explain: true });
      expect(chinese.results.map((r) => r.id)).toContain(recent.id);
      expect(chinese.results.find((r) => r.id === recent.id)?.explanation?.time_match).toBe(1);
      expect(chinese.results.map((r) => r.id)).not.toContain(old.id);

      // Relative to another moment, in another time zone.
      const then = await memory.recall({
        query_text: "credentials rotated yesterday",
        query_time: "2025-01-16T09:00:00+08:00",
        time_zone: "Asia/Shanghai",
      });
      expect(then.results[0]?.id).toBe(old.id);
    });

    it("filters by task type, time range and user before ranking", async () => {
      // A zero floor isolates the filters from ranking.
      const byType = await memory.recall({
        query_text: "billing payments",
        task_type_filter: "code_review",
        min_score: 0,
      });
      expect(byType.results.map((r) => r.id)).toEqual([reviewSuccess]);
      const byTime = await memory.recall({
        query_text: "billing deploy payments review",
        time_range: "2025-02-01~2025-02-28",
        min_score: 0,
      });
      expect(byTime.results.map((r) => r.id)).toEqual([reviewSuccess]);
      const byUser = await memory.recall({
        query_text: "billing deploy payments review",
        user_id: "alice",
        min_score: 0,
      });
      expect(byUser.results.map((r) => r.id)).toEqual([deployFailure]);
    });

    it("filters by tags: any of them, or all of them", async () => {
      const tagged = await memory.storeSemantic({
        key_text: "billing deploys",
        value_text: "Billing deploys need the payments team's sign-off",
        tags: ["billing", "process"],
      });
      const recallTags = async (tags: string[], tags_match?: "any" | "all") =>
        (
          await memory.recall({
            query_text: "billing deploy payments review",
            memory_layer: "all",
            tags,
            ...(tags_match ? { tags_match } : {}),
            min_score: 0,
          })
        ).results
          .map((r) => r.id)
          .sort();
      expect(await recallTags(["k8s", "process"])).toEqual([deployFailure, tagged.id].sort());
      expect(await recallTags(["billing", "k8s"], "all")).toEqual([deployFailure]);
      expect(await recallTags(["billing", "process"], "all")).toEqual([tagged.id]);
      expect(await recallTags(["no-such-tag"])).toEqual([]);
      await expectError(memory.recall({ query_text: "x", tags: [] }), "INVALID_INPUT", "tags");
      await memory.forget({ memory_id: tagged.id, mode: "hard" });
    });

    it("lists memories newest first, page by page, by filter, without counting an access", async () => {
      const scope = { user_id: "lister" };
      const ids: string[] = [];
      for (const [day, tags] of [
        ["01", ["ops"]],
        ["02", ["ops", "db"]],
        ["03", ["db"]],
        ["04", []],
      ] as const) {
        const stored = await memory.storeEpisodic({
          ...scope,
          task_type: "inventory",
          summary: `Counted the stock on day ${day}`,
          outcome: "success",
          tags: [...tags],
          occurred_at: `2024-06-${day}T10:00:00Z`,
        });
        ids.push(stored.id);
      }
      const fact = await memory.storeSemantic({
        ...scope,
        key_text: "stock counts",
        value_text: "Stock is counted every morning",
        valid_from: "2024-06-05T00:00:00Z",
        source_episode_ids: [ids[0]!, ids[1]!],
      });
      const newestFirst = [fact.id, ...[...ids].reverse()];

      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await memory.list({ ...scope, limit: 2, ...(cursor ? { cursor } : {}) });
        expect(page.total).toBe(5);
        expect(page.memories.length).toBeLessThanOrEqual(2);
        seen.push(...page.memories.map((m) => m.id));
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      expect(seen).toEqual(newestFirst);

      const ids_ = async (input: Record<string, unknown>) =>
        (await memory.list({ ...scope, ...input })).memories.map((m) => m.id);
      expect(await ids_({ memory_layer: "episodic" })).toEqual([...ids].reverse());
      expect(await ids_({ tags: ["ops"] })).toEqual([ids[1], ids[0]]);
      expect(await ids_({ tags: ["ops", "db"], tags_match: "all" })).toEqual([ids[1]]);
      expect(await ids_({ time_range: "2024-06-02~2024-06-03T23:59:59Z" })).toEqual([
        ids[2],
        ids[1],
      ]);
      await memory.forget({ memory_id: ids[3]! });
      expect(await ids_({ status: "archived" })).toEqual([ids[3]]);
      expect(await ids_({})).not.toContain(ids[3]);
      expect(await ids_({ status: "all" })).toHaveLength(5);

      const [listed] = (await memory.list({ ...scope, memory_layer: "semantic" })).memories;
      expect(listed).toMatchObject({ layer: "semantic", id: fact.id, access_count: 0 });
      const got = await memory.get({ memory_id: fact.id });
      expect(got).toMatchObject({
        layer: "semantic",
        key_text: "stock counts",
        access_count: 0,
        provenance: { sources: expect.arrayContaining([ids[0], ids[1]]), superseded_by: null },
      });
      const episode = await memory.get({ memory_id: ids[0]! });
      expect(episode.provenance.consolidated_into).toEqual([fact.id]);

      await expectError(memory.get({ memory_id: randomUUID() }), "NOT_FOUND", "memory_id");
      await expectError(memory.list({ cursor: "bm90IGEgY3Vyc29y" }), "INVALID_INPUT", "cursor");
      await expectError(memory.list({ limit: 101 }), "INVALID_INPUT", "limit");
      for (const id of [...ids, fact.id]) await memory.forget({ memory_id: id, mode: "hard" });
    });

    it("corrects a memory: re-embedded and re-indexed, the old text kept in its history", async () => {
      const { id } = await memory.storeEpisodic({
        task_type: "billing",
        summary: "Invoice run crashed on the walrus currency",
        outcome: "failure",
        tags: ["invoices"],
        context: "the nightly batch job",
      });
      const corrected = await memory.update({
        memory_id: id,
        summary: "Invoice run crashed on the narwhal currency",
        tags: ["invoices", "currency"],
        confidence: 0.8,
        reason: "the currency was misnamed",
      });
      expect(corrected).toMatchObject({
        id,
        summary: "Invoice run crashed on the narwhal currency",
        tags: ["invoices", "currency"],
        confidence: 0.8,
        changed: ["summary", "tags", "confidence"],
      });
      const find = async (query: string) =>
        (await memory.recall({ query_text: query, task_type_filter: "billing" })).results.map(
          (r) => r.id,
        );
      expect(await find("narwhal currency")).toEqual([id]);
      expect(await find("walrus")).toEqual([]);
      // The context's words were kept: they are not the memory's own text.
      expect(await find("nightly batch job")).toEqual([id]);
      const history = await memory.history({ memory_id: id });
      expect(history.events.at(-1)).toMatchObject({
        event: "updated",
        reason: "the currency was misnamed",
        details: {
          fields: ["summary", "tags", "confidence"],
          previous: { summary: "Invoice run crashed on the walrus currency", tags: ["invoices"] },
        },
      });
      const [entry] = (await memory.audit({ operation: "update", memory_id: id })).entries;
      expect(entry?.details).toEqual({ fields: ["summary", "tags", "confidence"] });
      const again = { memory_id: id, summary: "Invoice run crashed on the narwhal currency" };
      expect((await memory.update(again)).changed).toEqual([]);

      const fact = await memory.storeSemantic({ key_text: "walrus rule", value_text: "tusks" });
      expect(
        await memory.update({ memory_id: fact.id, value_text: "tusks are ivory" }),
      ).toMatchObject({
        layer: "semantic",
        key_text: "walrus rule",
        value_text: "tusks are ivory",
      });
      await expectError(
        memory.update({ memory_id: fact.id, summary: "x" }),
        "INVALID_INPUT",
        "summary",
      );
      await expectError(memory.update({ memory_id: id }), "INVALID_INPUT");
      await expectError(
        memory.update({ memory_id: randomUUID(), summary: "x" }),
        "NOT_FOUND",
        "memory_id",
      );
      for (const gone of [id, fact.id]) await memory.forget({ memory_id: gone, mode: "hard" });
    });

    it("keeps semantic memory apart unless asked, and links provenance", async () => {
      const { id } = await memory.storeSemantic({
        key_text: "Check that the port is free before deploying the billing service",
        value_text: "Run lsof -i :8080 first",
        task_type: "deploy",
        source_episode_ids: [deployFailure],
      });
      const episodic = await memory.recall({ query_text: "port free before deploying billing" });
      expect(episodic.results.every((r) => r.layer === "episodic")).toBe(true);
      const semantic = await memory.recall({
        query_text: "port free before deploying billing",
        memory_layer: "semantic",
      });
      expect(semantic.results[0]).toMatchObject({ id, layer: "semantic", confidence: 1 });
      const all = await memory.recall({
        query_text: "port free before deploying billing",
        memory_layer: "all",
      });
      expect(new Set(all.results.map((r) => r.layer))).toEqual(new Set(["episodic", "semantic"]));
    });

    it("writes nothing when provenance names an unknown episode", async () => {
      const before = await memory.stats();
      await expectError(
        memory.storeSemantic({
          key_text: "orphan",
          value_text: "no source",
          source_episode_ids: ["00000000-0000-4000-8000-000000000000"],
        }),
        "NOT_FOUND",
        "source_episode_ids",
      );
      expect((await memory.stats()).semantic).toEqual(before.semantic);
    });

    it("writes nothing from a batch with one bad item", async () => {
      const before = await memory.stats();
      await expectError(
        memory.storeEpisodicBatch([
          { task_type: "t", summary: "fine", outcome: "success" },
          // @ts-expect-error: an outcome the schema refuses, as a JavaScript caller could send
          { task_type: "t", summary: "bad", outcome: "great" },
        ]),
        "INVALID_INPUT",
        "[1].outcome",
      );
      expect((await memory.stats()).episodic).toEqual(before.episodic);
    });

    it("rejects bad input naming the field", async () => {
      await expectError(
        memory.storeEpisodic({ task_type: "t", summary: "", outcome: "success" }),
        "INVALID_INPUT",
        "summary",
      );
      await expectError(memory.recall({ query_text: "x", top_k: 50 }), "INVALID_INPUT", "top_k");
      await expectError(
        memory.recall({ query_text: "x", time_range: "soon" }),
        "INVALID_INPUT",
        "time_range",
      );
      await expectError(memory.forget({ memory_id: "not-a-uuid" }), "INVALID_INPUT", "memory_id");
      await expectError(
        memory.forget({ memory_id: "00000000-0000-4000-8000-000000000000" }),
        "NOT_FOUND",
        "memory_id",
      );
    });

    it("forgets softly (archived, recallable on request) and hard (gone)", async () => {
      const { id } = await memory.storeEpisodic({
        task_type: "note",
        summary: "zebra crossing paint order arrived",
        outcome: "success",
      });
      const query = { query_text: "zebra crossing paint" };
      expect((await memory.recall(query)).results.map((r) => r.id)).toContain(id);
      const before = await memory.stats();

      expect(await memory.forget({ memory_id: id })).toMatchObject({
        mode: "soft",
        status: "archived",
      });
      expect((await memory.recall(query)).results.map((r) => r.id)).not.toContain(id);
      const archived = await memory.recall({ ...query, include_archived: true });
      expect(archived.results.find((r) => r.id === id)?.status).toBe("archived");
      const afterSoft = await memory.stats();
      expect(afterSoft.episodic.archived).toBe(before.episodic.archived + 1);
      expect(afterSoft.episodic.total).toBe(before.episodic.total);

      expect(await memory.forget({ memory_id: id, mode: "hard" })).toMatchObject({
        status: "deleted",
      });
      expect(
        (await memory.recall({ ...query, include_archived: true })).results.map((r) => r.id),
      ).not.toContain(id);
      expect((await memory.stats()).episodic.total).toBe(before.episodic.total - 1);
    });

    it("finds rare filtered rows among many (filtered vector search does not starve)", async () => {
      await memory.storeEpisodicBatch(
        Array.from({ length: 300 }, (_, i) => ({
          task_type: "bulk",
          summary: `routine nightly backup job number ${i} finished`,
          outcome: "success" as const,
        })),
      );
      const rare = await memory.storeEpisodicBatch(
        [1, 2, 3].map((i) => ({
          task_type: "rare",
          summary: `routine nightly backup job variant ${i} finished`,
          outcome: "partial" as const,
        })),
      );
      const { results } = await memory.recall({
        query_text: "routine nightly backup job finished",
        task_type_filter: "rare",
        top_k: 10,
      });
      expect(new Set(results.map((r) => r.id))).toEqual(new Set(rare.ids));
    });

    it("reports counts, the store and the embedder", async () => {
      const stats = await memory.stats();
      expect(stats.embedder).toBe("hash-v1");
      expect(stats.store).toMatch(backend.name === "postgres" ? /^postgres:/ : /^pglite:/);
      expect(stats.store).not.toContain("password");
      expect(stats.episodic.total).toBe(stats.episodic.active + stats.episodic.archived);
    });

    it("reopens with migrations already applied, and refuses another embedder", async () => {
      await memory.close();
      memory = await createHindsight(location, { clock });
      expect(await memory.migrate()).toEqual({
        applied: [],
        current: MIGRATIONS.at(-1)!.version,
        store: (await memory.stats()).store,
      });
      expect((await memory.recall({ query_text: "billing deploy port" })).results[0]?.id).toBe(
        deployFailure,
      );
      await memory.close();
      await expectError(
        createHindsight(location, { clock, embedder: createHashEmbedder(128) }),
        "EMBEDDER_MISMATCH",
      );
      memory = await createHindsight(location, { clock });
    });
  });
});
