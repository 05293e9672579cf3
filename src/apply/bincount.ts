// bincount (numpy.bincount, as dask.array.bincount builds it): per-block counts of each
// non-negative integer, summed by a tree; minlength gives a known output size.

import { checkOptions } from '../array/check-options.ts';
import { kindOf } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import { LazyArray } from '../array/lazy-array.ts';
import type { BincountBlockParams } from '../backends/cpu-js/reduce/histogram.ts';
import { formatTuple, formatValue } from '../chunking/format.ts';
import { DTypeError, ShapeError, ValueError } from '../errors.ts';
import { partialCounts, sumTree } from './count-tree.ts';
import { rechunk } from './rechunk.ts';

/** Options of bincount. */
export interface BincountOptions {
  /** One weight per element: each element counts its weight. */
  readonly weights?: ArrayLike;
  /**
   * The output's length, known when the graph is built; every value must be below it.
   * Omitted (or 0): the length is max(x) + 1, unknown until computed (as in Dask).
   */
  readonly minlength?: number;
}

/**
 * How many times each non-negative integer occurs in the 1-D integer array `x` (or the sum
 * of its weights), as numpy.bincount. With `minlength` the output has that known length and
 * a value at or above it fails the compute (ValueError, where NumPy would grow the output;
 * Dask's metadata would be wrong); without it the length is unknown until computed. A
 * negative value fails the compute with ValueError. Counts are float64, exact to 2^53
 * (NumPy gives int64; tessera has none).
 * @example
 * bincount(fromArray(new Int32Array([0, 1, 1, 3]), { chunks: 2 }), { minlength: 5 }).compute(); // [1, 2, 0, 1, 0]
 */
export function bincount(x: ArrayLike, binOpts?: BincountOptions): LazyArray {
  const fn = 'bincount';
  const opts = checkOptions(fn, binOpts);
  const a = asLazy(x, fn);
  if (a.ndim !== 1) {
    throw new ShapeError(`${fn}: x of shape ${formatTuple(a.shape)} must be one-dimensional`);
  }
  if (kindOf(a.dtype) === 'float' || a.dtype === 'float16') {
    throw new DTypeError(`${fn}: x of dtype '${a.dtype}' must hold integers`);
  }
  const minlength = opts.minlength ?? 0;
  if (!Number.isSafeInteger(minlength) || minlength < 0) {
    throw new ValueError(
      `${fn}: minlength ${formatValue(minlength)} must be a non-negative integer`,
    );
  }
  let w: LazyArray | undefined;
  if (opts.weights !== undefined) {
    w = asLazy(opts.weights, fn);
    if (w.ndim !== 1 || w.shape[0] !== a.shape[0]) {
      throw new ShapeError(
        `${fn}: weights of shape ${formatTuple(w.shape)} must have x's shape ${formatTuple(a.shape)}`,
      );
    }
    if (w.dtype === 'float16')
      throw new DTypeError(`${fn}: weights of dtype 'float16' are not supported`);
    const same =
      w.chunks[0]!.every((s, k) => s === a.chunks[0]![k]) &&
      w.chunks[0]!.length === a.chunks[0]!.length;
    if (!same) w = rechunk(w, a.chunks as number[][]);
  }
  const known = minlength > 0;
  const params: BincountBlockParams = { minlength, known, weighted: w !== undefined };
  const partial = partialCounts({
    op: `${fn}-partial`,
    token: [],
    x: a,
    deps: w ? [w] : [],
    blockShape: [known ? minlength : null],
    kernel: 'bincount-block',
    params,
  });
  return new LazyArray(sumTree(fn, partial));
}
