/**
 * The store admin contract (core/ports `StoreAdmin`) on every backend: migrations, the
 * embedder check, counts, ping and a description safe to log.
 */
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/adapters/logger.js";
import { MIGRATIONS } from "../../src/adapters/storage/migrations.js";
import { openStorage } from "../../src/adapters/storage/open-store.js";
import { BACKENDS } from "../support/backends.js";
import {
  AT,
  contractStore,
  EMBEDDER,
  failure,
  newEpisodic,
  newSemantic,
  unique,
} from "./support.js";

describe.each(BACKENDS)("store admin contract on $name", (backend) => {
  const store = contractStore(backend);

  describe.skipIf(backend.skip !== undefined)("with the backend available", () => {
    it("applies every migration once: a second run applies nothing and reports the same version", async () => {
      const versions = MIGRATIONS.map((migration) => migration.version);
      expect(store.migration).toEqual({ applied: versions, current: Math.max(...versions) });
      const again = await store.storage.admin.migrate(EMBEDDER);
      expect(again).toEqual({ applied: [], current: store.migration.current });
    });

    it("refuses an embedder other than the one the store was built with", async () => {
      const otherModel = await failure(
        store.storage.admin.migrate({ id: "other-model", dimensions: EMBEDDER.dimensions }),
      );
      expect(otherModel.code).toBe("EMBEDDER_MISMATCH");
      const otherSize = await failure(
        store.storage.admin.migrate({ id: EMBEDDER.id, dimensions: EMBEDDER.dimensions * 2 }),
      );
      expect(otherSize.code).toBe("EMBEDDER_MISMATCH");
      // A refused embedder is not recorded: the store still opens with its own.
      expect(await store.storage.admin.migrate(EMBEDDER)).toEqual({
        applied: [],
        current: store.migration.current,
      });
    });

    it("counts memories per status, for the whole layer and for one agent", async () => {
      const before = {
        episodic: await store.storage.admin.counts("episodic"),
        semantic: await store.storage.admin.counts("semantic"),
      };
      const agent = unique("agent");
      const other = unique("agent");
      await store.storage.memories.insertEpisodic([
        newEpisodic({ agent_id: agent }),
        newEpisodic({ agent_id: agent }),
        newEpisodic({ agent_id: agent, status: "archived" }),
        newEpisodic({ agent_id: other }),
        newEpisodic(),
      ]);
      await store.storage.knowledge.insertSemantic(
        newSemantic({ agent_id: agent, status: "archived" }),
      );

      expect(await store.storage.admin.counts("episodic", agent)).toEqual({
        total: 3,
        active: 2,
        archived: 1,
      });
      expect(await store.storage.admin.counts("semantic", agent)).toEqual({
        total: 1,
        active: 0,
        archived: 1,
      });
      expect(await store.storage.admin.counts("episodic", other)).toEqual({
        total: 1,
        active: 1,
        archived: 0,
      });
      expect(await store.storage.admin.counts("episodic", unique("nobody"))).toEqual({
        total: 0,
        active: 0,
        archived: 0,
      });
      expect(await store.storage.admin.counts("episodic")).toEqual({
        total: before.episodic.total + 5,
        active: before.episodic.active + 4,
        archived: before.episodic.archived + 1,
      });
      expect(await store.storage.admin.counts("semantic")).toEqual({
        total: before.semantic.total + 1,
        active: before.semantic.active,
        archived: before.semantic.archived + 1,
      });
    });

    it("counts a soft-forgotten memory as archived and a deleted one not at all", async () => {
      const agent = unique("agent");
      const kept = newEpisodic({ agent_id: agent });
      const forgotten = newEpisodic({ agent_id: agent });
      const deleted = newEpisodic({ agent_id: agent });
      await store.storage.memories.insertEpisodic([kept, forgotten, deleted]);
      await store.storage.lifecycle.forget(forgotten.id, "soft", AT);
      await store.storage.lifecycle.forget(deleted.id, "hard", AT);
      expect(await store.storage.admin.counts("episodic", agent)).toEqual({
        total: 2,
        active: 1,
        archived: 1,
      });
    });

    it("answers a ping", async () => {
      await expect(store.storage.admin.ping()).resolves.toBeUndefined();
    });

    it("describes where the store is without its credentials", async () => {
      if (backend.name === "pglite") {
        expect(store.storage.admin.description).toBe(`pglite:${store.location.dataDir}`);
        return;
      }
      // The test server trusts every connection, so a URL with a password still connects.
      const url = new URL(store.location.databaseUrl!);
      url.password = "s3cret-password";
      const withPassword = await openStorage(
        { databaseUrl: url.toString(), dataDir: "memory://" },
        silentLogger,
      );
      try {
        await withPassword.admin.ping();
        const { description } = withPassword.admin;
        expect(description).toMatch(/^postgres:/);
        expect(description).toContain(url.host);
        expect(description).not.toContain("s3cret-password");
      } finally {
        await withPassword.admin.close();
      }
    });
  });
});
