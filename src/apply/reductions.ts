// The public reductions: sum prod mean min max std var argmin argmax any all.
// Each validates its options, picks dtypes and kernel params, and builds a reduction tree.

import { checkOptions, optionalBoolean } from '../array/check-options.ts';
import {
  checkDType,
  type DType,
  isBigDType,
  isComplex,
  isFloat,
  sumDType,
} from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import type { MonoidOp } from '../backends/cpu-js/reduce/reduce-monoid.ts';
import { chunkOffsets } from '../chunking/blocks.ts';
import { formatTuple, formatValue } from '../chunking/format.ts';
import { withCallBackend } from '../dispatch/with-backend.ts';
import { ChunkError, DTypeError, ValueError } from '../errors.ts';
import { deviceArgReduction, deviceMoments } from './device-reductions.ts';
import { reduceViaFloat32, widenFloat16 } from './float16-widen.ts';
import {
  normalizeSplitEvery,
  type ReductionSpec,
  reduction,
  reductionAxes,
  type SplitEvery,
} from './reduction.ts';

/** Options of every reduction. */
export interface ReductionOptions {
  /** Axes to reduce (negative count from the end); every axis by default. */
  axis?: number | readonly number[] | null;
  /** Keep reduced axes as size 1. */
  keepdims?: boolean;
  /** Tree fan-in per reduced axis (default `config.splitEvery`). */
  splitEvery?: SplitEvery;
  /** Run on this backend or fail (explicit: no silent fallback). */
  backend?: string;
}

/** sum / prod / mean: `dtype` casts each element, then accumulates (the Array API's meaning). */
export interface DTypeReductionOptions extends ReductionOptions {
  dtype?: DType;
}

/** std / var: `correction` degrees of freedom (0: population; 1: sample). */
export interface MomentOptions extends ReductionOptions {
  correction?: number;
}

/** argmin / argmax: one axis, or none for a flat index over the whole array. */
export interface ArgReductionOptions {
  axis?: number | null;
  keepdims?: boolean;
  splitEvery?: SplitEvery;
  backend?: string;
}

/** Product of known sizes; 0 when any is 0, null when unknown and none is 0. */
function knownProduct(sizes: readonly (number | null)[]): number | null {
  if (sizes.includes(0)) return 0;
  return sizes.includes(null) ? null : (sizes as number[]).reduce((a, b) => a * b, 1);
}

/** NumPy raises for a reduction without identity over zero elements (when output is not empty). */
/** The reduction tree of `fn` over `axes` of `a`, with the caller's keepdims and splitEvery. */
function reduceOver(
  fn: string,
  a: LazyArray,
  axes: readonly number[],
  opts: ReductionOptions,
  step: Pick<ReductionSpec, 'dtype' | 'params' | 'partialParams'>,
): LazyArray {
  const splitEvery = normalizeSplitEvery(fn, opts.splitEvery, a.ndim);
  const keepdims = opts.keepdims ?? false;
  return withCallBackend(fn, opts.backend, () =>
    reduction({ fn, x: a, axes, keepdims, splitEvery, ...step }),
  );
}

function checkNonEmpty(fn: string, x: LazyArray, axes: readonly number[], axis: unknown): void {
  const shape = x.shape;
  const reduced = knownProduct(axes.map((ax) => shape[ax]!));
  const kept = knownProduct(shape.filter((_, ax) => !axes.includes(ax)));
  if (reduced === 0 && kept !== 0) {
    throw new ValueError(
      `${fn}: zero-size array reduced over axis ${formatValue(axis ?? null)} (shape ${formatTuple(shape)}) has no identity`,
    );
  }
}

/** The options object and its keepdims flag, checked before the input is looked at. */
function checkReductionOptions(fn: string, opts: unknown): void {
  const o = checkOptions(fn, opts as ReductionOptions | undefined);
  optionalBoolean(fn, 'keepdims', o.keepdims, false);
}

function monoidReduction(
  fn: string,
  op: MonoidOp,
  x: ArrayLike,
  opts: DTypeReductionOptions,
  dtype: (inDtype: DType, given: DType | undefined) => DType,
): LazyArray {
  checkReductionOptions(fn, opts);
  const a = asLazy(x, fn);
  const axes = reductionAxes(fn, opts.axis, a.ndim);
  const given = opts.dtype === undefined ? undefined : checkDType(fn, opts.dtype);
  const out = dtype(a.dtype, given);
  const half = reduceViaFloat32(a, given, out, (w, g) =>
    monoidReduction(fn, op, w, { ...opts, dtype: g }, dtype),
  );
  if (half !== undefined) return half;
  if (op === 'min' || op === 'max') checkNonEmpty(fn, a, axes, opts.axis);
  // integer products wrap modulo 2^64 as NumPy's: the block is cast to int64/uint64 first
  // (sums need no cast: their float64 partials are exact below 2^53)
  const castTo =
    given !== undefined && given !== a.dtype
      ? given
      : op === 'prod' && isBigDType(out) && out !== a.dtype
        ? out
        : undefined;
  return reduceOver(fn, a, axes, opts, {
    dtype: out,
    params: { op, axes, dtype: out, ...(castTo ? { castTo } : {}) },
  });
}

