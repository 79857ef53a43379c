/**
 * The consolidation store contract (core/lifecycle/ports `ConsolidationStore`) on every
 * backend: which groups of episodes wait, the episodes of a group in the order consolidation
 * reads them, and the record that keeps an episode from being consolidated twice.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { NewEpisodic } from "../../src/core/memories/ports.js";
import { BACKENDS } from "../support/backends.js";
import { AT, contractStore, daysAfter, newEpisodic, newSemantic, unique } from "./support.js";

describe.each(BACKENDS)("consolidation store contract on $name", (backend) => {
  const store = contractStore(backend);
  const consolidation = () => store.storage.consolidation;

  async function episodes(count: number, fields: Partial<NewEpisodic>): Promise<NewEpisodic[]> {
    const rows = Array.from({ length: count }, () => newEpisodic(fields));
    await store.storage.memories.insertEpisodic(rows);
    return rows;
  }

  describe.skipIf(backend.skip !== undefined)("with the backend available", () => {
    it("lists groups with at least the minimum of active, unconsolidated episodes", async () => {
      const task_type = unique("pending");
      const alice = unique("alice");
      const bob = unique("bob");
      const [consolidated] = await episodes(4, { task_type, user_id: alice });
      await episodes(1, { task_type, user_id: alice, status: "archived" });
      await episodes(2, { task_type, user_id: bob, agent_id: "bot" });
      await consolidation().markConsolidated([consolidated!.id], [], AT);

      expect(await consolidation().pendingEpisodeGroups(3, task_type, 10)).toEqual([
        { task_type, user_id: alice, agent_id: null, pending: 3 },
      ]);
      expect(await consolidation().pendingEpisodeGroups(2, task_type, 10)).toEqual([
        { task_type, user_id: alice, agent_id: null, pending: 3 },
        { task_type, user_id: bob, agent_id: "bot", pending: 2 },
      ]);
      expect(await consolidation().pendingEpisodeGroups(2, task_type, 1)).toHaveLength(1);
      expect(await consolidation().pendingEpisodeGroups(1, unique("pending"), 10)).toEqual([]);
    });

    it("lists groups of every task type when none is named, most pending first", async () => {
      // More episodes than any other group in this store holds.
      const task_type = unique("busiest");
      await episodes(40, { task_type });
      expect(await consolidation().pendingEpisodeGroups(40, undefined, 10)).toEqual([
        { task_type, user_id: null, agent_id: null, pending: 40 },
      ]);
      const groups = await consolidation().pendingEpisodeGroups(1, undefined, 100);
      expect(groups[0]).toMatchObject({ task_type, pending: 40 });
      const pending = groups.map((group) => group.pending);
      expect(pending).toEqual([...pending].sort((a, b) => b - a));
    });

    it("reads a group's active episodes: not yet consolidated first, then newest first", async () => {
      const task_type = unique("ordering");
      const scope = { task_type, user_id: unique("user"), agent_id: "bot" };
      const [oldest, middle, newest, alreadyDone] = [-3, -2, -1, 0].map((days) =>
        newEpisodic({ ...scope, occurred_at: daysAfter(days), summary: `day ${days}` }),
      );
      const archived = newEpisodic({ ...scope, status: "archived" });
      const otherAgent = newEpisodic({ ...scope, agent_id: "other-bot" });
      const unscoped = newEpisodic({ task_type });
      // Written out of order: the order read must come from the episodes, not the writes.
      await store.storage.memories.insertEpisodic([
        middle!,
        alreadyDone!,
        oldest!,
        archived,
        newest!,
        otherAgent,
        unscoped,
      ]);
      await consolidation().markConsolidated([alreadyDone!.id], [], AT);

      const group = await consolidation().groupEpisodes(scope, 10);
      expect(group.map((episode) => episode.id)).toEqual([
        newest!.id,
        middle!.id,
        oldest!.id,
        alreadyDone!.id,
      ]);
      expect(group[0]).toEqual({
        id: newest!.id,
        occurred_at: newest!.occurred_at,
        summary: newest!.summary,
        outcome: newest!.outcome,
        consolidated: false,
      });
      expect(group.map((episode) => episode.consolidated)).toEqual([false, false, false, true]);
      expect((await consolidation().groupEpisodes(scope, 2)).map((episode) => episode.id)).toEqual([
        newest!.id,
        middle!.id,
      ]);
      // No user and no agent is a scope of its own.
      expect(
        (await consolidation().groupEpisodes({ task_type, user_id: null, agent_id: null }, 10)).map(
          (episode) => episode.id,
        ),
      ).toEqual([unscoped.id]);
    });

    it("marks episodes consolidated once, with an event naming what they went into", async () => {
      const task_type = unique("mark");
      const rows = await episodes(3, { task_type });
      const knowledge = newSemantic({ task_type });
      await store.storage.knowledge.insertSemantic(knowledge);
      const ids = rows.map((row) => row.id);

      await consolidation().markConsolidated([...ids, randomUUID()], [knowledge.id], AT);
      expect(await consolidation().pendingEpisodeGroups(1, task_type, 10)).toEqual([]);
      expect((await store.storage.lifecycle.history(ids[0]!))?.events).toEqual([
        {
          event: "consolidated",
          at: AT,
          reason: "consolidated into semantic memory",
          details: { into: [knowledge.id] },
        },
      ]);

      // Marked again (a retried run): nothing is recorded twice.
      await consolidation().markConsolidated(ids, [], daysAfter(1));
      expect((await store.storage.lifecycle.history(ids[0]!))?.events).toHaveLength(1);
      expect(
        (
          await consolidation().groupEpisodes({ task_type, user_id: null, agent_id: null }, 10)
        ).every((episode) => episode.consolidated),
      ).toBe(true);
    });

    it("says so when episodes were consolidated into nothing", async () => {
      const [row] = await episodes(1, { task_type: unique("nothing-kept") });
      await consolidation().markConsolidated([row!.id], [], AT);
      expect((await store.storage.lifecycle.history(row!.id))?.events).toEqual([
        expect.objectContaining({
          event: "consolidated",
          reason: "consolidated; no pattern kept",
          details: { into: [] },
        }),
      ]);
    });
  });
});
