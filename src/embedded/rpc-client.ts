/**
 * A MemoryApi that forwards every call to the process owning the embedded data directory.
 */

import { createConnection, type Socket } from "node:net";
import type { AuditEntry } from "../core/audit.js";
import type {
  ConsolidateResponse,
  FeedbackResult,
  JobOptions,
  MaintainResult,
} from "../core/lifecycle/lifecycle.js";
import type { MemoryHistory, RestoreOutcome } from "../core/lifecycle/store-port.js";
import type { MemoryApi, MemoryOperation } from "../core/memory-api.js";
import type { MigrationReport } from "../core/ports.js";
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
import {
  encodeMessage,
  fromWireError,
  type Hello,
  lineReader,
  PROTOCOL_VERSION,
  parseMessage,
  type Response,
} from "./protocol.js";

/** The owner went away before answering: the call may be retried against the next owner. */
export class OwnerGoneError extends Error {
  constructor() {
    super("the process owning the data directory went away");
    this.name = "OwnerGoneError";
  }
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class RpcMemory implements MemoryApi {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closed = false;

  private constructor(
    private readonly socket: Socket,
    readonly owner: Hello,
  ) {
    socket.on("close", () => {
      this.closed = true;
      for (const { reject } of this.pending.values()) reject(new OwnerGoneError());
      this.pending.clear();
    });
  }

  /** Connects and waits for the owner's greeting; rejects when nobody answers. */
  static connect(socketPath: string, timeoutMs = 2000): Promise<RpcMemory> {
    return new Promise((resolve, reject) => {
      const socket = createConnection(socketPath);
      socket.unref(); // an idle connection must not keep the process alive
      let client: RpcMemory | undefined;
      const timer = setTimeout(() => fail(new Error("no greeting from the owner")), timeoutMs);
      const fail = (error: unknown) => {
        clearTimeout(timer);
        socket.destroy();
        reject(error);
      };
      socket.once("error", fail);
      socket.on(
        "data",
        lineReader((line) => {
          const message = parseMessage(line);
          if (!client) {
            const hello = message as Partial<Hello>;
            if (hello.hindsight !== PROTOCOL_VERSION || typeof hello.pid !== "number") {
              fail(new Error("the owner speaks another protocol version"));
              return;
            }
            clearTimeout(timer);
            socket.off("error", fail);
            socket.on("error", () => socket.destroy());
            client = new RpcMemory(socket, hello as Hello);
            resolve(client);
            return;
          }
          client.receive(message as Response);
        }),
      );
    });
  }

  private receive(response: Response): void {
    const pending = this.pending.get(response.id);
    if (!pending) return;
    this.pending.delete(response.id);
    if (response.ok) pending.resolve(response.result);
    else pending.reject(fromWireError(response.error));
  }

  private call<T>(op: MemoryOperation, ...args: unknown[]): Promise<T> {
    if (this.closed) return Promise.reject(new OwnerGoneError());
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      // Keep the process alive while an answer is awaited.
      this.socket.ref();
      this.socket.write(encodeMessage({ id, op, args }));
    }).finally(() => {
      if (this.pending.size === 0) this.socket.unref();
    });
  }

  storeEpisodic(input: unknown): Promise<StoreResult> {
    return this.call("storeEpisodic", input);
  }
  storeEpisodicBatch(inputs: readonly unknown[]): Promise<{ ids: string[] }> {
    return this.call("storeEpisodicBatch", inputs);
  }
  storeSemantic(input: unknown): Promise<StoredKnowledge> {
    return this.call("storeSemantic", input);
  }
  recall(input: unknown): Promise<RecallResponse> {
    return this.call("recall", input);
  }
  forget(input: unknown): Promise<ForgetResult> {
    return this.call("forget", input);
  }

  audit(input: unknown): Promise<{ entries: AuditEntry[] }> {
    return this.call("audit", input);
  }
  summarize(input: unknown): Promise<SummaryResult> {
    return this.call("summarize", input);
  }
  stats(): Promise<MemoryStats> {
    return this.call("stats");
  }
  maintain(input: unknown = {}, options?: JobOptions): Promise<MaintainResult> {
    return this.call("maintain", input, ...(options ? [options] : []));
  }
  consolidate(input: unknown = {}, options?: JobOptions): Promise<ConsolidateResponse> {
    return this.call("consolidate", input, ...(options ? [options] : []));
  }
  feedback(input: unknown): Promise<FeedbackResult> {
    return this.call("feedback", input);
  }
  restore(input: unknown): Promise<RestoreOutcome> {
    return this.call("restore", input);
  }
  history(input: unknown): Promise<MemoryHistory> {
    return this.call("history", input);
  }
  workingAppend(input: unknown): Promise<WorkingAppendResult> {
    return this.call("workingAppend", input);
  }
  workingGet(input: unknown): Promise<WorkingContext> {
    return this.call("workingGet", input);
  }
  workingCompress(input: unknown): Promise<WorkingContext> {
    return this.call("workingCompress", input);
  }
  workingEnd(input: unknown): Promise<WorkingEndResult> {
    return this.call("workingEnd", input);
  }
  grant(input: unknown): Promise<Group> {
    return this.call("grant", input);
  }
  revoke(input: unknown): Promise<Group> {
    return this.call("revoke", input);
  }
  groups(input: unknown = {}): Promise<{ groups: Group[] }> {
    return this.call("groups", input);
  }
  setTrust(input: unknown): Promise<SourceTrust> {
    return this.call("setTrust", input);
  }
  sources(): Promise<SourcesList> {
    return this.call("sources");
  }
  quarantined(input: unknown = {}): Promise<QuarantineList> {
    return this.call("quarantined", input);
  }
  review(input: unknown): Promise<ReviewResult> {
    return this.call("review", input);
  }
  async ping(): Promise<void> {
    await this.call("ping");
  }
  migrate(): Promise<MigrationReport> {
    return this.call("migrate");
  }
  async close(): Promise<void> {
    this.socket.end();
    this.socket.destroy();
  }
}
