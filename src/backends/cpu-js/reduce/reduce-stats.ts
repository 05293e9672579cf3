// Variance and standard deviation: per-block two-pass moments merged pairwise with Chan et
// al.'s parallel algorithm (1979), so large offsets (1e8 + noise) keep full precision.

import { allocate, type DType, numberData } from '../../../array/dtype.ts';
import { NDArray } from '../../../array/ndarray.ts';
import type { Chunk } from '../../../kernels/types.ts';
import { convertBlock } from '../layout/layout.ts';
import { sqdevRuns, sumRuns } from './reduce-loops.ts';
import { reducedShape, scalarBlock } from './reduce-monoid.ts';
import { reduceRuns, runLayout } from './reduce-runs.ts';

/** Params of the var/std steps; intermediates are [count (0-d), mean, M2] in float64. */
export interface MomentParams {
  readonly op: 'var';
  readonly axes: readonly number[];
  /** Degrees of freedom subtracted from the count (the Array API's `correction`). */
  readonly correction: number;
  /** Return the square root (std). */
  readonly sqrt: boolean;
  readonly dtype: DType;
  /** Cast each block to this dtype first (float64 for int64 and uint64, as NumPy computes). */
  readonly castTo?: DType;
}

/** Moments of one block: the mean first, then squared deviations from it. */
export function momentPartial(block: NDArray, p: MomentParams): Chunk {
  const x = p.castTo === undefined ? block : convertBlock(block, p.castTo);
  const layout = runLayout(x.shape, p.axes);
  const { shape, count } = reducedShape(x.shape, p.axes);
  const src = numberData(x.data, 'var');
  const mean = allocate('float64', layout.outSize) as Float64Array;
  reduceRuns(sumRuns, layout, src, mean);
  if (count > 0) for (let i = 0; i < mean.length; i++) mean[i] = mean[i]! / count;
  const m2 = allocate('float64', layout.outSize) as Float64Array;
  reduceRuns(sqdevRuns, layout, src, m2, mean);
  return [
    scalarBlock(count),
    new NDArray(mean, shape, 'float64'),
    new NDArray(m2, shape, 'float64'),
  ];
}

/** Merge moments in order: n = na + nb, mean += δ·nb/n, M2 = M2a + M2b + δ²·na·nb/n. */
export function momentMerge(parts: readonly Chunk[]): Chunk {
  if (parts.length === 1) return parts[0]!;
  const [c0, m0, s0] = parts[0] as [NDArray, NDArray, NDArray];
  const mean = allocate('float64', m0.size) as Float64Array;
  const m2 = allocate('float64', m0.size) as Float64Array;
  mean.set(numberData(m0.data, 'var'));
  m2.set(numberData(s0.data, 'var'));
  let na = numberData(c0.data, 'var')[0]!;
  for (let k = 1; k < parts.length; k++) {
    const [cb, mb, sb] = parts[k] as [NDArray, NDArray, NDArray];
    const nb = numberData(cb.data, 'var')[0]!;
    if (nb === 0) continue;
    const n = na + nb;
    const wb = nb / n;
    const wab = (na * nb) / n;
    const mbd = numberData(mb.data, 'var');
    const sbd = numberData(sb.data, 'var');
    for (let i = 0; i < mean.length; i++) {
      const delta = mbd[i]! - mean[i]!;
      mean[i] = mean[i]! + delta * wb;
      m2[i] = m2[i]! + sbd[i]! + delta * delta * wab;
    }
    na = n;
  }
  return [
    scalarBlock(na),
    new NDArray(mean, m0.shape, 'float64'),
    new NDArray(m2, m0.shape, 'float64'),
  ];
}

/** var = M2 / max(n − correction, 0) (NaN or Infinity past it, as NumPy); std its root. */
export function momentFinalize(part: Chunk, p: MomentParams): NDArray {
  const [c, , s] = part as [NDArray, NDArray, NDArray];
  const denom = Math.max(numberData(c.data, 'var')[0]! - p.correction, 0);
  const out = numberData(allocate(p.dtype, s.size), 'var');
  const m2 = numberData(s.data, 'var');
  for (let i = 0; i < s.size; i++) {
    const v = m2[i]! / denom;
    out[i] = p.sqrt ? Math.sqrt(v) : v;
  }
  return new NDArray(out, s.shape, p.dtype);
}
