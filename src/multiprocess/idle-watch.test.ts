import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { MemoryApi } from "../core/memory-api.js";
import { idleWatch } from "./idle-watch.js";

/** A memory whose `stats` answers when the test says so. */
function slowMemory() {
  let answer!: () => void;
  const memory = {
    stats: () =>
      new Promise((resolve) => {
        answer = () => resolve({ episodic: 1 });
      }),
    close: vi.fn(async () => undefined),
  } as unknown as MemoryApi;
  return { memory, answer: () => answer() };
}

describe("idleWatch", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const settled = async (promise: Promise<unknown>) => {
    let done = false;
    void promise.then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    return done;
  };

  it("is idle once no call has run for the idle time, counted from the last call's end", async () => {
    const watch = idleWatch(1000);
    const { memory, answer } = slowMemory();
    const wrapped = watch.wrap(memory);
    await vi.advanceTimersByTimeAsync(600);
    const call = wrapped.stats();
    // A call in flight is never idle, however long it takes.
    await vi.advanceTimersByTimeAsync(5000);
    expect(await settled(watch.idle)).toBe(false);
    answer();
    expect(await call).toEqual({ episodic: 1 });
    await vi.advanceTimersByTimeAsync(999);
    expect(await settled(watch.idle)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(watch.idle)).toBe(true);
  });

  it("is idle after the idle time when nobody calls at all", async () => {
    const watch = idleWatch(1000);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await settled(watch.idle)).toBe(true);
  });

  it("never turns idle with an idle time of 0", async () => {
    const watch = idleWatch(0);
    await vi.advanceTimersByTimeAsync(10 * 24 * 3600 * 1000);
    expect(await settled(watch.idle)).toBe(false);
  });

  it("passes calls and errors through, and closes what it wraps", async () => {
    const boom = new Error("no");
    const memory = {
      get: vi.fn(async (id: string) => ({ id })),
      stats: async () => {
        throw boom;
      },
      close: vi.fn(async () => undefined),
    } as unknown as MemoryApi;
    const wrapped = idleWatch(1000).wrap(memory);
    expect(await wrapped.get("m1")).toEqual({ id: "m1" });
    await expect(wrapped.stats()).rejects.toBe(boom);
    await wrapped.close();
    expect(memory.close).toHaveBeenCalledOnce();
  });
});
