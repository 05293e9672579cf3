// average (NumPy's numpy.average): the weighted mean over axes as two reduction trees, the
// weighted sum and the sum of the weights, with 1-d weights broadcast along the axis.

import { checkOptions, optionalBoolean } from '../array/check-options.ts';
import { type DType, isFloat, promoteTypes } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import { isLazyArray, type LazyArray } from '../array/lazy-array.ts';
import { NDArray } from '../array/ndarray.ts';
import { formatTuple } from '../chunking/format.ts';
import { ShapeError, ValueError } from '../errors.ts';
import { broadcastTo, expandDims } from './axes.ts';
import { divide, multiply } from './elementwise-arith.ts';
import { astype } from './elementwise-logic.ts';
import { rechunk } from './rechunk.ts';
import { reductionAxes } from './reduction.ts';
import { mean, sum } from './reductions.ts';

/** Options of {@link average}. */
export interface AverageOptions {
  /** Axes to average over (every axis by default). */
  axis?: number | readonly number[] | null;
  /** Weights: the shape of x, or 1-d along the one `axis` (NumPy's rule). */
  weights?: ArrayLike;
  /** Also return the sum of the weights (broadcast to the result's shape). */
  returned?: boolean;
  /** Keep reduced axes as size 1. */
  keepdims?: boolean;
}

/** The values of weights given as data (not lazy): their sum is known at build time. */
function eagerSum(w: ArrayLike): number | undefined {
  if (isLazyArray(w)) return undefined;
  if (w instanceof NDArray) return Array.from(w.data, Number).reduce((s, v) => s + v, 0);
  if (ArrayBuffer.isView(w)) return Array.from(w, Number).reduce((s, v) => s + v, 0);
  return (w as unknown[]).flat(Infinity as 1).reduce<number>((s, v) => s + Number(v), 0);
}

/** Weights shaped (and chunked) as `a`: the same shape, or 1-d along a single axis. */
function alignWeights(a: LazyArray, w: LazyArray, axes: readonly number[]): LazyArray {
  const same = w.ndim === a.ndim && w.shape.every((n, ax) => n === a.shape[ax]);
  if (same) return rechunk(w, a.chunks.map((c) => [...c]) as number[][]);
  if (w.ndim !== 1) {
    throw new ShapeError(
      `average: weights of shape ${formatTuple(w.shape)} differ from x's ${formatTuple(a.shape)} and are not 1-d`,
    );
  }
  if (axes.length !== 1) {
    throw new ValueError('average: 1-d weights need a single axis to lie along');
  }
  const axis = axes[0]!;
  if (w.shape[0] !== a.shape[axis]) {
    throw new ShapeError(
      `average: weights of length ${w.shape[0]} differ from x's axis ${axis} (${a.shape[axis]})`,
    );
  }
  const others = a.shape.map((_, ax) => ax).filter((ax) => ax !== axis);
  const line = rechunk(w, [a.chunks[axis]!.map(Number)]);
  const shaped = others.length === 0 ? line : expandDims(line, { axis: others });
  return broadcastTo(shaped, a.shape as number[]);
}

/**
 * The weighted average over `axis` (NumPy's `average`): Σ x·w / Σ w, both sums chunked
 * reduction trees. Without weights it is {@link mean}. Weights have x's shape, or are 1-d
 * along the single `axis`. Weights given as data (1-d, or over every axis) that sum to zero raise ValueError at build
 * time (NumPy's ZeroDivisionError); lazy weights that do give NaN/±Infinity. Integers give
 * float64; floats promote with the weights' dtype. With `returned`, `[average, sumOfWeights]`.
 * @example
 * await compute(average(fromArray([1, 2, 3, 4]), { weights: [4, 3, 2, 1] })); // 2
 */
export function average<X extends ArrayLike>(
  x: X,
  opts?: AverageOptions & { returned?: false },
): LazyArray<KnownIn<[X]>>;
export function average<X extends ArrayLike>(
  x: X,
  opts: AverageOptions & { returned: true },
): [LazyArray<KnownIn<[X]>>, LazyArray<KnownIn<[X]>>];
export function average(
  x: ArrayLike,
  opts: AverageOptions = {},
): LazyArray | [LazyArray, LazyArray] {
  const fn = 'average';
  const o = checkOptions(fn, opts);
  const keepdims = optionalBoolean(fn, 'keepdims', o.keepdims, false);
  const returned = optionalBoolean(fn, 'returned', o.returned, false);
  const a = asLazy(x, fn);
  const axes = reductionAxes(fn, o.axis, a.ndim);
  const over = { axis: axes, keepdims };
  if (o.weights === undefined) {
    const avg = mean(a, over);
    if (!returned) return avg;
    const count = axes.reduce((n, ax) => n * (a.shape[ax] ?? Number.NaN), 1);
    return [avg, broadcastTo(astype(asLazy(count), avg.dtype), avg.shape as number[])];
  }
  const total = eagerSum(o.weights);
  const w = asLazy(o.weights, fn);
  const aligned = alignWeights(a, w, axes);
  // every slice uses all the weights: 1-d ones, or one slice over every axis
  const whole = w.ndim === 1 || axes.length === a.ndim;
  if (whole && total === 0) {
    throw new ValueError("average: weights sum to zero, can't be normalized");
  }
  const dtype: DType = promoteTypes(isFloat(a.dtype) ? a.dtype : 'float64', w.dtype);
  const wd = astype(aligned, isFloat(dtype) ? dtype : 'float64');
  const scl = sum(wd, over);
  const avg = divide(sum(multiply(astype(a, wd.dtype), wd), over), scl);
  return returned ? [avg, scl] : avg;
}
