/**
 * The memory records contract (core/memories/ports `MemoryRecords`) on every backend: episodes
 * written in bulk and idempotently, rows of either layer read back by id as they were written.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { INSERT_BATCH } from "../../src/adapters/storage/insert-rows.js";
import type { NewEpisodic } from "../../src/core/memories/ports.js";
import type { CandidateSet } from "../../src/core/recall/ports.js";
import { queryTerms } from "../../src/core/recall/search-text.js";
import type { MemoryLayer } from "../../src/core/types.js";
import { BACKENDS } from "../support/backends.js";
import { contractStore, daysAfter, failure, newEpisodic, newSemantic, unique } from "./support.js";

/** A written row as the store reads it back: no vector, no search text, not recalled yet. */
function stored(row: NewEpisodic) {
  const { embedding: _embedding, search_text: _searchText, ...fields } = row;
  return { layer: "episodic", ...fields, access_count: 0, last_accessed_at: null };
}

describe.each(BACKENDS)("memory records contract on $name", (backend) => {
  const store = contractStore(backend);

  describe.skipIf(backend.skip !== undefined)("with the backend available", () => {
    it("reads an episode back with every field it was written with", async () => {
      const row = newEpisodic({
        occurred_at: new Date("2024-11-05T08:30:15.123Z"),
        recorded_at: new Date("2024-11-06T10:00:00.456Z"),
        task_type: unique("deploy"),
        summary: "Deploying billing failed: port 8080 already in use",
        outcome: "failure",
        metadata: { ticket: "OPS-12", attempts: 2, nested: { ok: false, list: [1, "two", null] } },
        tags: ["billing", "k8s"],
        source: "conversation-7",
        subject: "billing service",
        user_id: "alice",
        agent_id: "ops-bot",
        session_id: "run-42",
        confidence: 0.75,
        decay_score: 0.5,
        status: "archived",
      });
      await store.storage.memories.insertEpisodic([row]);
      const [read] = await store.storage.memories.getMany("episodic", [row.id]);
      expect(read).toEqual(stored(row));
      expect(read!.layer === "episodic" && read!.occurred_at).toBeInstanceOf(Date);
    });

    it("reads knowledge back with its scope, validity and sharing", async () => {
      const row = newSemantic({
        key_text: "billing deploy port",
        value_text: "billing listens on 8081 since the proxy took 8080",
        task_type: "deploy",
        confidence: 0.625,
        created_at: new Date("2024-10-01T00:00:00Z"),
        updated_at: new Date("2024-10-02T00:00:00Z"),
        valid_from: new Date("2024-09-30T00:00:00Z"),
        metadata: { origin: { kind: "manual" } },
        tags: ["billing"],
        source: "runbook",
        subject: "billing service",
        user_id: "alice",
        agent_id: "ops-bot",
        session_id: "run-42",
        shared_group: unique("ops"),
        source_trust: "low",
        review_status: "quarantined",
      });
      expect(await store.storage.knowledge.insertSemantic(row)).toBe(true);
      const [read] = await store.storage.memories.getMany("semantic", [row.id]);
      const {
        embedding: _embedding,
        search_text: _searchText,
        source_episode_ids: _sources,
        ...fields
      } = row;
      expect(read).toEqual({
        layer: "semantic",
        ...fields,
        access_count: 0,
        last_used_at: null,
        decay_score: 1,
        superseded_by: null,
      });
    });

    it("skips an id stored before: neither duplicated nor overwritten, nor counted twice", async () => {
      const taskType = unique("retry");
      const original = newEpisodic({ task_type: taskType, summary: "the first write wins" });
      await store.storage.memories.insertEpisodic([original]);
      const corpus = async (): Promise<CandidateSet["corpus"]> =>
        (
          await store.storage.recall.findCandidates({
            layer: "episodic",
            embedding: original.embedding,
            keywords: queryTerms(taskType),
            filter: { task_type: taskType, include_archived: true },
            limit: 10,
          })
        ).corpus;
      const before = await corpus();

      const retried: NewEpisodic = {
        ...newEpisodic({ task_type: taskType, summary: "a retry must not overwrite" }),
        id: original.id,
      };
      const fresh = newEpisodic({ task_type: taskType });
      await store.storage.memories.insertEpisodic([retried, fresh]);

      const read = await store.storage.memories.getMany("episodic", [original.id, fresh.id]);
      expect(read.map((row) => row.id).sort()).toEqual([original.id, fresh.id].sort());
      expect(read.find((row) => row.id === original.id)).toEqual(stored(original));
      const after = await corpus();
      // Only the new episode joined the keyword statistics; the skipped retry did not.
      expect(after.documents).toBe(before.documents + 1);
      expect(after.documentFrequency.get(queryTerms(taskType)[0]!)).toBe(2);
    });

    it("leaves out ids that do not exist, and ids of the other layer", async () => {
      const episode = newEpisodic();
      const knowledge = newSemantic();
      await store.storage.memories.insertEpisodic([episode]);
      await store.storage.knowledge.insertSemantic(knowledge);

      const read = await store.storage.memories.getMany("episodic", [
        randomUUID(),
        episode.id,
        knowledge.id,
      ]);
      expect(read.map((row) => row.id)).toEqual([episode.id]);
      expect(await store.storage.memories.getMany("semantic", [episode.id])).toEqual([]);
      expect(await store.storage.memories.getMany("episodic", [])).toEqual([]);
    });

    it("writes more rows than one INSERT holds in a single call", async () => {
      const taskType = unique("bulk");
      const rows = Array.from({ length: INSERT_BATCH + 1 }, (_, i) =>
        newEpisodic({
          task_type: taskType,
          summary: `bulk episode ${i}`,
          occurred_at: daysAfter(-i),
        }),
      );
      await store.storage.memories.insertEpisodic(rows);
      const read = await store.storage.memories.getMany(
        "episodic",
        rows.map((row) => row.id),
      );
      expect(read).toHaveLength(rows.length);
      const last = rows.at(-1)!;
      expect(read.find((row) => row.id === last.id)).toEqual(stored(last));
    });

    it("writes nothing when any row of a call fails, however many batches came before", async () => {
      const rows = Array.from({ length: INSERT_BATCH + 2 }, () => newEpisodic());
      // The row after the first full batch has a vector of the wrong size.
      rows[INSERT_BATCH + 1] = { ...rows[INSERT_BATCH + 1]!, embedding: new Float32Array(3) };
      const error = await failure(store.storage.memories.insertEpisodic(rows));
      expect(error.code).toBe("STORAGE_FAILED");
      expect(
        await store.storage.memories.getMany(
          "episodic",
          rows.map((row) => row.id),
        ),
      ).toEqual([]);
    });

    it("lists newest first across layers, page after page, each memory once", async () => {
      const user = unique("lister");
      const day = (n: number) => daysAfter(n);
      const episodes = [1, 2, 2, 4].map((n) =>
        newEpisodic({ user_id: user, occurred_at: day(n), tags: n === 2 ? ["two"] : [] }),
      );
      await store.storage.memories.insertEpisodic(episodes);
      const fact = newSemantic({ user_id: user, valid_from: day(3), tags: ["two", "fact"] });
      await store.storage.knowledge.insertSemantic(fact);
      const list = store.storage.memories;
      const query = {
        layers: ["episodic", "semantic"] as MemoryLayer[],
        filter: { status: "active" as const, user_id: user },
      };

      const seen: string[] = [];
      let after: Awaited<ReturnType<typeof list.list>>["next"];
      do {
        const page = await list.list({ ...query, limit: 2, ...(after ? { after } : {}) });
        expect(page.total).toBe(5);
        seen.push(...page.memories.map((m) => m.id));
        after = page.next;
      } while (after);
      // Equal times are ordered by id, so the two of day 2 have one order on every page.
      const dayTwo = [episodes[1]!.id, episodes[2]!.id].sort().reverse();
      expect(seen).toEqual([episodes[3]!.id, fact.id, ...dayTwo, episodes[0]!.id]);

      const ids = async (filter: Record<string, unknown>, layers = query.layers) =>
        (
          await list.list({ layers, filter: { ...query.filter, ...filter }, limit: 10 })
        ).memories.map((m) => m.id);
      expect(await ids({ tags: { values: ["two"], match: "any" } })).toEqual([fact.id, ...dayTwo]);
      expect(await ids({ tags: { values: ["two", "fact"], match: "all" } })).toEqual([fact.id]);
      expect(await ids({ from: day(2), to: day(3) })).toEqual([fact.id, ...dayTwo]);
      expect(await ids({}, ["semantic"])).toEqual([fact.id]);
      // Statuses that only knowledge has list no episode.
      expect(await ids({ status: "quarantined" })).toEqual([]);
      expect(
        await list.list({ ...query, filter: { ...query.filter, status: "superseded" }, limit: 1 }),
      ).toEqual({ memories: [], total: 0 });
    });
  });
});
