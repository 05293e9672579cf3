// NaN-skipping reductions (NumPy's nansum … nanargmax): each is the plain reduction tree over
// the input with NaNs replaced by the operation's identity (a fused elementwise step), and a
// second tree counting the non-NaN elements where the result depends on it.

import { checkOptions, optionalBoolean } from '../array/check-options.ts';
import { isFloat } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import { formatTuple, formatValue } from '../chunking/format.ts';
import { withCallBackend } from '../dispatch/with-backend.ts';
import { ValueError } from '../errors.ts';
import { squeeze } from './axes.ts';
import { divide, multiply, sqrt, subtract } from './elementwise-arith.ts';
import { astype, equal, greater, isnan, notEqual, where } from './elementwise-logic.ts';
import { allNaNCheck } from './nan-check.ts';
import { normalizeSplitEvery, reduction, reductionAxes } from './reduction.ts';
import {
  type ArgReductionOptions,
  all,
  any,
  argmax,
  argmin,
  type MomentOptions,
  max,
  mean,
  min,
  prod,
  type ReductionOptions,
  std,
  sum,
  variance,
} from './reductions.ts';

/** Options checked under the caller's name; the inner reductions get normalized axes. */
function prepare(
  fn: string,
  x: ArrayLike,
  opts: ReductionOptions | ArgReductionOptions,
): { a: LazyArray; inner: ReductionOptions; axes: number[] } {
  const o = checkOptions(fn, opts);
  optionalBoolean(fn, 'keepdims', o.keepdims, false);
  const a = asLazy(x, fn);
  const axes = reductionAxes(fn, o.axis, a.ndim);
  normalizeSplitEvery(fn, o.splitEvery, a.ndim);
  return { a, axes, inner: { ...o, axis: axes } };
}

/** NaN replaced by `fill` (floats only: other dtypes hold no NaN). */
const fillNaN = (a: LazyArray, fill: number): LazyArray => where(isnan(a), fill, a);

/**
 * The number of non-NaN elements along the reduced axes, as float64. Written `a == a`, not
 * `!isnan(a)`: a shared isnan(a) layer would have two consumers and be written out instead
 * of fusing into each reduction; the cast is fused too (the reduction's `dtype` option casts
 * block by block, slower).
 */
const countValid = (a: LazyArray, inner: ReductionOptions): LazyArray =>
  sum(astype(equal(a, a), 'float64'), inner);

/** The sum of the non-NaN elements in float64. */
const validSum = (a: LazyArray, inner: ReductionOptions): LazyArray =>
  sum(astype(fillNaN(a, 0), 'float64'), inner);

/**
 * Sum over `axis` treating NaN as zero (NumPy's `nansum`); an all-NaN slice sums to 0.
 * Integer inputs are summed as by {@link sum}.
 * @example
 * await compute(nansum(fromArray([1, Number.NaN, 3]))); // 4
 */
export function nansum<X extends ArrayLike>(
  x: X,
  opts: ReductionOptions = {},
): LazyArray<KnownIn<[X]>> {
  const { a, inner } = prepare('nansum', x, opts);
  return sum(isFloat(a.dtype) ? fillNaN(a, 0) : a, inner) as LazyArray<KnownIn<[X]>>;
}

/**
 * Product over `axis` treating NaN as one (NumPy's `nanprod`).
 * @example
 * await compute(nanprod(fromArray([2, Number.NaN, 3]))); // 6
 */
export function nanprod<X extends ArrayLike>(
  x: X,
  opts: ReductionOptions = {},
): LazyArray<KnownIn<[X]>> {
  const { a, inner } = prepare('nanprod', x, opts);
  return prod(isFloat(a.dtype) ? fillNaN(a, 1) : a, inner) as LazyArray<KnownIn<[X]>>;
}

/**
 * Mean of the non-NaN elements over `axis` (NumPy's `nanmean`): one reduction tree of
 * per-element sums and counts of the non-NaN values (on devices without that kernel, the
 * NaN-free sum over the non-NaN count). An all-NaN slice gives NaN.
 * Floats keep their dtype (accumulating in float64); integers give float64.
 * @example
 * await compute(nanmean(fromArray([1, Number.NaN, 3]))); // 2
 */
