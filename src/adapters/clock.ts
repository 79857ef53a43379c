/** Clock adapters: the system clock, and one that stays where it is put. */
import type { Clock } from "../core/ports.js";

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stays where it is put: for tests and `--now`. */
export function fixedClock(at: Date): Clock & { set(at: Date): void } {
  let current = at;
  return {
    now: () => new Date(current.getTime()),
    set: (next: Date) => {
      current = next;
    },
  };
}
