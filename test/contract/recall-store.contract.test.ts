/**
 * The recall store contract (core/recall/ports `RecallStore`) on every backend: candidates by
 * vector and by keyword that pass recall's filters and sharing rules, the corpus statistics
 * their BM25 scores need, and the access record recall leaves behind.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashEmbed } from "../../src/adapters/embedders/hash.js";
import type { CandidateFilter, CandidateQuery } from "../../src/core/recall/ports.js";
import { queryTerms } from "../../src/core/recall/search-text.js";
import type { MemoryLayer } from "../../src/core/types.js";
import { BACKENDS } from "../support/backends.js";
import { AT, contractStore, daysAfter, newEpisodic, newSemantic, unique } from "./support.js";

/** A word of letters that no other memory in the store holds. */
const rareWord = () =>
  `zq${[...randomBytes(8)].map((byte) => String.fromCharCode(97 + (byte % 26))).join("")}`;

describe.each(BACKENDS)("recall store contract on $name", (backend) => {
  const store = contractStore(backend);

  function candidates(query: Partial<CandidateQuery> & { filter: CandidateFilter }) {
    return store.storage.recall.findCandidates({
      layer: "episodic",
      embedding: hashEmbed("nothing in particular"),
      keywords: [],
      limit: 20,
      ...query,
    });
  }

  async function idsFound(query: Partial<CandidateQuery> & { filter: CandidateFilter }) {
    const { candidates: found } = await candidates(query);
    return found.map((candidate) => candidate.id).sort();
  }

  const sorted = (...rows: { id: string }[]) => rows.map((row) => row.id).sort();

  /** The same query on both layers, in one call: the episodic set, then the semantic one. */
  function bothLayers(query: Omit<CandidateQuery, "layer">) {
    return store.storage.recall.findCandidateSets([
      { ...query, layer: "episodic" },
      { ...query, layer: "semantic" },
    ]);
  }

  describe.skipIf(backend.skip !== undefined)("with the backend available", () => {
    it("returns the memory nearest the query vector, with what ranking needs of it", async () => {
      const task_type = unique("nearest");
      const target = newEpisodic({
        task_type,
        summary: "Rotated the TLS certificates on the public gateway",
        outcome: "partial",
        occurred_at: daysAfter(-3),
      });
      await store.storage.memories.insertEpisodic([
        newEpisodic({ task_type, summary: "Planned the quarterly hiring budget with finance" }),
        target,
        newEpisodic({ task_type, summary: "Fixed a flaky login test in the mobile app" }),
      ]);

      const { candidates: found } = await candidates({
        embedding: target.embedding,
        filter: { task_type, include_archived: false },
        limit: 1,
      });
      expect(found).toHaveLength(1);
      expect(found[0]).toEqual({
        layer: "episodic",
        id: target.id,
        vector_similarity: expect.closeTo(1, 5),
        search_text: target.search_text,
        event_time: target.occurred_at,
        access_count: 0,
        outcome: "partial",
        asks: false,
      });
    });

    it("says which memories end with a question, in either script, by their own text", async () => {
      const task_type = unique("asks");
      const word = rareWord();
      const [term] = queryTerms(word);
      const episodes = {
        asks: newEpisodic({ task_type, summary: `Loved the ${word} demo! What made you try it?` }),
        asksInChinese: newEpisodic({ task_type, summary: `${word} 的演示你看了吗？\n` }),
        tells: newEpisodic({
          task_type,
          summary: `Why the ${word} demo failed: the port was taken`,
        }),
      };
      const facts = {
        asks: newSemantic({ task_type, key_text: `${word} owner`, value_text: "Who owns it now?" }),
        tells: newSemantic({
          task_type,
          key_text: `${word} owner?`,
          value_text: "the platform team",
        }),
      };
      await store.storage.memories.insertEpisodic(Object.values(episodes));
      for (const fact of Object.values(facts)) await store.storage.knowledge.insertSemantic(fact);
      const [episodic, semantic] = await bothLayers({
        embedding: episodes.tells.embedding,
        keywords: [term!],
        filter: { task_type, include_archived: false },
        limit: 10,
      });
      const asking = (set: typeof episodic) =>
        Object.fromEntries(set!.candidates.map((c) => [c.id, c.asks]));
      expect(asking(episodic)).toEqual({
        [episodes.asks.id]: true,
        [episodes.asksInChinese.id]: true,
        [episodes.tells.id]: false,
      });
      expect(asking(semantic)).toEqual({ [facts.asks.id]: true, [facts.tells.id]: false });
    });

    it("adds memories sharing a selective query word, and the corpus statistics of the words", async () => {
      const task_type = unique("keyword");
      const word = rareWord();
      const [term] = queryTerms(word);
      const nearest = newEpisodic({ task_type, summary: "Rotated the TLS certificates" });
      const sharing = newEpisodic({ task_type, summary: `The ${word} mascot came to standup` });
      const neither = newEpisodic({ task_type, summary: "Ordered new chairs for the office" });
      await store.storage.memories.insertEpisodic([nearest, sharing, neither]);

      const { candidates: found, corpus } = await candidates({
        embedding: nearest.embedding,
        keywords: [term!],
        filter: { task_type, include_archived: false },
        limit: 1,
      });
      expect(sorted(...found)).toEqual(sorted(nearest, sharing));
      expect(corpus.documentFrequency.get(term!)).toBe(1);
      // The statistics describe every stored episode, not only those passing the filter.
      const { total } = await store.storage.admin.counts("episodic");
      expect(corpus.documents).toBe(total);
      expect(corpus.averageLength).toBeGreaterThan(0);
    });

    it("answers several layers' queries in one call, each set its own layer's with its statistics", async () => {
      const task_type = unique("layers");
      const word = rareWord();
      const [term] = queryTerms(word);
      const episode = newEpisodic({ task_type, summary: `The ${word} rollout failed twice` });
      const fact = newSemantic({
        task_type,
        key_text: `${word} rollouts`,
        value_text: "need a canary",
      });
      await store.storage.memories.insertEpisodic([episode]);
      await store.storage.knowledge.insertSemantic(fact);
      const [episodic, semantic] = await bothLayers({
        embedding: episode.embedding,
        keywords: [term!],
        filter: { task_type, include_archived: false },
        limit: 5,
      });
      expect(episodic!.candidates.map((c) => [c.layer, c.id])).toEqual([["episodic", episode.id]]);
      expect(semantic!.candidates.map((c) => [c.layer, c.id])).toEqual([["semantic", fact.id]]);
      expect(episodic!.candidates[0]!.outcome).toBe(episode.outcome);
      expect(semantic!.candidates[0]!.outcome).toBeNull();
      // Each layer's own corpus: the word is in one memory of each.
      expect(episodic!.corpus.documentFrequency.get(term!)).toBe(1);
      expect(semantic!.corpus.documentFrequency.get(term!)).toBe(1);
      expect(episodic!.corpus.documents).toBe((await store.storage.admin.counts("episodic")).total);
      expect(semantic!.corpus.documents).toBe((await store.storage.admin.counts("semantic")).total);
      expect(await store.storage.recall.findCandidateSets([])).toEqual([]);
    });

    it("honours every filter: task type, user, agent, session, period and archived", async () => {
      const task_type = unique("filters");
      const alice = unique("alice");
      const e1 = newEpisodic({
        task_type,
        user_id: alice,
        agent_id: "a1",
        session_id: "s1",
        occurred_at: daysAfter(-10),
      });
      const e2 = newEpisodic({
        task_type,
        user_id: unique("bob"),
        agent_id: "a1",
        session_id: "s2",
        occurred_at: daysAfter(-5),
      });
      const e3 = newEpisodic({
        task_type,
        user_id: alice,
        agent_id: "a2",
        session_id: "s1",
        occurred_at: daysAfter(0),
      });
      const archived = newEpisodic({
        task_type,
        user_id: alice,
        status: "archived",
        occurred_at: daysAfter(-1),
      });
      const otherTask = newEpisodic({ task_type: unique("filters"), user_id: alice });
      await store.storage.memories.insertEpisodic([e1, e2, e3, archived, otherTask]);

      const found = (filter: Omit<CandidateFilter, "task_type" | "include_archived">) =>
        idsFound({ filter: { task_type, include_archived: false, ...filter } });
      expect(await found({})).toEqual(sorted(e1, e2, e3));
      expect(await idsFound({ filter: { task_type, include_archived: true } })).toEqual(
        sorted(e1, e2, e3, archived),
      );
      expect(await found({ user_id: alice })).toEqual(sorted(e1, e3));
      expect(await idsFound({ filter: { user_id: alice, include_archived: false } })).toEqual(
        sorted(e1, e3, otherTask),
      );
      expect(await found({ agent_id: "a1" })).toEqual(sorted(e1, e2));
      expect(await found({ session_id: "s1" })).toEqual(sorted(e1, e3));
      // Both ends of a period are inclusive.
      expect(await found({ from: daysAfter(-5) })).toEqual(sorted(e2, e3));
      expect(await found({ to: daysAfter(-5) })).toEqual(sorted(e1, e2));
      expect(await found({ from: daysAfter(-6), to: daysAfter(-4) })).toEqual(sorted(e2));
      expect(await found({ user_id: alice, session_id: "s1", from: daysAfter(-1) })).toEqual(
        sorted(e3),
      );
    });

    it("shows knowledge by sharing: own and quarantined to the writer, confirmed to the group", async () => {
      const task_type = unique("visibility");
      const group = unique("group");
      const writer = unique("writer");
      const member = unique("member");
      const shared = { agent_id: writer, task_type, shared_group: group } as const;
      const own = newSemantic({ agent_id: writer, task_type });
      const quarantined = newSemantic({
        ...shared,
        source_trust: "low",
        review_status: "quarantined",
      });
      const confirmed = newSemantic({
        ...shared,
        source_trust: "normal",
        review_status: "confirmed",
      });
      const rejected = newSemantic({ ...shared, source_trust: "low", review_status: "rejected" });
      const superseded = newSemantic({ agent_id: writer, task_type, valid_to: daysAfter(-1) });
      for (const row of [own, quarantined, confirmed, rejected, superseded]) {
        await store.storage.knowledge.insertSemantic(row);
      }
      await store.storage.sharing.grant({ group, agent_ids: [member], at: AT, reason: "test" });

      const visibleTo = (agent_id?: string) =>
        idsFound({
          layer: "semantic",
          filter: { task_type, include_archived: true, ...(agent_id ? { agent_id } : {}) },
        });
      expect(await visibleTo(writer)).toEqual(sorted(own, quarantined, confirmed));
      expect(await visibleTo(member)).toEqual(sorted(confirmed));
      expect(await visibleTo(unique("outsider"))).toEqual([]);
      expect(await visibleTo()).toEqual(sorted(own, confirmed));
    });

    it("fetches the nearest memories of a period the query names, beside the nearest overall", async () => {
      const task_type = unique("window");
      const nearest = newEpisodic({
        task_type,
        summary: "Upgraded the database cluster to the new major version",
        occurred_at: daysAfter(-30),
      });
      const inPeriod = newEpisodic({
        task_type,
        summary: "Lunch with the design team at the noodle place",
        occurred_at: daysAfter(-2),
      });
      await store.storage.memories.insertEpisodic([nearest, inPeriod]);
      const query = {
        embedding: nearest.embedding,
        filter: { task_type, include_archived: false },
        limit: 1,
      };
      expect(await idsFound(query)).toEqual([nearest.id]);
      expect(
        await idsFound({ ...query, window: { from: daysAfter(-3), to: daysAfter(-1) } }),
      ).toEqual(sorted(nearest, inPeriod));
    });

    it("records each access: one more each time, at the latest time", async () => {
      const task_type = unique("access");
      const episode = newEpisodic({ task_type });
      const knowledge = newSemantic({ task_type });
      await store.storage.memories.insertEpisodic([episode]);
      await store.storage.knowledge.insertSemantic(knowledge);

      await store.storage.recall.recordAccess("episodic", [episode.id], daysAfter(2));
      // An access reported late must not move the last access back.
      await store.storage.recall.recordAccess("episodic", [episode.id], daysAfter(1));
      await store.storage.recall.recordAccess("semantic", [knowledge.id], daysAfter(3));

      const [readEpisode] = await store.storage.memories.getMany("episodic", [episode.id]);
      expect(readEpisode).toMatchObject({ access_count: 2, last_accessed_at: daysAfter(2) });
      const [readKnowledge] = await store.storage.memories.getMany("semantic", [knowledge.id]);
      expect(readKnowledge).toMatchObject({ access_count: 1, last_used_at: daysAfter(3) });

      const at = async (layer: MemoryLayer) =>
        (await candidates({ layer, filter: { task_type, include_archived: false } })).candidates[0];
      expect(await at("episodic")).toMatchObject({ access_count: 2, event_time: AT });
      // Knowledge is as fresh as its last use.
      expect(await at("semantic")).toMatchObject({ access_count: 1, event_time: daysAfter(3) });
    });

    it("ignores deleted and unknown ids while recording the others", async () => {
      const live = newEpisodic();
      const deleted = newEpisodic();
      await store.storage.memories.insertEpisodic([live, deleted]);
      await store.storage.lifecycle.forget(deleted.id, "hard", AT);

      await store.storage.recall.recordAccess(
        "episodic",
        [deleted.id, randomUUID(), live.id],
        daysAfter(1),
      );
      // An id of the other layer is unknown to this one.
      await store.storage.recall.recordAccess("semantic", [live.id], daysAfter(1));
      const read = await store.storage.memories.getMany("episodic", [live.id, deleted.id]);
      expect(read).toEqual([
        expect.objectContaining({ id: live.id, access_count: 1, last_accessed_at: daysAfter(1) }),
      ]);
    });
  });
});