export function nanmean<X extends ArrayLike>(
  x: X,
  opts: ReductionOptions = {},
): LazyArray<KnownIn<[X]>> {
  const { a, axes, inner } = prepare('nanmean', x, opts);
  if (!isFloat(a.dtype)) return mean(a, inner) as LazyArray<KnownIn<[X]>>;
  if (a.device === 'cpu' && a.dtype !== 'float16') {
    // one pass: a 'nanmean' reducer keeps per-element sums and counts up the tree
    const splitEvery = normalizeSplitEvery('nanmean', opts.splitEvery, a.ndim);
    const keepdims = opts.keepdims ?? false;
    const params = { op: 'nanmean', axes, dtype: a.dtype } as const;
    return withCallBackend('nanmean', opts.backend, () =>
      reduction({ fn: 'nanmean', x: a, axes, keepdims, splitEvery, dtype: a.dtype, params }),
    ) as LazyArray<KnownIn<[X]>>;
  }
  return astype(divide(validSum(a, inner), countValid(a, inner)), a.dtype) as LazyArray<
    KnownIn<[X]>
  >;
}

function nanMoments(fn: 'nanvar' | 'nanstd', x: ArrayLike, opts: MomentOptions): LazyArray {
  const { a, axes, inner } = prepare(fn, x, opts);
  const correction = opts.correction ?? 0;
  if (typeof correction !== 'number' || !(correction >= 0) || !Number.isFinite(correction)) {
    throw new ValueError(`${fn}: correction ${formatValue(correction)} must be a number >= 0`);
  }
  if (!isFloat(a.dtype)) return (fn === 'nanvar' ? variance : std)(a, { ...inner, correction });
  const keep = { ...inner, keepdims: true };
  const count = countValid(a, keep);
  const m = divide(validSum(a, keep), count);
  // a != a (NaN) rather than a third use of isnan(a): each expression fuses into its tree
  const d = where(notEqual(a, a), 0, subtract(astype(a, 'float64'), m));
  const m2 = sum(multiply(d, d), inner);
  const kept = inner.keepdims ? count : squeeze(count, { axis: axes });
  const dof = subtract(kept, correction);
  const v = where(greater(dof, 0), divide(m2, dof), Number.NaN);
  return astype(fn === 'nanstd' ? sqrt(v) : v, a.dtype);
}

/**
 * Variance of the non-NaN elements over `axis` (NumPy's `nanvar`), two-pass: the NaN-free
 * mean, then squared deviations from it. `correction` (NumPy's `ddof`) is subtracted from
 * each slice's non-NaN count; a slice with no degrees of freedom left gives NaN, as NumPy.
 * @example
 * await compute(nanvar(fromArray([1, Number.NaN, 3]))); // 1
 */
export function nanvar<X extends ArrayLike>(
  x: X,
  opts: MomentOptions = {},
): LazyArray<KnownIn<[X]>> {
  return nanMoments('nanvar', x, opts) as LazyArray<KnownIn<[X]>>;
}

/**
 * Standard deviation of the non-NaN elements over `axis` (the square root of {@link nanvar}).
 * @example
 * await compute(nanstd(fromArray([1, Number.NaN, 3]), { correction: 1 })); // 1.4142…
 */
export function nanstd<X extends ArrayLike>(
  x: X,
  opts: MomentOptions = {},
): LazyArray<KnownIn<[X]>> {
  return nanMoments('nanstd', x, opts) as LazyArray<KnownIn<[X]>>;
}

/** NumPy raises for nanmin/nanmax/nanarg* over zero elements, as for min/max. */
function checkNonEmpty(fn: string, a: LazyArray, axes: readonly number[], axis: unknown): void {
  const reduced = axes.some((ax) => a.shape[ax] === 0);
  const kept = a.shape.filter((_, ax) => !axes.includes(ax));
  if (reduced && !kept.includes(0)) {
    throw new ValueError(
      `${fn}: zero-size array reduced over axis ${formatValue(axis ?? null)} (shape ${formatTuple(a.shape)}) has no identity`,
    );
  }
}