/**
 * Sum over `axis` (every axis by default). Integers and bool sum to int64 (uint64 if
 * unsigned), as the Array API says, modulo 2^64 as NumPy; floats keep their dtype; float32
 * accumulates in float64.
 * @example
 * await compute(sum(fromArray([[1, 2], [3, 4]]), { axis: 0 })); // [4, 6]
 */
export function sum<X extends ArrayLike>(
  x: X,
  opts: DTypeReductionOptions = {},
): LazyArray<KnownIn<[X]>> {
  return monoidReduction('sum', 'sum', x, opts, (d, g) => g ?? sumDType(d)) as LazyArray<
    KnownIn<[X]>
  >;
}

/**
 * Product over `axis`. Integers multiply in int64 (uint64 if unsigned), wrapping modulo
 * 2^64 as NumPy does.
 * @example
 * await compute(prod(fromArray([1, 2, 3, 4]))); // 24
 */
export function prod<X extends ArrayLike>(
  x: X,
  opts: DTypeReductionOptions = {},
): LazyArray<KnownIn<[X]>> {
  return monoidReduction('prod', 'prod', x, opts, (d, g) => g ?? sumDType(d)) as LazyArray<
    KnownIn<[X]>
  >;
}

/**
 * Arithmetic mean over `axis`; integers give float64. The mean of nothing is NaN.
 * @example
 * await compute(mean(fromArray([1, 2, 3, 4]))); // 2.5
 */
export function mean<X extends ArrayLike>(
  x: X,
  opts: DTypeReductionOptions = {},
): LazyArray<KnownIn<[X]>> {
  return monoidReduction('mean', 'mean', x, opts, (d, g) => {
    if (g !== undefined && !isFloat(g) && !isComplex(g)) {
      throw new DTypeError(`mean: dtype '${g}' must be a floating or complex dtype`);
    }
    return g ?? (isFloat(d) || isComplex(d) ? d : 'float64');
  }) as LazyArray<KnownIn<[X]>>;
}

/**
 * Minimum over `axis`; NaN propagates. Over zero elements it raises ValueError (NumPy).
 * @example
 * await compute(min(fromArray([3, 1, 2]))); // 1
 */
export function min<X extends ArrayLike>(
  x: X,
  opts: ReductionOptions = {},
): LazyArray<KnownIn<[X]>> {
  return monoidReduction(
    'min',
    'min',
    x,
    { ...checkOptions('min', opts), dtype: undefined },
    (d) => d,
  ) as LazyArray<KnownIn<[X]>>;
}

/**
 * Maximum over `axis`; NaN propagates. Over zero elements it raises ValueError (NumPy).
 * @example
 * await compute(max(fromArray([3, 1, 2]))); // 3
 */
export function max<X extends ArrayLike>(
  x: X,
  opts: ReductionOptions = {},
): LazyArray<KnownIn<[X]>> {
  return monoidReduction(
    'max',
    'max',
    x,
    { ...checkOptions('max', opts), dtype: undefined },
    (d) => d,
  ) as LazyArray<KnownIn<[X]>>;
}

/**
 * Whether any element along `axis` is true (nonzero; NaN counts as true).
 * @example
 * await compute(any(fromArray([0, 0, 1]))); // true
 */
export function any<X extends ArrayLike>(
  x: X,
  opts: ReductionOptions = {},
): LazyArray<KnownIn<[X]>> {
  return monoidReduction(
    'any',
    'any',
    x,
    { ...checkOptions('any', opts), dtype: undefined },
    () => 'bool',
  ) as LazyArray<KnownIn<[X]>>;
}

/**
 * Whether every element along `axis` is true (nonzero).
 * @example
 * await compute(all(fromArray([1, 2, 0]))); // false
 */
export function all<X extends ArrayLike>(
  x: X,
  opts: ReductionOptions = {},
): LazyArray<KnownIn<[X]>> {
  return monoidReduction(
    'all',
    'all',
    x,
    { ...checkOptions('all', opts), dtype: undefined },
    () => 'bool',
  ) as LazyArray<KnownIn<[X]>>;
}

