/**
 * A store's files are private to its user: run as root here, the checks that matter are made
 * as an unprivileged user (nobody, through setpriv), who must be unable to read the data, take
 * the socket fallback folder or block the store's lock.
 */
import { execFile } from "node:child_process";
import { chmod, lstat, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acquireDirLock, lockAddress } from "../src/adapters/storage/dir-lock.js";
import { directorySecret, ensurePrivateDirectory } from "../src/adapters/storage/private-dir.js";
import { createHindsight } from "../src/index.js";
import { memorySocketPath } from "../src/multiprocess/socket-path.js";

const run = promisify(execFile);
const asRoot = userInfo().uid === 0;
const NOBODY = 65534;

/** Runs a command as nobody; resolves to whether it succeeded. */
async function asNobody(command: string, args: string[]): Promise<boolean> {
  try {
    await run("setpriv", [
      `--reuid=${NOBODY}`,
      `--regid=${NOBODY}`,
      "--clear-groups",
      command,
      ...args,
    ]);
    return true;
  } catch {
    return false;
  }
}

async function modesUnder(root: string): Promise<{ path: string; mode: number }[]> {
  const entries = await readdir(root, { recursive: true });
  const all = [root, ...entries.map((entry) => join(root, entry))];
  return Promise.all(all.map(async (path) => ({ path, mode: (await lstat(path)).mode & 0o777 })));
}

let base: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "hindsight-private-"));
  await chmod(base, 0o755); // reachable by nobody, like a home directory
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("an embedded store's files", () => {
  it("are 0600 in 0700 directories, and another user can read none of them", async () => {
    const dataDir = join(base, "data");
    const memory = await createHindsight({ dataDir, embedder: { kind: "hash" } });
    await memory.storeEpisodic({
      task_type: "deploy",
      summary: "the staging password is hunter2",
      outcome: "success",
    });
    await memory.close();
    const modes = await modesUnder(dataDir);
    expect(modes.length).toBeGreaterThan(100);
    const loose = modes.filter(({ mode }) => (mode & 0o077) !== 0);
    expect(loose).toEqual([]);
    if (asRoot) {
      expect(await asNobody("ls", [dataDir])).toBe(false);
      expect(await asNobody("cat", [join(dataDir, "pglite", "PG_VERSION")])).toBe(false);
    }
  });

  it("tightens a store made with loose modes when it is opened", async () => {
    const dataDir = join(base, "old");
    const memory = await createHindsight({ dataDir, embedder: { kind: "hash" } });
    await memory.close();
    await chmod(dataDir, 0o755);
    await chmod(join(dataDir, "pglite"), 0o755);
    await chmod(join(dataDir, "pglite", "PG_VERSION"), 0o666);
    const again = await createHindsight({ dataDir, embedder: { kind: "hash" } });
    expect((await lstat(dataDir)).mode & 0o777).toBe(0o700);
    expect((await lstat(join(dataDir, "pglite", "PG_VERSION"))).mode & 0o777).toBe(0o600);
    await again.close();
  });

  it("refuses a data dir that is a file, naming the setting", async () => {
    const file = join(base, "file");
    await writeFile(file, "x");
    await expect(
      ensurePrivateDirectory(file, { field: "HINDSIGHT_DATA_DIR" }),
    ).rejects.toMatchObject({ code: "CONFIG_INVALID", field: "HINDSIGHT_DATA_DIR" });
  });
});

