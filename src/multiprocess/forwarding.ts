/**
 * A MemoryApi whose every operation is one call of `send` with the operation's name and
 * arguments: how a client of another process, or of whichever process owns the data, is built.
 * The operations are the registry's, so a new one is forwarded without being listed here.
 */
import type { MemoryApi, MemoryOperation } from "../core/memory-api.js";
import { OPERATION_NAMES } from "../operations/index.js";

/** The operation names a remote client may call. */
export const FORWARDED_OPERATIONS: ReadonlySet<string> = new Set(OPERATION_NAMES);

export function forwardingMemory(
  send: (operation: MemoryOperation, args: unknown[]) => Promise<unknown>,
  close: () => Promise<void>,
): MemoryApi {
  const forwarders = Object.fromEntries(
    OPERATION_NAMES.map((operation) => [
      operation,
      (...args: unknown[]) => {
        // Optional arguments left out stay out (JSON would turn them into null).
        while (args.length > 0 && args[args.length - 1] === undefined) args.pop();
        return send(operation, args);
      },
    ]),
  );
  return { ...forwarders, close } as unknown as MemoryApi;
}
