import { performance } from 'node:perf_hooks';

export interface RunStats {
  ops: number;
  elapsedMs: number;
  perSecond: number;
  p50Ms: number;
  p95Ms: number;
}

/** Nearest-rank percentile of ascending-sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/**
 * Runs `op(0..n-1)` from `writers` concurrent loops; each loop takes the next index when its previous
 * operation finished, so at most `writers` operations are in flight. Latency is per operation.
 */
export async function runWriters(n: number, writers: number, op: (i: number) => Promise<void>): Promise<RunStats> {
  const latencies = new Array<number>(n);
  let next = 0;
  const loop = async () => {
    for (let i = next++; i < n; i = next++) {
      const t0 = performance.now();
      await op(i);
      latencies[i] = performance.now() - t0;
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: writers }, loop));
  const elapsedMs = performance.now() - start;
  latencies.sort((a, b) => a - b);
  return {
    ops: n,
    elapsedMs,
    perSecond: (n / elapsedMs) * 1000,
    p50Ms: percentile(latencies, 50),
    p95Ms: percentile(latencies, 95),
  };
}

export async function timed<T>(work: () => Promise<T>): Promise<{ result: T; elapsedMs: number }> {
  const start = performance.now();
  const result = await work();
  return { result, elapsedMs: performance.now() - start };
}
