import { spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acquireDirLock, askOwner } from "./dir-lock.js";

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), "hindsight-lock-"));
}

describe("data directory lock", () => {
  it("lets one holder in and names it to the next", async () => {
    const dir = await tempDir();
    const lock = await acquireDirLock(dir, { timeoutMs: 0 });
    expect(await askOwner(lock.address)).toEqual({ pid: process.pid, holder: expect.any(String) });
    await expect(acquireDirLock(dir, { timeoutMs: 200, pollMs: 20 })).rejects.toMatchObject({
      code: "DATA_DIR_IN_USE",
      message: expect.stringContaining(`process ${process.pid}`),
    });
    await lock.release();
    const again = await acquireDirLock(dir, { timeoutMs: 0 });
    await again.release();
  });

  it("waits for the owner to release within the timeout", async () => {
    const dir = await tempDir();
    const lock = await acquireDirLock(dir, { timeoutMs: 0 });
    setTimeout(() => void lock.release(), 150);
    const next = await acquireDirLock(dir, { timeoutMs: 5_000, pollMs: 20 });
    await next.release();
  });

  it("is released by the kernel when the owner is killed", async () => {
    const dir = await tempDir();
    // The child runs the built module: plain Node cannot import TypeScript.
    const built = new URL("../../../dist/adapters/storage/dir-lock.js", import.meta.url).href;
    const child = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const { acquireDirLock } = await import(${JSON.stringify(built)});
         await acquireDirLock(${JSON.stringify(dir)}, { timeoutMs: 0 });
         console.log("locked"); setInterval(() => {}, 1000);`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    await new Promise((resolve) => child.stdout.once("data", resolve));
    await expect(acquireDirLock(dir, { timeoutMs: 0 })).rejects.toMatchObject({
      code: "DATA_DIR_IN_USE",
    });
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    const lock = await acquireDirLock(dir, { timeoutMs: 2_000, pollMs: 20 });
    await lock.release();
  });
});

describe("a directory changing hands", () => {
  it("keeps a waiter waiting while owners come and go, instead of running it out of time", async () => {
    const { mkdtemp, rm } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const dir = await mkdtemp(join(tmpdir(), "hindsight-churn-"));
    try {
      // Eight one-off owners, each holding the directory 150 ms and handing it straight on. The
      // waiter may slip in during a hand-over (that is allowed: it got the directory); the next
      // owner then waits for it instead of failing.
      let lock = await acquireDirLock(dir, { timeoutMs: 0 });
      const churn = (async () => {
        for (let owner = 1; owner < 8; owner++) {
          await new Promise((resolve) => setTimeout(resolve, 150));
          await lock.release();
          lock = await acquireDirLock(dir, { timeoutMs: 10_000, pollMs: 10 });
        }
        await new Promise((resolve) => setTimeout(resolve, 150));
        await lock.release();
      })();
      // 600 ms is half the 1.2 s of churn, and four owners' tenures (room for a loaded machine
      // to miss a hand-over or stall): a wait that did not start again with each new owner
      // fails here with DATA_DIR_IN_USE.
      const waiter = await acquireDirLock(dir, { timeoutMs: 600, pollMs: 50 });
      await waiter.release();
      await churn;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