describe("the socket fallback folder in the temp directory", () => {
  /**
   * Runs `fn` with a data dir too deep for a socket path and TMPDIR set to a sticky, world-
   * writable folder of the test's own (like /tmp), then restores TMPDIR.
   */
  const withTmpdir = async (fn: (dataDir: string, tmp: string) => Promise<void>) => {
    const dataDir = join(base, "d".repeat(60), "e".repeat(60));
    await mkdir(dataDir, { recursive: true });
    const tmp = join(base, "tmp");
    await mkdir(tmp);
    await chmod(tmp, 0o1777);
    const previous = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      await fn(dataDir, tmp);
    } finally {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
    }
  };

  it("is the user's own and private", async () => {
    await withTmpdir(async (dataDir, tmp) => {
      const socket = await memorySocketPath(dataDir);
      const folder = join(tmp, `hindsight-${userInfo().uid}`);
      expect(socket.startsWith(folder)).toBe(true);
      expect((await lstat(folder)).mode & 0o777).toBe(0o700);
    });
  });

  it.runIf(asRoot)("is refused when another user made it first", async () => {
    await withTmpdir(async (dataDir, tmp) => {
      const folder = join(tmp, `hindsight-${userInfo().uid}`);
      // The squatter prepares the folder before the user's first run.
      expect(await asNobody("mkdir", ["-m", "0777", folder])).toBe(true);
      await expect(memorySocketPath(dataDir)).rejects.toMatchObject({
        code: "CONFIG_INVALID",
        field: "TMPDIR",
      });
      // A folder of ours that others could enter is closed, not used open.
      await rm(folder, { recursive: true });
      await mkdir(folder, { mode: 0o777 });
      await chmod(folder, 0o777);
      await memorySocketPath(dataDir);
      expect((await lstat(folder)).mode & 0o777).toBe(0o700);
    });
  });
});

describe("the directory lock", () => {
  it("is named by a secret only readers of the directory know", async () => {
    const dir = join(base, "locked");
    await ensurePrivateDirectory(dir, { field: "HINDSIGHT_DATA_DIR" });
    const secrets = await Promise.all([1, 2, 3, 4].map(() => directorySecret(dir, ".key")));
    expect(new Set(secrets).size).toBe(1);
    expect((await lstat(join(dir, ".key"))).mode & 0o777).toBe(0o600);
    // The name a squatter could compute from the path alone is not the lock's.
    const address = await lockAddress(dir);
    if (process.platform !== "linux") return;
    const { createHash } = await import("node:crypto");
    const guess = `\0hindsight-${createHash("sha256").update(dir).digest("hex").slice(0, 32)}`;
    expect(address).not.toBe(guess);
    const squatter = createServer((socket) => socket.end('{"hindsight":1,"pid":31337}\n'));
    await new Promise<void>((resolve) => squatter.listen(guess, resolve));
    try {
      const lock = await acquireDirLock(dir, { timeoutMs: 0 });
      await lock.release();
    } finally {
      squatter.close();
    }
  });
});

describe("a data dir that cannot hold a store", () => {
  it.each([
    ["in /proc", "/proc/hindsight-data", "kernel file system"],
    ["a file", "/etc/hostname", "is not a directory"],
  ])("is refused at once when it is %s, naming the setting", async (_name, dataDir, why) => {
    await expect(createHindsight({ dataDir, embedder: { kind: "hash" } })).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      field: "HINDSIGHT_DATA_DIR",
      message: expect.stringContaining(why),
    });
  });
});

describe("files PGlite creates while the store is open", () => {
  it("are made private without waiting for the store to close", async () => {
    const { openPGlite } = await import("../src/adapters/storage/pglite.js");
    const dataDir = join(base, "open");
    const logger = { debug() {}, info() {}, warn() {}, error() {} };
    const driver = await openPGlite({ dataDir, logger, privateSweepMs: 100 });
    try {
      // New relations: new files, written 0666 by PGlite.
      await driver.exec("CREATE TABLE sweep_a (x int); CREATE TABLE sweep_b (y text)");
      await driver.query("INSERT INTO sweep_a VALUES (1)");
      await expect
        .poll(async () => (await modesUnder(dataDir)).filter(({ mode }) => (mode & 0o077) !== 0), {
          timeout: 10_000,
        })
        .toEqual([]);
    } finally {
      await driver.close();
    }
  });
});
