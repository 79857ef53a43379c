/**
 * The knowledge store contract (core/lifecycle/ports `KnowledgeStore`) on every backend:
 * knowledge inserted with its sources and what it supersedes, the same-scope neighbours
 * deduplication compares with, merges, and the idempotence of retried requests.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashEmbed } from "../../src/adapters/embedders/hash.js";
import type { NeighbourQuery, SemanticMerge } from "../../src/core/lifecycle/ports.js";
import type { NewSemantic } from "../../src/core/memories/ports.js";
import { queryTerms, searchText } from "../../src/core/recall/search-text.js";
import { PRIVATE } from "../../src/core/sharing/types.js";
import { BACKENDS } from "../support/backends.js";
import {
  AT,
  contractStore,
  daysAfter,
  failure,
  newEpisodic,
  newSemantic,
  unique,
} from "./support.js";

describe.each(BACKENDS)("knowledge store contract on $name", (backend) => {
  const store = contractStore(backend);

  const neighbours = (row: NewSemantic, overrides: Partial<NeighbourQuery> = {}) =>
    store.storage.knowledge.semanticNeighbours({
      embedding: row.embedding,
      key_text: row.key_text,
      task_type: row.task_type,
      user_id: row.user_id,
      agent_id: row.agent_id,
      shared_group: row.shared_group,
      limit: 5,
      ...overrides,
    });

  /** What recall finds of a task type for a word, besides the one memory nearest `decoy`. */
  const keywordHits = async (decoy: NewSemantic, word: string) => {
    const { candidates } = await store.storage.recall.findCandidates({
      layer: "semantic",
      embedding: decoy.embedding,
      keywords: queryTerms(word),
      filter: { task_type: decoy.task_type!, include_archived: false },
      limit: 1,
    });
    return candidates.map((candidate) => candidate.id).filter((id) => id !== decoy.id);
  };

  describe.skipIf(backend.skip !== undefined)("with the backend available", () => {
    it("inserts knowledge linked to its source episodes, with a creation event", async () => {
      const episodes = [newEpisodic(), newEpisodic()];
      await store.storage.memories.insertEpisodic(episodes);
      const row = newSemantic({ source_episode_ids: episodes.map((episode) => episode.id) });
      expect(await store.storage.knowledge.insertSemantic(row)).toBe(true);

      const history = await store.storage.lifecycle.history(row.id);
      expect(history?.sources.sort()).toEqual(episodes.map((episode) => episode.id).sort());
      expect(history?.events).toEqual([
        { event: "created", at: row.created_at, reason: "stored", details: {} },
      ]);
      expect((await store.storage.lifecycle.history(episodes[0]!.id))?.consolidated_into).toEqual([
        row.id,
      ]);
    });

    it("returns false for an id stored before and leaves that memory as it was", async () => {
      const row = newSemantic({ value_text: "the first write wins" });
      expect(await store.storage.knowledge.insertSemantic(row)).toBe(true);
      const retry = { ...newSemantic({ value_text: "a retry must not overwrite" }), id: row.id };
      expect(await store.storage.knowledge.insertSemantic(retry)).toBe(false);

      const [read] = await store.storage.memories.getMany("semantic", [row.id]);
      expect(read).toMatchObject({ value_text: "the first write wins" });
      expect((await store.storage.lifecycle.history(row.id))?.events).toHaveLength(1);
    });

    it("writes nothing when a source episode does not exist", async () => {
      const episode = newEpisodic();
      await store.storage.memories.insertEpisodic([episode]);
      const missing = randomUUID();
      const before = await store.storage.admin.counts("semantic");
      const row = newSemantic({ source_episode_ids: [episode.id, missing] });

      const error = await failure(store.storage.knowledge.insertSemantic(row));
      expect(error).toMatchObject({ code: "NOT_FOUND", field: "source_episode_ids" });
      expect(await store.storage.memories.getMany("semantic", [row.id])).toEqual([]);
      expect(await store.storage.lifecycle.history(row.id)).toBeNull();
      expect((await store.storage.lifecycle.history(episode.id))?.consolidated_into).toEqual([]);
      expect(await store.storage.admin.counts("semantic")).toEqual(before);
    });

    it("supersedes the memories a change names, on both sides of their history", async () => {
      const old = newSemantic({ key_text: "billing port", value_text: "8080" });
      await store.storage.knowledge.insertSemantic(old);
      const newer = newSemantic({
        key_text: "billing port",
        value_text: "8081",
        created_at: daysAfter(1),
      });
      const at = daysAfter(1);
      await store.storage.knowledge.insertSemantic(newer, {
        at,
        reason: "stored",
        details: { rule: "same key, different value" },
        supersedes: [old.id],
      });

      const [oldRead] = await store.storage.memories.getMany("semantic", [old.id]);
      expect(oldRead).toMatchObject({ valid_to: at, superseded_by: newer.id });
      const newerHistory = await store.storage.lifecycle.history(newer.id);
      expect(newerHistory?.supersedes).toEqual([old.id]);
      expect(newerHistory?.events[0]).toMatchObject({
        event: "created",
        details: { rule: "same key, different value", supersedes: [old.id] },
      });
      const oldHistory = await store.storage.lifecycle.history(old.id);
      expect(oldHistory?.superseded_by).toBe(newer.id);
      expect(oldHistory?.events.map((event) => event.event)).toEqual(["created", "superseded"]);
      expect(await store.storage.audit.list({ memory_id: old.id, limit: 10 })).toEqual([
        expect.objectContaining({ operation: "supersede", layer: "semantic" }),
      ]);

      // Knowledge already superseded stays with what superseded it first.
      const third = newSemantic({ key_text: "billing port", value_text: "9090" });
      await store.storage.knowledge.insertSemantic(third, {
        at: daysAfter(2),
        reason: "stored",
        supersedes: [old.id],
      });
      expect((await store.storage.lifecycle.history(old.id))?.superseded_by).toBe(newer.id);
      expect((await store.storage.lifecycle.history(third.id))?.supersedes).toEqual([]);
    });

    it("finds current knowledge of the same scope, most similar first, and equal keys", async () => {
      const scope = { task_type: unique("deploy"), user_id: unique("user"), agent_id: "bot" };
      const similar = newSemantic({
        ...scope,
        key_text: "billing service deploy",
        value_text: "the billing service deploys with helm on the staging cluster",
        tags: ["billing"],
        metadata: { origin: "runbook" },
        confidence: 0.5,
        source: "runbook",
      });
      const sameKey = newSemantic({
        ...scope,
        key_text: "Payment Retries!",
        value_text: "three attempts",
      });
      const others = [
        newSemantic({ ...similar, id: randomUUID(), user_id: unique("user") }),
        newSemantic({ ...similar, id: randomUUID(), agent_id: "other-bot" }),
        newSemantic({ ...similar, id: randomUUID(), task_type: null }),
        newSemantic({ ...similar, id: randomUUID(), status: "archived" }),
        newSemantic({ ...similar, id: randomUUID(), valid_to: AT }),
        newSemantic({
          ...similar,
          id: randomUUID(),
          shared_group: unique("group"),
          source_trust: "normal",
          review_status: "confirmed",
        }),
      ];
      for (const row of [similar, sameKey, ...others]) {
        await store.storage.knowledge.insertSemantic(row);
      }

      const query = newSemantic({
        ...scope,
        key_text: "payment   retries",
        value_text: similar.value_text,
        embedding: similar.embedding,
      });
      const found = await neighbours(query);
      expect(found.map((neighbour) => neighbour.id)).toEqual([similar.id, sameKey.id]);
      expect(found[0]).toEqual({
        id: similar.id,
        key_text: similar.key_text,
        value_text: similar.value_text,
        confidence: 0.5,
        tags: ["billing"],
        metadata: { origin: "runbook" },
        similarity: expect.closeTo(1, 5),
        same_key: false,
        source_trust: null,
        agent_id: "bot",
        source: "runbook",
      });
      expect(found[1]).toMatchObject({ same_key: true });
      expect(found[1]!.similarity).toBeLessThan(found[0]!.similarity);
      expect(await neighbours(query, { limit: 1 })).toHaveLength(2);
    });

    it("compares shared knowledge with the group's confirmed knowledge, whoever wrote it", async () => {
      const group = unique("group");
      const shared = { task_type: unique("shared"), shared_group: group } as const;
      const confirmed = newSemantic({
        ...shared,
        agent_id: "writer-a",
        source_trust: "normal",
        review_status: "confirmed",
      });
      const quarantined = newSemantic({
        ...confirmed,
        id: randomUUID(),
        source_trust: "low",
        review_status: "quarantined",
      });
      const privateCopy = newSemantic({ ...confirmed, id: randomUUID(), ...PRIVATE });
      for (const row of [confirmed, quarantined, privateCopy]) {
        await store.storage.knowledge.insertSemantic(row);
      }

      const found = await neighbours({ ...confirmed, agent_id: "writer-b" });
      expect(found.map((neighbour) => neighbour.id)).toEqual([confirmed.id]);
      expect(found[0]).toMatchObject({ source_trust: "normal", agent_id: "writer-a" });
    });

    it("merges into a memory: its text, search terms, sources and a merged event", async () => {
      const task_type = unique("merge");
      const target = newSemantic({ task_type, key_text: "deploy window", value_text: "tuesdays" });
      const decoy = newSemantic({ task_type, key_text: "lunch", value_text: "noodles at noon" });
      await store.storage.knowledge.insertSemantic(target);
      await store.storage.knowledge.insertSemantic(decoy);
      const episode = newEpisodic();
      await store.storage.memories.insertEpisodic([episode]);
      const word = `merged${randomUUID().replace(/[^a-f]/g, "")}`;
      expect(await keywordHits(decoy, word)).toEqual([]);
      const requestId = randomUUID();
      const merge: SemanticMerge = {
        target_id: target.id,
        key_text: "deploy window",
        value_text: `tuesdays and thursdays ${word}`,
        embedding: hashEmbed(`deploy window tuesdays and thursdays ${word}`),
        search_text: searchText(["deploy window", `tuesdays and thursdays ${word}`, "ops"]),
        confidence: 0.9,
        tags: ["ops"],
        metadata: { merged: true },
        source_episode_ids: [episode.id],
        at: daysAfter(1),
        reason: "a near-duplicate was merged in",
        details: { request_id: requestId, similarity: 0.95 },
      };
      expect(await store.storage.knowledge.mergeSemantic(merge)).toBe(true);

      const [read] = await store.storage.memories.getMany("semantic", [target.id]);
      expect(read).toMatchObject({
        value_text: merge.value_text,
        confidence: expect.closeTo(0.9, 5),
        tags: ["ops"],
        metadata: { merged: true },
        created_at: target.created_at,
        updated_at: merge.at,
      });
      const history = await store.storage.lifecycle.history(target.id);
      expect(history?.sources).toEqual([episode.id]);
      expect(history?.events.at(-1)).toEqual({
        event: "merged",
        at: merge.at,
        reason: merge.reason,
        details: merge.details,
      });
      // The merged text is what keyword search finds it by.
      expect(await keywordHits(decoy, word)).toEqual([target.id]);
      expect(await store.storage.knowledge.mergedRequest(requestId)).toBe(target.id);
      expect(await store.storage.knowledge.mergedRequest(randomUUID())).toBeNull();
    });

    it("merges nothing into a memory that no longer exists", async () => {
      const requestId = randomUUID();
      const row = newSemantic();
      const merged = await store.storage.knowledge.mergeSemantic({
        target_id: randomUUID(),
        key_text: row.key_text,
        value_text: row.value_text,
        embedding: row.embedding,
        search_text: row.search_text,
        confidence: 1,
        tags: [],
        metadata: {},
        source_episode_ids: [],
        at: AT,
        reason: "retry",
        details: { request_id: requestId },
      });
      expect(merged).toBe(false);
      expect(await store.storage.knowledge.mergedRequest(requestId)).toBeNull();
    });
  });
});
