/**
 * The lifecycle store contract (core/lifecycle/ports `LifecycleStore`) on every backend:
 * forgetting, restoring, feedback, decay and cold storage, and the job lock.
 *
 * Decay scores the whole layer. Every other case writes its memories at AT and decay runs at
 * AT (or a minute after), so only the decay cases' own memories have been idle long enough
 * to change: that keeps the counts it reports exact in a store the cases share.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { DecayParameters } from "../../src/core/lifecycle/ports.js";
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

const NO_DECAY: DecayParameters = {
  lambda: 0,
  accessWeight: 0,
  archiveThreshold: 0.2,
  minConfidence: 0,
  confidenceDecayPerDay: 0,
  unusedGraceDays: 30,
};

/** A promise and the function that settles it, to hold a job open until a case says so. */
function signal(): { promise: Promise<void>; fire: () => void } {
  let fire!: () => void;
  const promise = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { promise, fire };
}

describe.each(BACKENDS)("lifecycle store contract on $name", (backend) => {
  const store = contractStore(backend);
  const lifecycle = () => store.storage.lifecycle;

  describe.skipIf(backend.skip !== undefined)("with the backend available", () => {
    it("soft-forgets a memory of either layer: archived, in its history and the audit log", async () => {
      const episode = newEpisodic();
      const knowledge = newSemantic();
      await store.storage.memories.insertEpisodic([episode]);
      await store.storage.knowledge.insertSemantic(knowledge);

      expect(await lifecycle().forget(episode.id, "soft", AT, "no longer relevant")).toEqual({
        id: episode.id,
        layer: "episodic",
        mode: "soft",
        status: "archived",
      });
      expect(await lifecycle().forget(knowledge.id, "soft", AT)).toMatchObject({
        layer: "semantic",
        status: "archived",
      });

      const [read] = await store.storage.memories.getMany("episodic", [episode.id]);
      expect(read?.status).toBe("archived");
      const history = await lifecycle().history(episode.id);
      expect(history).toMatchObject({ status: "archived" });
      expect(history?.events).toEqual([
        { event: "archived", at: AT, reason: "forgotten on request (soft)", details: {} },
      ]);
      expect(await store.storage.audit.list({ memory_id: episode.id, limit: 10 })).toEqual([
        expect.objectContaining({
          operation: "forget",
          layer: "episodic",
          reason: "no longer relevant",
          details: { mode: "soft" },
        }),
      ]);
      expect(await store.storage.audit.list({ memory_id: knowledge.id, limit: 10 })).toEqual([
        expect.objectContaining({ operation: "forget", reason: "forgotten on request" }),
      ]);
    });

    it("hard-deletes a memory and its history, keeping the audit entry", async () => {
      const task_type = unique("delete");
      const episode = newEpisodic({ task_type });
      // Corpus statistics come with candidates: one stays to be found.
      const kept = newEpisodic({ task_type });
      await store.storage.memories.insertEpisodic([episode, kept]);
      await lifecycle().forget(episode.id, "soft", AT);
      const documents = async () =>
        (
          await store.storage.recall.findCandidates({
            layer: "episodic",
            embedding: episode.embedding,
            keywords: [],
            filter: { task_type, include_archived: true },
            limit: 5,
          })
        ).corpus.documents;
      const before = await documents();

      expect(await lifecycle().forget(episode.id, "hard", AT)).toEqual({
        id: episode.id,
        layer: "episodic",
        mode: "hard",
        status: "deleted",
      });
      expect(await store.storage.memories.getMany("episodic", [episode.id])).toEqual([]);
      expect(await lifecycle().history(episode.id)).toBeNull();
      expect(
        (await store.storage.audit.list({ memory_id: episode.id, limit: 10 })).map(
          (entry) => entry.operation,
        ),
      ).toEqual(["delete", "forget"]);
      // The keyword statistics no longer count it (documents holds the whole layer).
      expect(await documents()).toBe(before - 1);
    });

    it("brings nothing back when knowledge that superseded another is deleted", async () => {
      const old = newSemantic({ key_text: "on-call", value_text: "alice" });
      const newer = newSemantic({ key_text: "on-call", value_text: "bob" });
      await store.storage.knowledge.insertSemantic(old);
      await store.storage.knowledge.insertSemantic(newer, {
        at: AT,
        reason: "stored",
        supersedes: [old.id],
      });
      await lifecycle().forget(newer.id, "hard", AT);
      const [read] = await store.storage.memories.getMany("semantic", [old.id]);
      expect(read).toMatchObject({ status: "active", valid_to: AT });
    });

    it("forgets nothing for an unknown id", async () => {
      const id = randomUUID();
      expect(await lifecycle().forget(id, "soft", AT)).toBeNull();
      expect(await lifecycle().forget(id, "hard", AT)).toBeNull();
      expect(await store.storage.audit.list({ memory_id: id, limit: 10 })).toEqual([]);
      expect(await lifecycle().history(id)).toBeNull();
    });

    it("restores an archived memory: active, used once more, confidence at least the minimum", async () => {
      const knowledge = newSemantic({ confidence: 0.25 });
      await store.storage.knowledge.insertSemantic(knowledge);
      await lifecycle().forget(knowledge.id, "soft", AT);

      expect(await lifecycle().restore(knowledge.id, 0.5, AT)).toEqual({
        id: knowledge.id,
        layer: "semantic",
        previous_status: "archived",
        status: "active",
      });
      const [read] = await store.storage.memories.getMany("semantic", [knowledge.id]);
      expect(read).toMatchObject({ status: "active", access_count: 1, last_used_at: AT });
      expect(read?.confidence).toBeCloseTo(0.5, 5);
      const history = await lifecycle().history(knowledge.id);
      expect(history?.events.at(-1)).toMatchObject({
        event: "restored",
        details: { confidence: 0.5 },
      });
      expect(
        (await store.storage.audit.list({ memory_id: knowledge.id, limit: 1 }))[0],
      ).toMatchObject({ operation: "restore", layer: "semantic" });

      // Restoring what is active changes nothing worth an event.
      const events = history?.events.length;
      expect(await lifecycle().restore(knowledge.id, 0.5, AT)).toMatchObject({
        previous_status: "active",
      });
      expect((await lifecycle().history(knowledge.id))?.events).toHaveLength(events!);
      expect(await lifecycle().restore(randomUUID(), 0.5, AT)).toBeNull();
    });

    it("moves confidence by feedback within 0..1 and archives below the minimum", async () => {
      const useful = newEpisodic({ confidence: 0.95 });
      const wrong = newSemantic({ confidence: 0.3 });
      await store.storage.memories.insertEpisodic([useful]);
      await store.storage.knowledge.insertSemantic(wrong);
      const change = { delta: 0.1, minConfidence: 0.2, reason: null, at: AT };

      expect(await lifecycle().applyFeedback({ ...change, id: useful.id, useful: true })).toEqual({
        id: useful.id,
        layer: "episodic",
        previous_confidence: expect.closeTo(0.95, 5),
        confidence: 1,
        status: "active",
      });
      const [readUseful] = await store.storage.memories.getMany("episodic", [useful.id]);
      expect(readUseful).toMatchObject({ confidence: 1, access_count: 1 });

      expect(
        await lifecycle().applyFeedback({
          ...change,
          id: wrong.id,
          useful: false,
          delta: -0.5,
          reason: "it was wrong",
        }),
      ).toMatchObject({ layer: "semantic", confidence: 0, status: "archived" });
      const [readWrong] = await store.storage.memories.getMany("semantic", [wrong.id]);
      expect(readWrong).toMatchObject({ confidence: 0, status: "archived", access_count: 0 });
      expect((await lifecycle().history(wrong.id))?.events.map((event) => event.event)).toEqual([
        "created",
        "feedback",
        "archived",
      ]);
      expect(
        await lifecycle().applyFeedback({ ...change, id: randomUUID(), useful: true }),
      ).toBeNull();
    });

    it("archives old unused memories under a steep decay, and reports what it did", async () => {
      const old = { recorded_at: daysAfter(-100), occurred_at: daysAfter(-100) };
      const unused = [newEpisodic(old), newEpisodic(old)];
      const recalled = newEpisodic(old);
      await store.storage.memories.insertEpisodic([...unused, recalled]);
      await store.storage.recall.recordAccess("episodic", [recalled.id], daysAfter(-1));
      const { total } = await store.storage.admin.counts("episodic");

      // A preview judges exactly as the run does, names the memories, and writes nothing.
      const preview = await lifecycle().previewDecay("episodic", { ...NO_DECAY, lambda: 1 }, AT);
      expect(preview).toMatchObject({ scored: total, archived: 2, reactivated: 0 });
      expect(preview.archived_ids.sort()).toEqual(unused.map((row) => row.id).sort());
      expect(preview.reactivated_ids).toEqual([]);
      const [untouched] = await store.storage.memories.getMany("episodic", [unused[0]!.id]);
      expect(untouched).toMatchObject({ status: "active", decay_score: 1 });
      expect((await lifecycle().history(unused[0]!.id))?.events).toEqual([]);

      const counts = await lifecycle().applyDecay("episodic", { ...NO_DECAY, lambda: 1 }, AT);
      expect(counts).toEqual({ scored: total, archived: 2, reactivated: 0, confidence_lowered: 0 });
      const read = await store.storage.memories.getMany(
        "episodic",
        [...unused, recalled].map((row) => row.id),
      );
      const byId = new Map(read.map((row) => [row.id, row]));
      for (const row of unused) {
        expect(byId.get(row.id)).toMatchObject({ status: "archived" });
        expect(byId.get(row.id)!.decay_score).toBeLessThan(0.2);
      }
      // A day idle under λ = 1: e^-1.
      expect(byId.get(recalled.id)).toMatchObject({ status: "active" });
      expect(byId.get(recalled.id)!.decay_score).toBeCloseTo(Math.exp(-1), 3);
      expect((await lifecycle().history(unused[0]!.id))?.events).toEqual([
        expect.objectContaining({
          event: "archived",
          at: AT,
          reason: "decay score fell below the archive threshold",
        }),
      ]);

      // Recalled after decay archived it, it comes back on the next run.
      const later = new Date(AT.getTime() + 60_000);
      await store.storage.recall.recordAccess("episodic", [unused[0]!.id], later);
      expect(await lifecycle().applyDecay("episodic", { ...NO_DECAY, lambda: 1 }, later)).toEqual({
        scored: total,
        archived: 0,
        reactivated: 1,
        confidence_lowered: 0,
      });
      const [back] = await store.storage.memories.getMany("episodic", [unused[0]!.id]);
      expect(back?.status).toBe("active");
    });

    it("lowers the confidence of knowledge unused past the grace period", async () => {
      const knowledge = newSemantic({ updated_at: daysAfter(-100), created_at: daysAfter(-100) });
      await store.storage.knowledge.insertSemantic(knowledge);
      const { total } = await store.storage.admin.counts("semantic");
      const parameters = { ...NO_DECAY, confidenceDecayPerDay: 0.01, unusedGraceDays: 30 };

      expect(await lifecycle().applyDecay("semantic", parameters, AT)).toEqual({
        scored: total,
        archived: 0,
        reactivated: 0,
        confidence_lowered: 1,
      });
      const [read] = await store.storage.memories.getMany("semantic", [knowledge.id]);
      // 70 days past the grace period at 1 % a day.
      expect(read?.confidence).toBeCloseTo(Math.exp(-0.7), 4);
      expect(read?.status).toBe("active");
      // The same days never decay twice.
      expect((await lifecycle().applyDecay("semantic", parameters, AT)).confidence_lowered).toBe(0);
    });

    it("runs one holder of a job lock at a time; a non-waiting call does not run meanwhile", async () => {
      const job = unique("job");
      const entered = signal();
      const release = signal();
      const holder = lifecycle().exclusive(job, true, async () => {
        entered.fire();
        await release.promise;
        return "held";
      });
      await entered.promise;

      let ranWhileHeld = false;
      expect(
        await lifecycle().exclusive(job, false, async () => {
          ranWhileHeld = true;
        }),
      ).toEqual({ ran: false });
      expect(ranWhileHeld).toBe(false);
      // Other jobs are not held up.
      expect(await lifecycle().exclusive(unique("job"), false, async () => 1)).toEqual({
        ran: true,
        value: 1,
      });

      let waiterRan = false;
      const waiter = lifecycle().exclusive(job, true, async () => {
        waiterRan = true;
        return "waited";
      });
      // Round trips to the database give a waiter that ignores the lock the time to run.
      await store.storage.admin.ping();
      await store.storage.admin.ping();
      expect(waiterRan).toBe(false);

      release.fire();
      expect(await holder).toEqual({ ran: true, value: "held" });
      expect(await waiter).toEqual({ ran: true, value: "waited" });
      expect(await lifecycle().exclusive(job, false, async () => "free")).toEqual({
        ran: true,
        value: "free",
      });
    });

    it("refuses a non-waiting call made in the same tick as the holder's", async () => {
      const job = unique("job");
      const release = signal();
      const holder = lifecycle().exclusive(job, true, () => release.promise.then(() => "held"));
      // Not awaited in between: the holder's function may not have started yet.
      const refused = lifecycle().exclusive(job, false, async () => "ran anyway");
      try {
        // Refused before any I/O could answer (setImmediate runs after the pending promise
        // jobs): not decided by which call reaches the database first, a race that a busy
        // machine loses either way.
        const beforeAnyIo = new Promise((resolve) => setImmediate(() => resolve("not yet")));
        const settled = await Promise.race([refused, beforeAnyIo]);
        expect(settled).toEqual({ ran: false });
      } finally {
        release.fire();
      }
      expect(await holder).toEqual({ ran: true, value: "held" });
    });

    it("passes a job's own error through and releases the lock", async () => {
      const job = unique("job");
      const boom = new Error("the job failed");
      const error = await failure(
        lifecycle().exclusive(job, true, async () => {
          throw boom;
        }),
      );
      expect(error).toBe(boom);
      expect(await lifecycle().exclusive(job, false, async () => "after")).toEqual({
        ran: true,
        value: "after",
      });
    });
  });
});
