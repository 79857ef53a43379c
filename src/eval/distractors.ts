/**
 * Distractors for MemDaily banks: each trajectory's few messages (4–15) are mixed with messages
 * of other trajectories, as MemSim's own larger variants (MemDaily-100, -200) mix in background
 * messages. A bank of a dozen messages tells whether Chinese text is matched at all; with ~100,
 * most of them other people's events, items and places written the same way, it tells whether
 * the ranking picks the right one among many alike, as a store in use must.
 */
import { random } from "../bench/corpus.js";
import type { MemdailyMessage, MemdailyTrajectory } from "./memdaily.js";

/** Distractor mids: never a target's (MemDaily's mids are numbers). */
export const DISTRACTOR_MID_PREFIX = "distractor-";

/**
 * Each trajectory with `count` messages drawn from the other trajectories of `pool` (the same
 * message at most once per bank), each placed at a random position among its own. The draw is
 * seeded: the same data gives the same banks on every run and machine.
 */
export function withDistractors(
  trajectories: readonly MemdailyTrajectory[],
  pool: readonly MemdailyTrajectory[],
  count: number,
  seed = 1,
): MemdailyTrajectory[] {
  const next = random(seed);
  const candidates = pool.flatMap((trajectory) =>
    trajectory.messages.map((message) => ({ owner: trajectory, message })),
  );
  return trajectories.map((trajectory) => {
    const others = candidates.filter(({ owner }) => !sameTrajectory(owner, trajectory));
    const drawn = drawDistinct(others.length, Math.min(count, others.length), next);
    const messages: MemdailyMessage[] = [...trajectory.messages];
    drawn.forEach((index, k) => {
      const distractor = { ...others[index]!.message, mid: `${DISTRACTOR_MID_PREFIX}${k}` };
      messages.splice(Math.floor(next() * (messages.length + 1)), 0, distractor);
    });
    return { ...trajectory, messages };
  });
}

function sameTrajectory(a: MemdailyTrajectory, b: MemdailyTrajectory): boolean {
  return a.file === b.file && a.tid === b.tid;
}

/** `count` distinct indexes below `size` (a partial Fisher–Yates shuffle). */
function drawDistinct(size: number, count: number, next: () => number): number[] {
  const indexes = Array.from({ length: size }, (_, i) => i);
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(next() * (size - i));
    [indexes[i], indexes[j]] = [indexes[j]!, indexes[i]!];
  }
  return indexes.slice(0, count);
}
