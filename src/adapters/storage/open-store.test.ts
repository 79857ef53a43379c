import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { silentLogger } from "../logger.js";
import { openDriver } from "./open-store.js";

describe("the embedded store's buffer pool", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  async function sharedBuffers(oneShot: boolean | undefined): Promise<string | undefined> {
    const dataDir = await mkdtemp(path.join(tmpdir(), "hindsight-pool-"));
    dirs.push(dataDir);
    const driver = await openDriver({ dataDir }, silentLogger, { oneShot });
    try {
      const [row] = await driver.query<{ shared_buffers: string }>("SHOW shared_buffers");
      return row?.shared_buffers;
    } finally {
      await driver.close();
    }
  }

  it("is small for a process that runs one command, PostgreSQL's own for any other", async () => {
    // A one-shot command starts ~90 ms sooner with it; a server keeps its pages cached.
    expect(await sharedBuffers(true)).toBe("16MB");
    expect(await sharedBuffers(undefined)).toBe("128MB");
  });
});
