import { mkdir, mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bufferPoolMb, storeBytes } from "./pglite-buffers.js";

const MB = 1024 * 1024;

describe("bufferPoolMb", () => {
  it("keeps PostgreSQL's 128 MB for a store that fits in it", () => {
    expect(bufferPoolMb(0)).toBe(128);
    expect(bufferPoolMb(150 * MB)).toBe(128);
  });

  it("grows with the store in steps of 16 MB, to three quarters of its files", () => {
    expect(bufferPoolMb(400 * MB)).toBe(304);
    expect(bufferPoolMb(451 * MB)).toBe(352);
  });

  it("stops at 512 MB however large the store", () => {
    expect(bufferPoolMb(700 * MB)).toBe(512);
    expect(bufferPoolMb(50_000 * MB)).toBe(512);
  });
});

describe("storeBytes", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it("adds up the files under base/, not the write-ahead log", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "hindsight-bytes-"));
    dirs.push(dir);
    await mkdir(path.join(dir, "base", "5"), { recursive: true });
    await mkdir(path.join(dir, "pg_wal"));
    await writeFile(path.join(dir, "base", "5", "16384"), "x".repeat(1000));
    await writeFile(path.join(dir, "base", "5", "16385"), "");
    await truncate(path.join(dir, "base", "5", "16385"), 3 * MB);
    await writeFile(path.join(dir, "pg_wal", "000000010000000000000001"), "y".repeat(5000));
    expect(storeBytes(dir)).toBe(1000 + 3 * MB);
  });

  it("is 0 for a store not made yet", () => {
    expect(storeBytes(path.join(tmpdir(), "hindsight-no-such-store", "pglite"))).toBe(0);
  });
});
