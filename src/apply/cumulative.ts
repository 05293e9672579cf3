// The Array API's cumulativeSum and cumulativeProd (inclusive scans, optionally with the
// initial unit prepended) and countNonzero, built on cumsum's chained-carry scan and sum.

import { checkOptions, optionalBoolean } from '../array/check-options.ts';
import { full } from '../array/creation.ts';
import type { DType } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import type { ScanOp } from '../backends/cpu-js/reduce/scan.ts';
import { ChunkError } from '../errors.ts';
import { normalizeAxis } from './axis-args.ts';
import { concat } from './concat.ts';
import { scan } from './cumsum.ts';
import { notEqual } from './elementwise-logic.ts';
import { type ReductionOptions, sum } from './reductions.ts';

/** Options of cumulativeSum and cumulativeProd. */
export interface CumulativeOptions {
  /** The axis to accumulate along; required when x has more than one axis. */
  axis?: number;
  /** The accumulator and result dtype (default: floats keep theirs, integers int64/uint64). */
  dtype?: DType;
  /** Prepend the unit (0 or 1), so the result is one longer along the axis. */
  includeInitial?: boolean;
}

function cumulative(fn: string, op: ScanOp, x: ArrayLike, opts?: CumulativeOptions): LazyArray {
  const o = checkOptions(fn, opts);
  const initial = optionalBoolean(fn, 'includeInitial', o.includeInitial, false);
  const a = asLazy(x, fn);
  const y = scan(fn, op, a, {
    ...(o.axis === undefined ? {} : { axis: o.axis }),
    ...(o.dtype === undefined ? {} : { dtype: o.dtype }),
  });
  if (!initial) return y;
  const axis = normalizeAxis(fn, o.axis ?? 0, a.ndim);
  const shape = y.shape.map((s, ax) => (ax === axis ? 1 : s));
  if (shape.some((s) => s === null)) {
    throw new ChunkError(
      `${fn}: includeInitial needs known sizes; call computeChunkSizes(x) first`,
    );
  }
  const chunks = y.chunks.map((c, ax) => (ax === axis ? [1] : [...c])) as number[][];
  const unit = full(shape as number[], op === 'prod' ? 1 : 0, { dtype: y.dtype, chunks });
  return concat([unit, y], { axis });
}

/**
 * Inclusive cumulative sum along `axis` (the Array API's cumulative_sum); with
 * `includeInitial`, a leading 0.
 * @example
 * cumulativeSum(fromArray([1, 2, 3]), { includeInitial: true }); // [0, 1, 3, 6]
 */
export function cumulativeSum<X extends ArrayLike>(
  x: X,
  opts?: CumulativeOptions,
): LazyArray<KnownIn<[X]>> {
  return cumulative('cumulativeSum', 'sum', x, opts) as LazyArray<KnownIn<[X]>>;
}

/**
 * Inclusive cumulative product along `axis`; with `includeInitial`, a leading 1.
 * @example
 * cumulativeProd(fromArray([1, 2, 3, 4], { chunks: 2 })); // [1, 2, 6, 24]
 */
export function cumulativeProd<X extends ArrayLike>(
  x: X,
  opts?: CumulativeOptions,
): LazyArray<KnownIn<[X]>> {
  return cumulative('cumulativeProd', 'prod', x, opts) as LazyArray<KnownIn<[X]>>;
}

/**
 * The number of nonzero (true) elements, over all axes or along `axis` (int32).
 * @example
 * countNonzero(fromArray([[0, 1], [2, 0]]), { axis: 0 }); // [1, 1]
 */
export function countNonzero<X extends ArrayLike>(
  x: X,
  opts?: Pick<ReductionOptions, 'axis' | 'keepdims'>,
): LazyArray<KnownIn<[X]>> {
  const o = checkOptions('countNonzero', opts);
  const a = asLazy(x, 'countNonzero');
  const nz = a.dtype === 'bool' ? a : notEqual(a, 0);
  return sum(nz, { ...o, dtype: 'int32' } as ReductionOptions) as LazyArray<KnownIn<[X]>>;
}
