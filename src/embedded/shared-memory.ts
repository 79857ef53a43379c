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
import type { AuditEntry } from "../core/audit.js";
import { ErrorCode, HindsightError } from "../core/errors.js";
import type {
  ConsolidateResponse,
  FeedbackResult,
  JobOptions,
  MaintainResult,
} from "../core/lifecycle/lifecycle.js";
import type { MemoryHistory, RestoreOutcome } from "../core/lifecycle/store-port.js";
import type { MemoryApi } from "../core/memory-api.js";
import type { Logger, MigrationReport } from "../core/ports.js";
import type { RecallResponse } from "../core/service.js";
import type { QuarantineList, SourcesList } from "../core/sharing/sharing.js";
import type { Group, ReviewResult, SourceTrust, StoredKnowledge } from "../core/sharing/types.js";
import type { SummaryResult } from "../core/summarize.js";
import type { ForgetResult, MemoryStats, StoreResult } from "../core/types.js";
import type {
  WorkingAppendResult,
  WorkingContext,
  WorkingEndResult,
} from "../core/working/types.js";
import { acquireDirLock, askOwner, type DirLock, lockAddress } from "../storage/dir-lock.js";
import { OwnerGoneError, RpcMemory } from "./rpc-client.js";
import { type RpcServer, serveMemory } from "./rpc-server.js";
import { memorySocketPath } from "./socket-path.js";

export interface SharedMemoryOptions {
  dataDir: string;
  /** How long to wait for an owner that holds the directory but does not answer yet. */
  lockTimeoutMs: number;
  logger: Logger;
  /** Opens the database in this process, once it holds the directory's lock. */
  openLocal: () => Promise<MemoryApi>;
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

export class SharedEmbeddedMemory implements MemoryApi {
  private backend: Promise<Backend>;
  private closing = false;

  private constructor(private readonly options: SharedMemoryOptions) {
    this.backend = this.connect();
  }

  static async open(options: SharedMemoryOptions): Promise<SharedEmbeddedMemory> {
    const memory = new SharedEmbeddedMemory(options);
    await memory.backend;
    return memory;
  }

  /** "owner" when this process holds the database, "client" when it forwards. */
  async role(): Promise<"owner" | "client"> {
    return (await this.backend).role;
  }

  private async connect(): Promise<Backend> {
    const { dataDir, logger } = this.options;
    const socketPath = await memorySocketPath(dataDir);
    const deadline = Date.now() + this.options.lockTimeoutMs;
    for (;;) {
      const lock = await tryLock(dataDir);
      if (lock) return this.becomeOwner(lock, socketPath);
      const client = await RpcMemory.connect(socketPath).catch(() => undefined);
      if (client) {
        logger.info(
          `data directory ${dataDir} is open in process ${client.owner.pid}; forwarding to it`,
        );
        return { api: client, role: "client", close: () => client.close() };
      }
      // The owner holds the lock but is not serving yet (still opening), or just left.
      if (Date.now() >= deadline) {
        const owner = await askOwner(await lockAddress(dataDir));
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

  /** Runs a call on the current backend, failing over when the owner goes away mid-call. */
  private async call<T>(fn: (api: MemoryApi) => Promise<T>): Promise<T> {
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

  storeEpisodic(input: unknown): Promise<StoreResult> {
    const request = withId(input);
    return this.call((api) => api.storeEpisodic(request));
  }
  storeEpisodicBatch(inputs: readonly unknown[]): Promise<{ ids: string[] }> {
    const requests = Array.isArray(inputs) ? inputs.map(withId) : inputs;
    return this.call((api) => api.storeEpisodicBatch(requests));
  }
  storeSemantic(input: unknown): Promise<StoredKnowledge> {
    const request = withId(input);
    return this.call((api) => api.storeSemantic(request));
  }
  recall(input: unknown): Promise<RecallResponse> {
    return this.call((api) => api.recall(input));
  }
  forget(input: unknown): Promise<ForgetResult> {
    return this.call((api) => api.forget(input));
  }

  audit(input: unknown): Promise<{ entries: AuditEntry[] }> {
    return this.call((api) => api.audit(input));
  }
  summarize(input: unknown): Promise<SummaryResult> {
    return this.call((api) => api.summarize(input));
  }
  stats(): Promise<MemoryStats> {
    return this.call((api) => api.stats());
  }
  maintain(input: unknown = {}, options?: JobOptions): Promise<MaintainResult> {
    return this.call((api) => api.maintain(input, options));
  }
  consolidate(input: unknown = {}, options?: JobOptions): Promise<ConsolidateResponse> {
    return this.call((api) => api.consolidate(input, options));
  }
  feedback(input: unknown): Promise<FeedbackResult> {
    return this.call((api) => api.feedback(input));
  }
  restore(input: unknown): Promise<RestoreOutcome> {
    return this.call((api) => api.restore(input));
  }
  history(input: unknown): Promise<MemoryHistory> {
    return this.call((api) => api.history(input));
  }
  workingAppend(input: unknown): Promise<WorkingAppendResult> {
    // An item id makes a retried append land once.
    const request = withId(input);
    return this.call((api) => api.workingAppend(request));
  }
  workingGet(input: unknown): Promise<WorkingContext> {
    return this.call((api) => api.workingGet(input));
  }
  workingCompress(input: unknown): Promise<WorkingContext> {
    return this.call((api) => api.workingCompress(input));
  }
  workingEnd(input: unknown): Promise<WorkingEndResult> {
    return this.call((api) => api.workingEnd(input));
  }
  grant(input: unknown): Promise<Group> {
    return this.call((api) => api.grant(input));
  }
  revoke(input: unknown): Promise<Group> {
    return this.call((api) => api.revoke(input));
  }
  groups(input: unknown = {}): Promise<{ groups: Group[] }> {
    return this.call((api) => api.groups(input));
  }
  setTrust(input: unknown): Promise<SourceTrust> {
    return this.call((api) => api.setTrust(input));
  }
  sources(): Promise<SourcesList> {
    return this.call((api) => api.sources());
  }
  quarantined(input: unknown = {}): Promise<QuarantineList> {
    return this.call((api) => api.quarantined(input));
  }
  review(input: unknown): Promise<ReviewResult> {
    return this.call((api) => api.review(input));
  }
  ping(): Promise<void> {
    return this.call((api) => api.ping());
  }
  migrate(): Promise<MigrationReport> {
    return this.call((api) => api.migrate());
  }

  async close(): Promise<void> {
    this.closing = true;
    const backend = await this.backend.catch(() => undefined);
    await backend?.close();
  }
}

async function tryLock(dataDir: string): Promise<DirLock | undefined> {
  try {
    return await acquireDirLock(dataDir, { timeoutMs: 0 });
  } catch (error) {
    if ((error as { code?: string }).code === ErrorCode.DATA_DIR_IN_USE) return undefined;
    throw error;
  }
}
