import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Turns } from "../concurrency.js";
import type { MemoryRecords } from "../memories/ports.js";
import { type ExportedEpisodic, newEpisodeRecord } from "./format.js";
import type { ImportedMemory, TransferStore } from "./ports.js";
import { type ImportInput, importBatches, importMemories, type TransferDeps } from "./transfer.js";

const AT = "2025-06-01T00:00:00.000Z";

const episode = (summary: string): ExportedEpisodic =>
  newEpisodeRecord({
    id: randomUUID(),
    occurred_at: AT,
    task_type: "deploy",
    summary,
    outcome: "success",
  });

/** A few turns of the event loop: long enough for other work to start meanwhile. */
const turns = async (count: number) => {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
};

/**
 * Deps whose embedding and writing log when they start and end, by the batch's first summary;
 * `failWrite` names a batch whose write throws.
 */
function loggingDeps(failWrite?: string) {
  const log: string[] = [];
  const batchOf = (text: string) => /batch \d+/.exec(text)?.[0] ?? "?";
  const deps: TransferDeps = {
    transfer: {
      async importRecords(memories: readonly ImportedMemory[]) {
        const batch = batchOf((memories[0] as ExportedEpisodic).summary);
        log.push(`write ${batch}`);
        await turns(5);
        if (batch === failWrite) throw new Error(`${batch} failed`);
        log.push(`wrote ${batch}`);
        return { imported: memories.length, skipped: 0, groups: 0, trust: 0 };
      },
    } as unknown as TransferStore,
    memories: { getMany: async () => [] } as unknown as MemoryRecords,
    embedder: { id: "test", dimensions: 2 },
    async embed(texts) {
      log.push(`embed ${batchOf(texts[0]!)}`);
      await turns(2);
      return texts.map(() => new Float32Array([1, 0]));
    },
    now: () => new Date(AT),
    writes: new Turns(),
  };
  return { deps, log };
}

const batches = (count: number): ImportInput[] =>
  Array.from({ length: count }, (_, i) => ({
    records: [episode(`batch ${i + 1}, first`), episode(`batch ${i + 1}, second`)],
  }));

describe("importBatches", () => {
  it("embeds the next batch while writing one, and writes one batch at a time, in order", async () => {
    const { deps, log } = loggingDeps();
    const service = { importMemories: (input: unknown) => importMemories(deps, input) };
    const total = await importBatches(service, batches(3));
    expect(total).toEqual({ imported: 6, skipped: 0, embedded: 6, groups: 0, trust: 0 });
    const writes = log.filter((entry) => entry.startsWith("wr"));
    expect(writes).toEqual([
      "write batch 1",
      "wrote batch 1",
      "write batch 2",
      "wrote batch 2",
      "write batch 3",
      "wrote batch 3",
    ]);
    // Batch 2 was embedded before batch 1 had been written.
    expect(log.indexOf("embed batch 2")).toBeLessThan(log.indexOf("wrote batch 1"));
  });

  it("stops at a failed batch once the batch in flight has settled, asking for no more", async () => {
    const { deps, log } = loggingDeps("batch 1");
    const asked: number[] = [];
    const service = {
      importMemories: (input: unknown) => {
        asked.push(asked.length + 1);
        return importMemories(deps, input);
      },
    };
    await expect(importBatches(service, batches(4))).rejects.toThrow("batch 1 failed");
    expect(asked).toEqual([1, 2]);
    expect(log.at(-1)).toBe("wrote batch 2");
  });
});

describe("importMemories", () => {
  it("writes an older version's search text as the current tokenizer would", async () => {
    const written: ImportedMemory[] = [];
    const { deps } = loggingDeps();
    deps.transfer = {
      async importRecords(memories: readonly ImportedMemory[]) {
        written.push(...memories);
        return { imported: memories.length, skipped: 0, groups: 0, trust: 0 };
      },
    } as unknown as TransferStore;
    const current = episode("Moved the sync to Friday evening");
    // Exported before calendar words had one form: the weekday and "evening" as their stems.
    const older = {
      ...current,
      search_text: "deploi move the sync to fridai even | mel 星期五 早上",
    };
    // And before units of measure had one form: "5km" as one word.
    const olderStill = {
      ...episode("Ran 5km before the sync"),
      search_text: "deploi ran 5km befor the sync",
    };
    await importMemories(deps, { records: [older, olderStill] });
    expect(written[0]!.search_text).toBe("deploi move the sync to 周五 晚上 | mel 周五 上午");
    expect(current.search_text).toBe("deploi move the sync to 周五 晚上");
    expect(written[1]!.search_text).toBe("deploi ran 5 公里 befor the sync");
  });
});
