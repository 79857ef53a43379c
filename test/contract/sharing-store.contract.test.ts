/**
 * The sharing store contract (core/sharing/ports `SharingStore`) on every backend: group
 * membership, source trust, the quarantine queue and reviews, each change in the audit log.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { NewSemantic } from "../../src/core/memories/ports.js";
import { BACKENDS } from "../support/backends.js";
import { AT, contractStore, daysAfter, newSemantic, unique } from "./support.js";

describe.each(BACKENDS)("sharing store contract on $name", (backend) => {
  const store = contractStore(backend);
  const sharing = () => store.storage.sharing;

  async function sharedKnowledge(group: string, fields: Partial<NewSemantic> = {}) {
    const row = newSemantic({
      shared_group: group,
      agent_id: "writer",
      source: "wiki",
      source_trust: "low",
      review_status: "quarantined",
      ...fields,
    });
    await store.storage.knowledge.insertSemantic(row);
    return row;
  }

  const review = (id: string, decision: "confirm" | "reject", at = daysAfter(1)) =>
    sharing().review({ id, decision, reviewer: "reviewer", at, reason: `${decision}ed by hand` });

  describe.skipIf(backend.skip !== undefined)("with the backend available", () => {
    it("grants membership, keeping an agent's first grant time, and audits what changed", async () => {
      const group = unique("group");
      const [a, b, c] = ["a", "b", "c"].map((name) => unique(name)).sort();
      const change = { group, at: AT, reason: "team joined" };

      expect(await sharing().grant({ ...change, agent_ids: [b!, a!, a!] })).toEqual({
        group,
        members: [
          { agent_id: a, granted_at: AT },
          { agent_id: b, granted_at: AT },
        ],
      });
      const later = daysAfter(1);
      const after = await sharing().grant({ ...change, agent_ids: [b!, c!], at: later });
      expect(after.members).toEqual([
        { agent_id: a, granted_at: AT },
        { agent_id: b, granted_at: AT },
        { agent_id: c, granted_at: later },
      ]);
      expect(await sharing().groups(group)).toEqual([after]);
      expect(await sharing().groupsOf(c!)).toEqual([group]);

      // Granting only existing members changes nothing worth an entry.
      await sharing().grant({ ...change, agent_ids: [a!], at: daysAfter(2) });
      const entries = await store.storage.audit.list({ target: group, limit: 10 });
      expect(entries.map((entry) => [entry.operation, entry.details])).toEqual([
        ["grant", { agent_ids: [c] }],
        ["grant", { agent_ids: [a, b] }],
      ]);
      expect(entries[0]).toMatchObject({ memory_id: null, layer: null, reason: "team joined" });
    });

    it("revokes membership; a group without members is gone", async () => {
      const group = unique("group");
      const other = unique("group");
      const agent = unique("agent");
      await sharing().grant({ group, agent_ids: [agent, "stays"], at: AT, reason: "setup" });
      await sharing().grant({ group: other, agent_ids: [agent], at: AT, reason: "setup" });
      expect((await sharing().groupsOf(agent)).sort()).toEqual([group, other].sort());

      const after = await sharing().revoke({
        group,
        agent_ids: [agent, unique("never-a-member")],
        at: daysAfter(1),
        reason: "left the team",
      });
      expect(after).toEqual({ group, members: [{ agent_id: "stays", granted_at: AT }] });
      expect(await sharing().groupsOf(agent)).toEqual([other]);
      expect((await store.storage.audit.list({ target: group, limit: 1 }))[0]).toMatchObject({
        operation: "revoke",
        reason: "left the team",
        details: { agent_ids: [agent] },
      });

      expect(
        await sharing().revoke({ group, agent_ids: ["stays"], at: daysAfter(1), reason: "done" }),
      ).toEqual({ group, members: [] });
      expect(await sharing().groups(group)).toEqual([]);
      const names = (await sharing().groups()).map((entry) => entry.group);
      expect(names).toContain(other);
      expect(names).not.toContain(group);
      expect(names).toEqual([...names].sort());
    });

    it("sets, reads and lists source trust, auditing each change with the level before", async () => {
      const source = unique("source");
      const first = { source, trust: "low", note: "unvetted", updated_at: AT } as const;
      expect(await sharing().setTrust(first)).toEqual(first);
      expect(await sharing().trustOf(source)).toBe("low");

      const second = { source, trust: "high", note: null, updated_at: daysAfter(1) } as const;
      expect(await sharing().setTrust(second)).toEqual(second);
      expect(await sharing().trustOf(source)).toBe("high");
      expect(await sharing().trustOf(unique("unrated"))).toBeUndefined();

      const listed = await sharing().listTrust();
      expect(listed.filter((entry) => entry.source === source)).toEqual([second]);
      expect(listed.map((entry) => entry.source)).toEqual(
        listed.map((entry) => entry.source).sort(),
      );
      const entries = await store.storage.audit.list({ target: source, limit: 10 });
      expect(entries.map((entry) => [entry.operation, entry.reason, entry.details])).toEqual([
        ["trust", "trust set to high", { trust: "high", previous_trust: "low" }],
        ["trust", "unvetted", { trust: "low", previous_trust: null }],
      ]);
    });

    it("lists quarantined memories oldest first, archived ones too, by group", async () => {
      const group = unique("group");
      const newer = await sharedKnowledge(group, { created_at: daysAfter(-1) });
      const older = await sharedKnowledge(group, { created_at: daysAfter(-2), status: "archived" });
      await sharedKnowledge(group, { source_trust: "normal", review_status: "confirmed" });
      await store.storage.knowledge.insertSemantic(newSemantic());
      const elsewhere = await sharedKnowledge(unique("group"));

      const listed = await sharing().quarantined({ group, limit: 10 });
      expect(listed.map((memory) => memory.id)).toEqual([older.id, newer.id]);
      expect(listed[0]).toMatchObject({
        shared_group: group,
        review_status: "quarantined",
        source_trust: "low",
        status: "archived",
        key_text: older.key_text,
      });
      expect((await sharing().quarantined({ group, limit: 1 })).map((m) => m.id)).toEqual([
        older.id,
      ]);
      const everywhere = (await sharing().quarantined({ limit: 1000 })).map((m) => m.id);
      expect(everywhere).toEqual(expect.arrayContaining([older.id, newer.id, elsewhere.id]));
    });

    it("confirms a quarantined memory once, in its history and the audit log", async () => {
      const group = unique("group");
      const row = await sharedKnowledge(group);
      const at = daysAfter(1);

      expect(await review(row.id, "confirm", at)).toEqual({
        id: row.id,
        decision: "confirm",
        review_status: "confirmed",
        shared_group: group,
        reviewed_by: "reviewer",
        reviewed_at: at,
        changed: true,
      });
      const [read] = await store.storage.memories.getMany("semantic", [row.id]);
      expect(read).toMatchObject({
        review_status: "confirmed",
        reviewed_by: "reviewer",
        reviewed_at: at,
        status: "active",
      });
      expect(await sharing().quarantined({ group, limit: 10 })).toEqual([]);
      expect((await store.storage.lifecycle.history(row.id))?.events.at(-1)).toMatchObject({
        event: "confirmed",
        reason: "confirmed by hand",
        details: { reviewer: "reviewer", group, previous_status: "quarantined" },
      });
      expect(await store.storage.audit.list({ memory_id: row.id, limit: 10 })).toEqual([
        expect.objectContaining({ operation: "confirm", target: group, layer: "semantic" }),
      ]);

      // Confirmed again: nothing changes, and the first review stands.
      expect(await review(row.id, "confirm", daysAfter(2))).toMatchObject({
        changed: false,
        reviewed_at: at,
      });
      expect(await store.storage.audit.list({ memory_id: row.id, limit: 10 })).toHaveLength(1);
    });

    it("rejects a memory: archived, what it superseded current again, never confirmed after", async () => {
      const group = unique("group");
      const truth = await sharedKnowledge(group, {
        key_text: "deploy freeze",
        value_text: "fridays",
        source_trust: "high",
        review_status: "confirmed",
      });
      const poisoned = newSemantic({
        shared_group: group,
        agent_id: "writer",
        source: "pastebin",
        source_trust: "normal",
        review_status: "confirmed",
        key_text: "deploy freeze",
        value_text: "never",
      });
      await store.storage.knowledge.insertSemantic(poisoned, {
        at: AT,
        reason: "stored",
        supersedes: [truth.id],
      });

      expect(await review(poisoned.id, "reject")).toMatchObject({
        review_status: "rejected",
        changed: true,
      });
      const [rejected] = await store.storage.memories.getMany("semantic", [poisoned.id]);
      expect(rejected).toMatchObject({ review_status: "rejected", status: "archived" });
      const [reinstated] = await store.storage.memories.getMany("semantic", [truth.id]);
      expect(reinstated).toMatchObject({ valid_to: null, superseded_by: null, status: "active" });
      expect((await store.storage.lifecycle.history(truth.id))?.events.at(-1)).toMatchObject({
        event: "restored",
        details: { superseded_by: poisoned.id },
      });
      expect(
        (await store.storage.audit.list({ memory_id: truth.id, limit: 10 })).map(
          (entry) => entry.operation,
        ),
      ).toEqual(["restore", "supersede"]);

      expect(await review(poisoned.id, "confirm")).toBe("rejected");
    });

    it("reviews nothing that is private or unknown", async () => {
      const row = newSemantic();
      await store.storage.knowledge.insertSemantic(row);
      expect(await review(row.id, "confirm")).toBe("not_shared");
      expect(await review(randomUUID(), "reject")).toBeUndefined();
      const [read] = await store.storage.memories.getMany("semantic", [row.id]);
      expect(read).toMatchObject({ review_status: null, status: "active" });
    });
  });
});
