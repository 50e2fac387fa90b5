/** Nearest-rank percentiles of a sample, in the sample's unit. */
export function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
  return { n: sorted.length, p50: at(50), p95: at(95), p99: at(99), mean, max: sorted.at(-1)! };
}

export type Percentiles = ReturnType<typeof percentiles>;
