/**
 * The owner of an embedded data directory serves its memory to other hindsight processes on
 * a socket file inside the directory, so only users who may read the data can connect.
 */
import { rm } from "node:fs/promises";
import { createServer, type Socket } from "node:net";
import type { MemoryApi } from "../core/memory-api.js";
import type { Logger } from "../core/ports.js";
import { FORWARDED_OPERATIONS } from "./forwarding.js";
import {
  encodeMessage,
  lineReader,
  PROTOCOL_VERSION,
  parseMessage,
  type Request,
  type Response,
  toWireError,
} from "./protocol.js";

export interface RpcServer {
  /** Stops accepting, lets requests in flight finish, then disconnects every client. */
  close(): Promise<void>;
}

function isRequest(message: unknown): message is Request {
  const request = message as Partial<Request>;
  return (
    typeof request?.id === "number" &&
    typeof request.op === "string" &&
    FORWARDED_OPERATIONS.has(request.op) &&
    Array.isArray(request.args)
  );
}

export async function serveMemory(
  socketPath: string,
  memory: MemoryApi,
  logger: Logger,
): Promise<RpcServer> {
  const sockets = new Set<Socket>();
  const inFlight = new Set<Promise<unknown>>();

  const handle = (socket: Socket, line: string) => {
    let message: unknown;
    try {
      message = parseMessage(line);
    } catch {
      socket.destroy();
      return;
    }
    if (!isRequest(message)) {
      logger.warn("ignoring a malformed request on the data directory socket");
      return;
    }
    const { id, op, args } = message;
    const call = (memory[op] as (...params: unknown[]) => Promise<unknown>).apply(memory, args);
    const reply = call.then(
      (result): Response => ({ id, ok: true, result: result ?? null }),
      (error: unknown): Response => ({ id, ok: false, error: toWireError(error) }),
    );
    const done = reply.then((response) => {
      if (!socket.destroyed) socket.write(encodeMessage(response));
    });
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  };

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    socket.write(encodeMessage({ hindsight: PROTOCOL_VERSION, pid: process.pid }));
    socket.on(
      "data",
      lineReader((line) => handle(socket, line)),
    );
  });
  server.unref();
  // Only the lock holder gets here, so a socket file left behind is stale.
  await rm(socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => {
      server.off("error", reject);
      resolve();
    });
  });

  return {
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.allSettled([...inFlight]);
      for (const socket of sockets) socket.end();
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
