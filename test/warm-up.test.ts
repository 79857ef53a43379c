/**
 * The warm-up recalls of a process that serves many, on a real store: read-only, and closing
 * waits for them.
 */
import { afterEach, describe, expect, it } from "vitest";
import { IN_MEMORY } from "../src/adapters/storage/pglite.js";
import type { MemoryService } from "../src/core/service.js";
import { openLifecycleService } from "./support/lifecycle.js";

describe("warm-up recalls", () => {
  let service: MemoryService | undefined;
  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  it("leave every memory as it was: no access is counted", async () => {
    service = await openLifecycleService({ dataDir: IN_MEMORY });
    const { id } = await service.storeEpisodic({
      task_type: "deploy",
      summary: "Database migration timeout while deploying billing last week",
      outcome: "failure",
    });
    await service.warmUp();
    expect((await service.get({ memory_id: id })).access_count).toBe(0);
    // One of the warm-up queries, asked for real, finds it and counts this one access only.
    const recalled = await service.recall({ query_text: "database migration timeout" });
    expect(recalled.results.find((result) => result.id === id)?.access_count).toBe(1);
  });

  it("let the service close while they run", async () => {
    service = await openLifecycleService({ dataDir: IN_MEMORY });
    const warming = service.warmUp();
    await service.close();
    service = undefined;
    await expect(warming).resolves.toBeUndefined();
  });
});