function nanExtreme(fn: 'nanmin' | 'nanmax', x: ArrayLike, opts: ReductionOptions): LazyArray {
  const { a, axes, inner } = prepare(fn, x, opts);
  checkNonEmpty(fn, a, axes, opts.axis);
  const isMin = fn === 'nanmin';
  if (!isFloat(a.dtype)) return (isMin ? min : max)(a, inner);
  const r = (isMin ? min : max)(fillNaN(a, isMin ? Infinity : -Infinity), inner);
  return where(any(equal(a, a), inner), r, Number.NaN);
}

/**
 * Minimum over `axis` ignoring NaN (NumPy's `nanmin`); an all-NaN slice gives NaN (NumPy
 * also warns). Over zero elements it raises ValueError.
 * @example
 * await compute(nanmin(fromArray([3, Number.NaN, 1]))); // 1
 */
export function nanmin<X extends ArrayLike>(
  x: X,
  opts: ReductionOptions = {},
): LazyArray<KnownIn<[X]>> {
  return nanExtreme('nanmin', x, opts) as LazyArray<KnownIn<[X]>>;
}

/**
 * Maximum over `axis` ignoring NaN (NumPy's `nanmax`); an all-NaN slice gives NaN.
 * @example
 * await compute(nanmax(fromArray([3, Number.NaN, 1]))); // 3
 */
export function nanmax<X extends ArrayLike>(
  x: X,
  opts: ReductionOptions = {},
): LazyArray<KnownIn<[X]>> {
  return nanExtreme('nanmax', x, opts) as LazyArray<KnownIn<[X]>>;
}

function nanArg(fn: 'nanargmin' | 'nanargmax', x: ArrayLike, opts: ArgReductionOptions) {
  const o = checkOptions(fn, opts);
  if (Array.isArray(o.axis)) {
    throw new ValueError(`${fn}: axis ${formatValue(o.axis)} must be a single integer or null`);
  }
  const { a, axes } = prepare(fn, x, o);
  checkNonEmpty(fn, a, axes, o.axis);
  const isMin = fn === 'nanargmin';
  const arg = isMin ? argmin : argmax;
  if (!isFloat(a.dtype)) return arg(a, o);
  const index = arg(fillNaN(a, isMin ? Infinity : -Infinity), o);
  const over = { axis: axes, keepdims: o.keepdims ?? false, splitEvery: o.splitEvery };
  return allNaNCheck(fn, index, all(notEqual(a, a), over));
}

/**
 * Index of the minimum along `axis` ignoring NaN (NumPy's `nanargmin`: NaN counts as
 * +Infinity), or the flat index when no axis is given. NumPy raises for an all-NaN slice;
 * here that is known only from the data, so the compute fails with a TaskError whose cause
 * is a ValueError "nanargmin: All-NaN slice encountered".
 * @example
 * await compute(nanargmin(fromArray([3, Number.NaN, 1]))); // 2
 */
export function nanargmin<X extends ArrayLike>(
  x: X,
  opts: ArgReductionOptions = {},
): LazyArray<KnownIn<[X]>> {
  return nanArg('nanargmin', x, opts) as LazyArray<KnownIn<[X]>>;
}

/**
 * Index of the maximum along `axis` ignoring NaN (NumPy's `nanargmax`); an all-NaN slice
 * fails the compute with a ValueError cause, as {@link nanargmin}.
 * @example
 * await compute(nanargmax(fromArray([3, Number.NaN, 1]))); // 0
 */
export function nanargmax<X extends ArrayLike>(
  x: X,
  opts: ArgReductionOptions = {},
): LazyArray<KnownIn<[X]>> {
  return nanArg('nanargmax', x, opts) as LazyArray<KnownIn<[X]>>;
}
