import { mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
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

  async function newStore(): Promise<string> {
    const dataDir = await mkdtemp(path.join(tmpdir(), "hindsight-pool-"));
    dirs.push(dataDir);
    return dataDir;
  }

  async function sharedBuffers(
    oneShot: boolean | undefined,
    dataDir?: string,
    pgliteBuffersMb?: number,
  ): Promise<string | undefined> {
    const driver = await openDriver(
      { dataDir: dataDir ?? (await newStore()), pgliteBuffersMb },
      silentLogger,
      { oneShot },
    );
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

  it("grows with a large store for a long-running process, not for a one-shot command", async () => {
    const dataDir = await newStore();
    await sharedBuffers(undefined, dataDir);
    // A sparse file stands for 400 MB of tables: PostgreSQL ignores a file it did not make.
    const tables = path.join(dataDir, "pglite", "base", "hindsight-size-probe");
    await writeFile(tables, "");
    await truncate(tables, 400 * 1024 * 1024);
    const pool = await sharedBuffers(undefined, dataDir);
    expect(Number.parseInt(pool ?? "", 10)).toBeGreaterThanOrEqual(304);
    expect(await sharedBuffers(true, dataDir)).toBe("16MB");
  });

  it("is what the setting says when one is given, one-shot or not", async () => {
    const dataDir = await newStore();
    expect(await sharedBuffers(true, dataDir, 64)).toBe("64MB");
    expect(await sharedBuffers(undefined, dataDir, 256)).toBe("256MB");
  });
});
