/**
 * A MemoryApi that forwards every call to the process owning the embedded data directory.
 */

import { createConnection, type Socket } from "node:net";
import type { MemoryApi, MemoryOperation } from "../core/memory-api.js";
import { forwardingMemory } from "./forwarding.js";
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

export class RpcMemory {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closed = false;
  /** The owner's memory, every operation forwarded over the socket. */
  readonly memory: MemoryApi = forwardingMemory(
    (operation, args) => this.call(operation, args),
    () => this.close(),
  );

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

  private call(op: MemoryOperation, args: unknown[]): Promise<unknown> {
    if (this.closed) return Promise.reject(new OwnerGoneError());
    const id = this.nextId++;
    return new Promise<unknown>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Keep the process alive while an answer is awaited.
      this.socket.ref();
      this.socket.write(encodeMessage({ id, op, args }));
    }).finally(() => {
      if (this.pending.size === 0) this.socket.unref();
    });
  }

  async close(): Promise<void> {
    this.socket.end();
    this.socket.destroy();
  }
}
