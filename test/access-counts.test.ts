/**
 * A recall counts as an access to what it returned; the count is written behind the response
 * (core/recall). `accessCountsWritten` is how a caller that reads the counts, or times what
 * comes next (the bench's raw query on PGlite's one session), waits for them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MemoryService } from "../src/core/service.js";
import { BACKENDS } from "./support/backends.js";
import { openLifecycleService } from "./support/lifecycle.js";

describe.each(BACKENDS)("access counts on $name", (backend) => {
  let memory: MemoryService;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    if (backend.skip) return;
    const fresh = await backend.scratch();
    cleanup = fresh.cleanup;
    memory = await openLifecycleService(fresh.location);
  });
  afterAll(async () => {
    await memory?.close();
    await cleanup?.();
  });

  it.skipIf(backend.skip)("are readable once accessCountsWritten resolves", async () => {
    const { id } = await memory.storeEpisodic({
      task_type: "ops",
      summary: "rotated the staging certificates",
      outcome: "success",
    });
    for (let i = 1; i <= 3; i++) {
      const { results } = await memory.recall({ query_text: "staging certificates" });
      expect(results[0]).toMatchObject({ id, access_count: i });
      await memory.accessCountsWritten();
      expect(await memory.get({ memory_id: id })).toMatchObject({ access_count: i });
    }
  });
});
