// Plain timing for benchmarks: min and median of repeated runs after a warm-up, and
// ratio printing against a Dask figure when one is available.

export interface Timing {
  min: number;
  median: number;
  runs: number[];
}

/** Time `fn` `reps` times after one untimed warm-up; seconds. */
export async function time(
  fn: () => unknown | Promise<unknown>,
  reps = 3,
  warmup = true,
): Promise<Timing> {
  if (warmup) await fn();
  const runs: number[] = [];
  for (let i = 0; i < reps; i++) {
    globalThis.gc?.();
    const t0 = performance.now();
    await fn();
    runs.push((performance.now() - t0) / 1000);
  }
  const sorted = [...runs].sort((a, b) => a - b);
  return { min: sorted[0]!, median: sorted[Math.floor(sorted.length / 2)]!, runs };
}

/** One result line: tessera's figure, Dask's, and the ratio (lower is better for tessera). */
export function report(
  label: string,
  ours: number,
  unit: string,
  dask?: number,
  target?: string,
): void {
  const fmt = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 1 ? v.toFixed(2) : v.toPrecision(3));
  const parts = [`${label}: ${fmt(ours)} ${unit}`];
  if (dask !== undefined)
    parts.push(`dask ${fmt(dask)} ${unit}`, `ratio ${(ours / dask).toFixed(3)}`);
  else parts.push('dask: not installed');
  if (target) parts.push(`target ${target}`);
  console.log(parts.join(' | '));
}
