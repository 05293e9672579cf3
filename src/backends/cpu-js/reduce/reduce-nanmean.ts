// nanmean in one pass: per output element the sum and the count of the non-NaN values,
// merged by addition up the tree and divided at the end (an all-NaN slice gives 0/0 = NaN).

import { allocate, type DType, numberData } from '../../../array/dtype.ts';
import { NDArray } from '../../../array/ndarray.ts';
import type { Chunk } from '../../../kernels/types.ts';
import { reducedShape } from './reduce-monoid.ts';
import { type RunOp, reduceRuns, runLayout } from './reduce-runs.ts';

/** Params of the nanmean steps; intermediates are [sum, count], float64, keepdims shape. */
export interface NanMeanParams {
  readonly op: 'nanmean';
  readonly axes: readonly number[];
  readonly dtype: DType;
}

/** Sum into acc and count into aux, skipping NaN. */
const nanSumCountRuns: RunOp = {
  foldRows(src, s, ss, rows, n, acc, o, os, aux) {
    for (let g = 0; g < rows; g++, s += ss, o += os) {
      let a = 0;
      let c = 0;
      for (let i = s; i < s + n; i++) {
        const v = src[i]!;
        if (!Number.isNaN(v)) {
          a += v;
          c++;
        }
      }
      acc[o] = acc[o]! + a;
      aux![o] = aux![o]! + c;
    }
  },
  accumulateRows(src, s, ss, rows, n, acc, o, os, aux) {
    for (let g = 0; g < rows; g++, s += ss, o += os) {
      for (let i = 0; i < n; i++) {
        const v = src[s + i]!;
        if (!Number.isNaN(v)) {
          acc[o + i] = acc[o + i]! + v;
          aux![o + i] = aux![o + i]! + 1;
        }
      }
    }
  },
};

/** One block to [sum, count] of its non-NaN values. */
export function nanMeanPartial(x: NDArray, p: NanMeanParams): Chunk {
  const layout = runLayout(x.shape, p.axes);
  const sum = allocate('float64', layout.outSize) as Float64Array;
  const count = allocate('float64', layout.outSize) as Float64Array;
  reduceRuns(nanSumCountRuns, layout, numberData(x.data, p.op), sum, count);
  const { shape } = reducedShape(x.shape, p.axes);
  return [new NDArray(sum, shape, 'float64'), new NDArray(count, shape, 'float64')];
}

/** Add intermediates in the order given. */
export function nanMeanMerge(parts: readonly Chunk[]): Chunk {
  if (parts.length === 1) return parts[0]!;
  const [s0, c0] = parts[0] as [NDArray, NDArray];
  const sum = allocate('float64', s0.size) as Float64Array;
  const count = allocate('float64', s0.size) as Float64Array;
  sum.set(numberData(s0.data, 'nanmean'));
  count.set(numberData(c0.data, 'nanmean'));
  for (let k = 1; k < parts.length; k++) {
    const [s, c] = parts[k] as [NDArray, NDArray];
    const sd = numberData(s.data, 'nanmean');
    const cd = numberData(c.data, 'nanmean');
    for (let i = 0; i < sum.length; i++) {
      sum[i] = sum[i]! + sd[i]!;
      count[i] = count[i]! + cd[i]!;
    }
  }
  return [new NDArray(sum, s0.shape, 'float64'), new NDArray(count, s0.shape, 'float64')];
}

/** sum / count in the output dtype. */
export function nanMeanFinalize(part: Chunk, p: NanMeanParams): NDArray {
  const [s, c] = part as [NDArray, NDArray];
  const out = numberData(allocate(p.dtype, s.size), p.op);
  const sum = numberData(s.data, p.op);
  const count = numberData(c.data, p.op);
  for (let i = 0; i < s.size; i++) out[i] = sum[i]! / count[i]!;
  return new NDArray(out, s.shape, p.dtype);
}