function moments(fn: 'var' | 'std', x: ArrayLike, opts: MomentOptions): LazyArray {
  checkReductionOptions(fn, opts);
  const a = asLazy(x, fn);
  const axes = reductionAxes(fn, opts.axis, a.ndim);
  const correction = opts.correction ?? 0;
  if (typeof correction !== 'number' || !(correction >= 0) || !Number.isFinite(correction)) {
    throw new ValueError(`${fn}: correction ${formatValue(correction)} must be a number >= 0`);
  }
  const dtype = isFloat(a.dtype) ? a.dtype : 'float64';
  const half = reduceViaFloat32(a, undefined, dtype, (w) => moments(fn, w, opts));
  if (half !== undefined) return half;
  if (a.device !== 'cpu') return deviceMoments(fn, a, axes, correction, opts);
  // int64 and uint64 blocks are cast to float64 first, as NumPy computes their moments
  const castTo = isBigDType(a.dtype) ? { castTo: 'float64' as const } : {};
  return reduceOver(fn, a, axes, opts, {
    dtype,
    params: { op: 'var', axes, correction, sqrt: fn === 'std', dtype, ...castTo },
  });
}

/**
 * Variance over `axis`, numerically stable (per-block two-pass, merged with Chan et al.).
 * `correction` is subtracted from the count (0 by default; 1 for the sample variance).
 * @example
 * await compute(variance(fromArray([1, 2, 3, 4]))); // 1.25
 */
export function variance<X extends ArrayLike>(
  x: X,
  opts: MomentOptions = {},
): LazyArray<KnownIn<[X]>> {
  return moments('var', x, opts) as LazyArray<KnownIn<[X]>>;
}

/**
 * Standard deviation over `axis` (the square root of {@link variance}).
 * @example
 * await compute(std(fromArray([1, 2, 3, 4]), { correction: 1 })); // 1.2909944…
 */
export function std<X extends ArrayLike>(x: X, opts: MomentOptions = {}): LazyArray<KnownIn<[X]>> {
  return moments('std', x, opts) as LazyArray<KnownIn<[X]>>;
}

function argReduction(fn: 'argmin' | 'argmax', x: ArrayLike, opts: ArgReductionOptions): LazyArray {
  checkReductionOptions(fn, opts);
  const a = widenFloat16(asLazy(x, fn)); // float16 compares exactly as float32
  if (Array.isArray(opts.axis)) {
    throw new ValueError(`${fn}: axis ${formatValue(opts.axis)} must be a single integer or null`);
  }
  const axes = reductionAxes(fn, opts.axis, a.ndim);
  checkNonEmpty(fn, a, axes, opts.axis);
  const flat = axes.length !== 1;
  const shape = a.shape;
  if (flat && shape.includes(null)) {
    throw new ChunkError(
      `${fn}: a flat index needs the shape, ${formatTuple(shape)} has unknown sizes; call computeChunkSizes(x) first`,
    );
  }
  if (a.device !== 'cpu') return deviceArgReduction(fn, a, axes, opts.keepdims ?? false);
  const params = { op: fn, axes, flat };
  const offsets = flat ? a.chunks.map((c) => chunkOffsets(c as number[])) : [];
  return reduceOver(fn, a, axes, opts, {
    dtype: 'int32',
    params,
    ...(flat
      ? {
          partialParams: (b: readonly number[]) => ({
            ...params,
            offset: b.map((i, ax) => offsets[ax]![i]!),
            shape: shape as number[],
          }),
        }
      : {}),
  });
}

/**
 * Index of the minimum along `axis`, or the flat (C-order) index over the whole array when
 * no axis is given. Ties and NaNs give the first occurrence, as NumPy.
 * @example
 * await compute(argmin(fromArray([[3, 1], [0, 5]]))); // 2
 */
export function argmin<X extends ArrayLike>(
  x: X,
  opts: ArgReductionOptions = {},
): LazyArray<KnownIn<[X]>> {
  return argReduction('argmin', x, opts) as LazyArray<KnownIn<[X]>>;
}

/**
 * Index of the maximum along `axis` (flat index when no axis is given); first occurrence wins.
 * @example
 * await compute(argmax(fromArray([[3, 1], [0, 5]]), { axis: 1 })); // [0, 1]
 */
export function argmax<X extends ArrayLike>(
  x: X,
  opts: ArgReductionOptions = {},
): LazyArray<KnownIn<[X]>> {
  return argReduction('argmax', x, opts) as LazyArray<KnownIn<[X]>>;
}

export { variance as var };
