/**
 * The audit log contract (core/audit `AuditLog`) on every backend: entries newest first,
 * filtered by time, operation, memory and target, never holding memory content.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { BACKENDS } from "../support/backends.js";
import { AT, contractStore, daysAfter, newEpisodic, newSemantic, unique } from "./support.js";

describe.each(BACKENDS)("audit log contract on $name", (backend) => {
  const store = contractStore(backend);
  const audit = () => store.storage.audit;

  /** A memory soft-forgotten, restored, then deleted: three entries a day apart. */
  async function forgottenRestoredDeleted() {
    const row = newEpisodic();
    await store.storage.memories.insertEpisodic([row]);
    await store.storage.lifecycle.forget(row.id, "soft", daysAfter(1), "tidy up");
    await store.storage.lifecycle.restore(row.id, 0, daysAfter(2));
    await store.storage.lifecycle.forget(row.id, "hard", daysAfter(3), "for good");
    return row.id;
  }

  describe.skipIf(backend.skip !== undefined)("with the backend available", () => {
    it("lists a memory's entries newest first, as written", async () => {
      const id = await forgottenRestoredDeleted();
      const entries = await audit().list({ memory_id: id, limit: 10 });
      expect(entries).toEqual([
        {
          seq: expect.any(Number),
          at: daysAfter(3),
          operation: "delete",
          memory_id: id,
          layer: "episodic",
          target: null,
          reason: "for good",
          details: { mode: "hard" },
        },
        expect.objectContaining({ operation: "restore", at: daysAfter(2) }),
        expect.objectContaining({ operation: "forget", at: daysAfter(1), reason: "tidy up" }),
      ]);
      const seqs = entries.map((entry) => entry.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    });

    it("honours the limit, keeping the newest", async () => {
      const id = await forgottenRestoredDeleted();
      expect(
        (await audit().list({ memory_id: id, limit: 2 })).map((entry) => entry.operation),
      ).toEqual(["delete", "restore"]);
    });

    it("filters by operation", async () => {
      const id = await forgottenRestoredDeleted();
      expect(await audit().list({ memory_id: id, operation: "restore", limit: 10 })).toEqual([
        expect.objectContaining({ operation: "restore", memory_id: id }),
      ]);
      const restores = await audit().list({ operation: "restore", limit: 100 });
      expect(restores.length).toBeGreaterThan(0);
      expect(restores.every((entry) => entry.operation === "restore")).toBe(true);
      expect(await audit().list({ memory_id: randomUUID(), limit: 10 })).toEqual([]);
    });

    it("filters by time: since is inclusive, until exclusive", async () => {
      const source = unique("source");
      const times = ["2001-01-01", "2001-06-01", "2002-01-01"].map((day) => new Date(day));
      for (const [i, updated_at] of times.entries()) {
        await store.storage.sharing.setTrust({
          source,
          trust: i % 2 === 0 ? "low" : "high",
          note: null,
          updated_at,
        });
      }
      const at = async (query: { since?: Date; until?: Date }) =>
        (await audit().list({ target: source, limit: 10, ...query })).map((entry) => entry.at);

      expect(await at({ since: times[1]! })).toEqual([times[2], times[1]]);
      expect(await at({ until: times[1]! })).toEqual([times[0]]);
      expect(await at({ since: times[0]!, until: times[2]! })).toEqual([times[1], times[0]]);
      expect(await at({ since: new Date("2003-01-01") })).toEqual([]);
    });

    it("filters by target: the group or source an entry concerns", async () => {
      const group = unique("group");
      const source = unique("source");
      await store.storage.sharing.grant({ group, agent_ids: ["a"], at: AT, reason: "join" });
      await store.storage.sharing.revoke({ group, agent_ids: ["a"], at: AT, reason: "leave" });
      await store.storage.sharing.setTrust({ source, trust: "high", note: null, updated_at: AT });

      expect(
        (await audit().list({ target: group, limit: 10 })).map((entry) => entry.operation),
      ).toEqual(["revoke", "grant"]);
      expect(await audit().list({ target: source, limit: 10 })).toEqual([
        expect.objectContaining({ operation: "trust", target: source, memory_id: null }),
      ]);
      expect(await audit().list({ target: group, operation: "trust", limit: 10 })).toEqual([]);
    });

    it("keeps the structure of a merge but none of the memory's text", async () => {
      const target = newSemantic({ key_text: "vpn", value_text: "use the corp profile" });
      await store.storage.knowledge.insertSemantic(target);
      const details = {
        similarity: 0.93,
        method: "richer text kept",
        previous: { key_text: "vpn", value_text: "use the corp profile", confidence: 1 },
        incoming: { key_text: "vpn", value_text: "secret: hunter2", confidence: 1 },
      };
      await store.storage.knowledge.mergeSemantic({
        ...target,
        target_id: target.id,
        source_episode_ids: [],
        at: AT,
        reason: "a near-duplicate was merged in",
        details,
      });

      const [entry] = await audit().list({ memory_id: target.id, operation: "merge", limit: 1 });
      expect(entry?.details).toEqual({ similarity: 0.93, method: "richer text kept" });
      expect(JSON.stringify(entry)).not.toContain("hunter2");
      // The memory's own history keeps the texts; only the audit log drops them.
      expect((await store.storage.lifecycle.history(target.id))?.events.at(-1)?.details).toEqual(
        details,
      );
    });
  });
});
