import { percentiles } from "../bench/stats.js";

/** Wall-clock times of calls, in milliseconds. */
export class LatencyRecorder {
  private readonly samples: number[] = [];

  async time<T>(call: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await call();
    } finally {
      this.samples.push(performance.now() - started);
    }
  }

  /** p50 and p99 in ms, rounded to 0.01 ms; 0 when nothing was timed. */
  summary(): { p50: number; p99: number } {
    if (this.samples.length === 0) return { p50: 0, p99: 0 };
    const { p50, p99 } = percentiles(this.samples);
    return { p50: Math.round(p50 * 100) / 100, p99: Math.round(p99 * 100) / 100 };
  }
}

export function secondsSince(startedMs: number): number {
  return Math.round((performance.now() - startedMs) / 100) / 10;
}
