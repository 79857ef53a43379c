/**
 * An embedded data directory shared by several hindsight processes (MCP clients start one
 * server per window). The first process owns the directory: it opens the database and serves
 * the others on a local socket. The others forward every call to it. When the owner exits, the
 * next call of a remaining process takes the directory over, or reaches whoever did. A write
 * interrupted by the owner's exit is retried with the same client-chosen id, so it is stored
 * exactly once.
 */

import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import {
  acquireDirLock,
  askOwner,
  type DirLock,
  lockAddress,
} from "../adapters/storage/dir-lock.js";
import { ErrorCode, HindsightError } from "../core/errors.js";
import type { MemoryApi, MemoryOperation } from "../core/memory-api.js";
import type { Logger } from "../core/ports.js";
import { forwardingMemory } from "./forwarding.js";
import { OwnerGoneError, RpcMemory } from "./rpc-client.js";
import { type RpcServer, serveMemory } from "./rpc-server.js";
import { memorySocketPath } from "./socket-path.js";

export interface SharedDirectoryOptions {
  dataDir: string;
  /** How long to wait for an owner that holds the directory but does not answer yet. */
  lockTimeoutMs: number;
  logger: Logger;
  /** Opens the database in this process, once it holds the directory's lock. */
  openLocal: () => Promise<MemoryApi>;
  /**
   * Instead of owning a free directory, start another process that owns it and stays (see
   * cli/keep-warm) and forward to it: a one-shot command then leaves the database open and
   * the model loaded for the next one. If that process exits before serving, this one owns.
   */
  startOwner?: (dataDir: string) => StartedOwner;
}

/** A process started to own the directory. */
export interface StartedOwner {
  readonly pid: number | undefined;
  /** false once it has exited. */
  running(): boolean;
}

interface Backend {
  api: MemoryApi;
  role: "owner" | "client";
  close(): Promise<void>;
}

/** How many times a call is re-sent after the owner went away mid-call. */
const MAX_FAILOVERS = 3;
const POLL_MS = 50;

/** Gives every item to store an id, so a retried write is recognised as the same one. */
function withId(input: unknown): unknown {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return input;
  return "id" in input ? input : { ...input, id: randomUUID() };
}

/**
 * Writes whose retry after a failover must land once: their items get ids before the first
 * attempt (an item id also makes a retried working-memory append land once).
 */
const IDEMPOTENT_ARGS: Partial<Record<MemoryOperation, (args: unknown[]) => unknown[]>> = {
  storeEpisodic: ([input]) => [withId(input)],
  storeSemantic: ([input, ...rest]) => [withId(input), ...rest],
  workingAppend: ([input]) => [withId(input)],
  storeEpisodicBatch: ([inputs]) => [Array.isArray(inputs) ? inputs.map(withId) : inputs],
};

export interface SharedEmbeddedMemory extends MemoryApi {
  /** "owner" when this process holds the database, "client" when it forwards. */
  role(): Promise<"owner" | "client">;
}

class SharedDirectory {
  private backend: Promise<Backend>;
  private closing = false;

  private constructor(private readonly options: SharedDirectoryOptions) {
    this.backend = this.connect();
  }

  /** Takes the directory over, or connects to the process that holds it. */
  static async open(options: SharedDirectoryOptions): Promise<SharedDirectory> {
    const directory = new SharedDirectory(options);
    await directory.backend;
    return directory;
  }

