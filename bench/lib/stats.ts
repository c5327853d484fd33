// Small order statistics over samples (milliseconds or anything else).

export function percentile(samples: number[], p: number): number {
  if (!samples.length) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export const median = (samples: number[]): number => percentile(samples, 50);

export function summary(samples: number[]) {
  const round = (v: number) => Math.round(v * 1000) / 1000;
  return {
    n: samples.length,
    min: round(Math.min(...samples)),
    p50: round(percentile(samples, 50)),
    p90: round(percentile(samples, 90)),
    p99: round(percentile(samples, 99)),
    max: round(Math.max(...samples)),
  };
}

/** The median of per-run figures with their spread (for Row.spread). */
export function medianOfRuns(runs: number[]): { value: number; spread: { min: number; max: number; runs: number } } {
  return { value: median(runs), spread: { min: Math.min(...runs), max: Math.max(...runs), runs: runs.length } };
}

/** `samples` cut into `count` consecutive runs of (nearly) equal length. */
export function splitRuns<T>(samples: T[], count: number): T[][] {
  const size = Math.ceil(samples.length / count);
  return Array.from({ length: count }, (_, i) => samples.slice(i * size, (i + 1) * size)).filter((run) => run.length);
}
