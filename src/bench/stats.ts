export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
}

export function percentiles(samples: readonly number[]): Percentiles {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => {
    if (sorted.length === 0) return Number.NaN;
    const value = sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
    return Math.round(value * 1000) / 1000;
  };
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}