  private async connect(): Promise<Backend> {
    const { dataDir, logger } = this.options;
    const socketPath = await memorySocketPath(dataDir);
    // Restarted whenever the directory changes hands: churning one-off owners are progress,
    // and must not run a waiter out of time (see acquireDirLock).
    let deadline = Date.now() + this.options.lockTimeoutMs;
    let lastHolder: string | undefined;
    let started: StartedOwner | undefined;
    for (;;) {
      // While the owner started for us is starting, the lock is left for it to take.
      const lock = started?.running() ? undefined : await tryLock(dataDir);
      if (lock && this.options.startOwner && started === undefined) {
        await lock.release();
        try {
          started = this.options.startOwner(dataDir);
          logger.info(`started process ${started.pid} to keep data directory ${dataDir} open`);
        } catch (error) {
          logger.warn(`could not start a process to keep ${dataDir} open: ${String(error)}`);
          started = { pid: undefined, running: () => false };
        }
        deadline = Date.now() + this.options.lockTimeoutMs;
        continue;
      }
      if (lock) {
        if (started?.pid !== undefined) {
          logger.warn(`process ${started.pid} exited before serving; opening here`);
        }
        return this.becomeOwner(lock, socketPath);
      }
      const client = await RpcMemory.connect(socketPath).catch(() => undefined);
      if (client) {
        logger.info(
          `data directory ${dataDir} is open in process ${client.owner.pid}; forwarding to it`,
        );
        return { api: client.memory, role: "client", close: () => client.close() };
      }
      // The owner holds the lock but is not serving yet (still opening), or just left.
      const owner = await askOwner(await lockAddress(dataDir));
      if (owner?.holder !== undefined && owner.holder !== lastHolder) {
        // The owner started for us has taken the lock: its opening gets the whole wait.
        if (lastHolder !== undefined || started) deadline = Date.now() + this.options.lockTimeoutMs;
        lastHolder = owner.holder;
      }
      if (Date.now() >= deadline) {
        throw new HindsightError(
          ErrorCode.DATA_DIR_IN_USE,
          `data directory ${dataDir} is in use by ${owner ? `process ${owner.pid}` : "another process"}, which does not answer`,
          { details: { dir: dataDir, ...(owner ? { pid: owner.pid } : {}) } },
        );
      }
      await sleep(POLL_MS);
    }
  }

  private async becomeOwner(lock: DirLock, socketPath: string): Promise<Backend> {
    let api: MemoryApi | undefined;
    let server: RpcServer | undefined;
    try {
      api = await this.options.openLocal();
      server = await serveMemory(socketPath, api, this.options.logger);
    } catch (error) {
      await api?.close().catch(() => undefined);
      await lock.release();
      throw error;
    }
    const serving = server;
    const local = api;
    return {
      api: local,
      role: "owner",
      close: async () => {
        // Finish what others asked for, then let the next process take over.
        await serving.close();
        await local.close();
        await lock.release();
      },
    };
  }

  async role(): Promise<"owner" | "client"> {
    return (await this.backend).role;
  }

  /** Runs a call on the current backend, failing over when the owner goes away mid-call. */
  async call<T>(fn: (api: MemoryApi) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const backend = await this.backend;
      try {
        return await fn(backend.api);
      } catch (error) {
        if (!(error instanceof OwnerGoneError) || attempt >= MAX_FAILOVERS || this.closing)
          throw error;
        this.options.logger.info("the process owning the data directory exited; reconnecting");
        this.backend = this.connect();
      }
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    const backend = await this.backend.catch(() => undefined);
    await backend?.close();
  }
}

/**
 * A MemoryApi on an embedded data directory shared by several processes: every operation
 * runs on the directory's owner, this process or another.
 */
export async function openSharedEmbeddedMemory(
  options: SharedDirectoryOptions,
): Promise<SharedEmbeddedMemory> {
  const directory = await SharedDirectory.open(options);
  const memory = forwardingMemory(
    (operation, args) => {
      const prepared = IDEMPOTENT_ARGS[operation]?.(args) ?? args;
      return directory.call((api) =>
        (api[operation] as (...args: unknown[]) => Promise<unknown>)(...prepared),
      );
    },
    () => directory.close(),
  );
  return Object.assign(memory, { role: () => directory.role() });
}

async function tryLock(dataDir: string): Promise<DirLock | undefined> {
  try {
    return await acquireDirLock(dataDir, { timeoutMs: 0 });
  } catch (error) {
    if ((error as { code?: string }).code === ErrorCode.DATA_DIR_IN_USE) return undefined;
    throw error;
  }
}
