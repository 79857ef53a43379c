/**
 * Notices when a process that owns a data directory for others has had no call for a while,
 * so a keep-warm owner (cli/keep-warm) can give the directory back instead of holding the
 * database and the model in memory for good. A call in flight is never idle, however long.
 */
import type { MemoryApi, MemoryOperation } from "../core/memory-api.js";
import { forwardingMemory } from "./forwarding.js";

export interface IdleWatch {
  /** The same memory, with every call counted as activity. */
  wrap(memory: MemoryApi): MemoryApi;
  /**
   * Resolves once no call has run for the idle time, counted from the last one's end; never
   * when that time is 0.
   */
  readonly idle: Promise<void>;
}

export function idleWatch(idleMs: number): IdleWatch {
  let inFlight = 0;
  let timer: NodeJS.Timeout | undefined;
  let fire!: () => void;
  const idle = new Promise<void>((resolve) => {
    fire = resolve;
  });
  // Re-armed at the end of every call; a call in flight holds it off.
  const arm = () => {
    clearTimeout(timer);
    if (inFlight === 0 && idleMs > 0) timer = setTimeout(fire, idleMs);
  };
  arm();
  return {
    idle,
    wrap: (memory) =>
      forwardingMemory(
        async (operation: MemoryOperation, args: unknown[]) => {
          inFlight++;
          clearTimeout(timer);
          try {
            const call = memory[operation] as (...a: unknown[]) => Promise<unknown>;
            return await call.apply(memory, args);
          } finally {
            inFlight--;
            arm();
          }
        },
        () => {
          clearTimeout(timer);
          return memory.close();
        },
      ),
  };
}
