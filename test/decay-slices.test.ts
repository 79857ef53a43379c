/**
 * Decay runs over a layer in slices of its primary key, each its own statement, so that a recall
 * on the embedded store waits for one slice and not for the whole table. A sliced run must judge
 * and write exactly what one statement over the whole layer would.
 */
import { describe, expect, it } from "vitest";
import { applyDecay, previewDecay } from "../src/adapters/storage/lifecycle-sql.js";
import { SqlStorage } from "../src/adapters/storage/sql-storage.js";
import type { DecayParameters } from "../src/core/lifecycle/ports.js";
import { AT, daysAfter, EMBEDDER, newEpisodic } from "./contract/support.js";
import { BACKENDS } from "./support/backends.js";
import { freshDrivers } from "./support/drivers.js";

const STEEP: DecayParameters = {
  lambda: 0.05,
  accessWeight: 0,
  archiveThreshold: 0.2,
  minConfidence: 0,
  confidenceDecayPerDay: 0,
  unusedGraceDays: 30,
};

describe.each(BACKENDS)("decay in slices on $name", (backend) => {
  const open = freshDrivers(backend);
  it.skipIf(backend.skip !== undefined)(
    "scores every memory once and archives what one statement would, whatever the slice size",
    async () => {
      const driver = await open();
      const storage = new SqlStorage(driver);
      await storage.admin.migrate(EMBEDDER);
      // Twelve memories idle 0 to 55 days: under λ 0.05 those idle 33 days or more fall below 0.2.
      const memories = Array.from({ length: 12 }, (_, i) =>
        newEpisodic({ recorded_at: daysAfter(-5 * i), occurred_at: daysAfter(-5 * i) }),
      );
      await storage.memories.insertEpisodic(memories);
      // One old memory was recalled yesterday: it stays.
      await storage.recall.recordAccess("episodic", [memories[11]!.id], daysAfter(-1));

      const whole = await previewDecay(driver, "episodic", STEEP, AT);
      expect(whole).toMatchObject({ scored: 12, archived: 4, reactivated: 0 });
      // Lowest score first: the longest idle.
      expect(whole.archived_ids).toEqual([10, 9, 8, 7].map((i) => memories[i]!.id));
      // A preview in slices merges them into the same list.
      expect(await previewDecay(driver, "episodic", STEEP, AT, 3)).toEqual(whole);

      // Five does not divide twelve; four does, so its last slice is empty.
      const counts = await applyDecay(driver, "episodic", STEEP, AT, 5);
      expect(counts).toEqual({ scored: 12, archived: 4, reactivated: 0, confidence_lowered: 0 });
      const rows = await storage.memories.getMany(
        "episodic",
        memories.map((memory) => memory.id),
      );
      expect(
        rows
          .filter((row) => row.status === "archived")
          .map((row) => row.id)
          .sort(),
      ).toEqual([...whole.archived_ids].sort());
      const byId = new Map(rows.map((row) => [row.id, row]));
      memories.forEach((memory, i) => {
        const idle = memory === memories[11] ? 1 : 5 * i;
        expect(byId.get(memory.id)!.decay_score, `idle ${idle} days`).toBeCloseTo(
          Math.exp(-0.05 * idle),
          4,
        );
      });

      expect(await applyDecay(driver, "episodic", STEEP, AT, 4)).toEqual({
        scored: 12,
        archived: 0,
        reactivated: 0,
        confidence_lowered: 0,
      });
      const [lifecycle] = await driver.query<{ scored: number }>(
        "SELECT count(*)::int AS scored FROM episodic_lifecycle WHERE scored_at = $1",
        [AT],
      );
      expect(lifecycle?.scored).toBe(12);
    },
  );

  // The embedded store's one connection: PostgreSQL serves the request on another connection
  // anyway, in no order a test could rely on.
  it.skipIf(backend.skip !== undefined || backend.name !== "pglite")(
    "lets other work in between slices on the embedded store's one connection",
    async () => {
      const driver = await open();
      const storage = new SqlStorage(driver);
      await storage.admin.migrate(EMBEDDER);
      await storage.memories.insertEpisodic(Array.from({ length: 6 }, () => newEpisodic()));
      const finished: string[] = [];
      const runs = [
        applyDecay(driver, "episodic", STEEP, AT, 2).then(() => finished.push("decay")),
        previewDecay(driver, "episodic", STEEP, AT, 2).then(() => finished.push("preview")),
      ];
      // A request arriving meanwhile (as an HTTP recall would, from the event loop) is served
      // between two slices, not after the last.
      const request = new Promise<void>((resolve) =>
        setImmediate(() =>
          driver.query("SELECT 1").then(() => {
            finished.push("request");
            resolve();
          }),
        ),
      );
      await Promise.all([...runs, request]);
      expect(finished[0]).toBe("request");
    },
  );
});
