/**
 * MCP over stdio: stdout is the protocol channel, so nothing else may write to it; logs go to
 * the logger (stderr).
 */
import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { MemoryApi } from "../core/memory-api.js";
import type { Logger } from "../core/ports.js";
import { createMcpServer } from "./server.js";

/** How long shutdown waits for requests already received to be answered. */
const DRAIN_MS = 5_000;

export interface StdioStreams {
  /** Defaults to process.stdin / process.stdout; tests pass their own. */
  stdin?: Readable;
  stdout?: Writable;
}

/**
 * Serves MCP on stdin/stdout until the client closes stdin, the transport closes, or SIGINT /
 * SIGTERM arrives; requests already received are answered first. The caller closes `memory`
 * after this resolves, so no request can outlive the store it writes to.
 */
export async function runStdioServer(
  memory: MemoryApi,
  logger: Logger,
  streams: StdioStreams = {},
): Promise<void> {
  const stdin = streams.stdin ?? process.stdin;
  const server = createMcpServer(memory, { logger });
  const stdout = streams.stdout ?? process.stdout;
  const transport = new StdioServerTransport(stdin, stdout);
  const pending = trackPending(transport);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  server.server.onerror = (error) => logger.warn(`mcp: ${error.message}`);

  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    logger.debug(`mcp stdio: ${why}; closing`);
    void pending
      .drained(DRAIN_MS)
      .then(() => server.close())
      .catch((error: unknown) => logger.warn(`mcp stdio: closing failed: ${String(error)}`));
  };
  const onEnd = () => stop("stdin closed");
  const onSignal = (signal: NodeJS.Signals) => stop(`received ${signal}`);
  // A client that died leaves a broken pipe: stop instead of crashing on EPIPE.
  const onOutputError = (error: Error) => stop(`stdout failed (${error.message})`);
  // The SDK's stdio transport does not watch for end of input; without this the process
  // would never learn that its client went away.
  stdin.once("end", onEnd);
  stdin.once("close", onEnd);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  stdout.on("error", onOutputError);
  try {
    await server.connect(transport);
    logger.info("mcp server ready on stdio");
    await closed;
  } finally {
    stdin.off("end", onEnd);
    stdin.off("close", onEnd);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    stdout.off("error", onOutputError);
  }
}

/** Counts requests received and not yet answered, by watching the transport both ways. */
function trackPending(transport: StdioServerTransport): { drained(maxMs: number): Promise<void> } {
  const open = new Set<string | number>();
  let wake: (() => void) | undefined;
  const start = transport.start.bind(transport);
  const send = transport.send.bind(transport);
  // The server sets `onmessage` during connect(), before start(): wrap it then.
  transport.start = async () => {
    const deliver = transport.onmessage;
    transport.onmessage = (message: JSONRPCMessage) => {
      if ("method" in message && "id" in message) open.add(message.id);
      deliver?.(message);
    };
    await start();
  };
  transport.send = async (message: JSONRPCMessage) => {
    await send(message);
    if (!("method" in message) && "id" in message && message.id !== undefined) {
      open.delete(message.id);
      if (open.size === 0) wake?.();
    }
  };
  return {
    drained(maxMs) {
      if (open.size === 0) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(resolve, maxMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    },
  };
}
