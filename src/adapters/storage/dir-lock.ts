/**
 * One process owns an embedded data directory at a time.
 *
 * PGlite has no lock between processes: two processes on one directory both open it and one
 * silently loses its writes. The owner listens on a local socket named after the directory;
 * on Linux it is an abstract socket, which the kernel releases when the process dies, so a
 * crashed owner never leaves a stale lock. Its name is derived from a secret kept in a private
 * file of the directory, so a user who cannot read the data cannot take the name first and
 * block the store (abstract sockets have no file permissions). Elsewhere it is a socket file beside the data,
 * removed when nobody answers on it. A later process waits a bounded time, then fails with
 * DATA_DIR_IN_USE naming the owner's process id.
 */
import { createHash, randomUUID } from "node:crypto";
import { realpath, rm } from "node:fs/promises";
import { createConnection, createServer, type Server } from "node:net";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ErrorCode, HindsightError } from "../../core/errors.js";
import { directorySecret } from "./private-dir.js";

export interface DirLock {
  /** The socket address, for connecting to the owner. */
  readonly address: string;
  release(): Promise<void>;
}

export interface DirLockOptions {
  /** How long to wait for the owner to go away; 0 fails at once. */
  timeoutMs: number;
  pollMs?: number;
}

interface Hello {
  pid: number;
  /**
   * Which tenure of the lock this is (a random id per acquisition): a waiter that sees it
   * change knows the directory changed hands, even between two owners in one process.
   */
  holder?: string;
}

export async function lockAddress(dir: string): Promise<string> {
  const canonical = await realpath(dir);
  if (process.platform === "linux") {
    const secret = await directorySecret(canonical, ".hindsight-lock-key");
    const digest = createHash("sha256")
      .update(`${canonical}\0${secret}`)
      .digest("hex")
      .slice(0, 32);
    return `\0hindsight-${digest}`;
  }
  return join(canonical, ".hindsight.lock");
}

function listen(server: Server, address: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off("listening", onListening);
      if (error.code === "EADDRINUSE") resolve(false);
      else reject(error);
    };
    const onListening = () => {
      server.off("error", onError);
      resolve(true);
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(address);
  });
}

/** Asks the current owner who it is; `undefined` when nobody answers. */
export function askOwner(address: string, timeoutMs = 1000): Promise<Hello | undefined> {
  return new Promise((resolve) => {
    const socket = createConnection(address);
    let buffer = "";
    const done = (hello: Hello | undefined) => {
      socket.destroy();
      resolve(hello);
    };
    socket.setTimeout(timeoutMs, () => done(undefined));
    socket.on("error", () => done(undefined));
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      const newline = buffer.indexOf("\n");
      if (newline < 0) return;
      try {
        const hello = JSON.parse(buffer.slice(0, newline)) as Partial<Hello>;
        done(
          typeof hello.pid === "number"
            ? {
                pid: hello.pid,
                ...(typeof hello.holder === "string" ? { holder: hello.holder } : {}),
              }
            : undefined,
        );
      } catch {
        done(undefined);
      }
    });
  });
}

export async function acquireDirLock(dir: string, options: DirLockOptions): Promise<DirLock> {
  const address = await lockAddress(dir);
  const pollMs = options.pollMs ?? 100;
  const holder = randomUUID();
  // The wait is for one owner to go away: while the directory keeps changing hands (one-off
  // CLI writers, each owning it for a moment), the waiter is making progress, and its time
  // starts again with each new owner instead of running out under load.
  let deadline = Date.now() + options.timeoutMs;
  let lastHolder: string | undefined;
  const server = createServer((socket) => {
    // The asker may hang up before the greeting is written; that is not our failure.
    socket.on("error", () => socket.destroy());
    socket.end(`${JSON.stringify({ hindsight: 1, pid: process.pid, holder })}\n`);
  });
  server.unref(); // holding the lock must not keep the process alive
  for (;;) {
    if (await listen(server, address)) {
      return {
        address,
        release: () =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
          }),
      };
    }
    const owner = await askOwner(address);
    if (!owner && !address.startsWith("\0")) {
      // A socket file nobody answers on was left by a process that died.
      await rm(address, { force: true });
      continue;
    }
    if (owner?.holder !== undefined && owner.holder !== lastHolder) {
      if (lastHolder !== undefined) deadline = Date.now() + options.timeoutMs;
      lastHolder = owner.holder;
    }
    if (Date.now() >= deadline) {
      const who = owner ? `process ${owner.pid}` : "another process";
      throw new HindsightError(
        ErrorCode.DATA_DIR_IN_USE,
        `data directory ${dir} is in use by ${who}; stop it, or point HINDSIGHT_DATA_DIR elsewhere`,
        { details: { dir, ...(owner ? { pid: owner.pid } : {}) } },
      );
    }
    await sleep(pollMs);
  }
}
