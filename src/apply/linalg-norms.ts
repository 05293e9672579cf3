// linalg.vectorNorm and linalg.matrixNorm: p-norms as elementwise and reduction layers
// (chunk-parallel along every axis); the spectral and nuclear norms through svdvals.

import { checkOptions } from '../array/check-options.ts';
import { isFloat } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import { formatValue } from '../chunking/format.ts';
import { ValueError } from '../errors.ts';
import { expandDims } from './axes.ts';
import { normalizeAxes } from './axis-args.ts';
import { abs, multiply, pow, sqrt } from './elementwise-arith.ts';
import { astype, notEqual } from './elementwise-logic.ts';
import { linalgInput } from './linalg-core.ts';
import { svdvals } from './linalg-decomp.ts';
import { max, min, sum } from './reductions.ts';

/** Options of linalg.vectorNorm. */
export interface VectorNormOptions {
  /** Axes to take the norm over (default: all, as of the flattened array). */
  readonly axis?: number | readonly number[];
  readonly keepdims?: boolean;
  /** p (default 2); Infinity: max |x|; -Infinity: min |x|; 0: the count of non-zeros. */
  readonly ord?: number;
}

/**
 * The p-norm of `x` over `axis` (default all axes): `(Σ |x|^p)^(1/p)`, with ord ±Infinity
 * the max/min of |x| and ord 0 the non-zero count; integer inputs give float64.
 * @example
 * linalg.vectorNorm(fromArray([3, 4])).compute().toNested(); // 5
 */
export function vectorNorm<X extends ArrayLike>(
  x: X,
  opts?: VectorNormOptions,
): LazyArray<KnownIn<[X]>> {
  const fn = 'linalg.vectorNorm';
  const o = checkOptions(fn, opts);
  const a0 = asLazy(x, fn);
  const a = isFloat(a0.dtype) ? a0 : astype(a0, 'float64');
  const ord = o.ord ?? 2;
  if (typeof ord !== 'number' || Number.isNaN(ord)) {
    throw new ValueError(`${fn}: ord ${formatValue(ord)} is not a number`);
  }
  const axes = o.axis === undefined ? [...Array(a.ndim).keys()] : normalizeAxes(fn, o.axis, a.ndim);
  const red = { axis: axes, keepdims: o.keepdims ?? false };
  if (ord === 2) return sqrt(sum(multiply(a, a), red)) as LazyArray<KnownIn<[X]>>;
  if (ord === 1) return sum(abs(a), red) as LazyArray<KnownIn<[X]>>;
  if (ord === Infinity) return max(abs(a), red) as LazyArray<KnownIn<[X]>>;
  if (ord === -Infinity) return min(abs(a), red) as LazyArray<KnownIn<[X]>>;
  if (ord === 0) return sum(astype(notEqual(a, 0), a.dtype), red) as LazyArray<KnownIn<[X]>>;
  return pow(sum(pow(abs(a), ord), red), 1 / ord) as LazyArray<KnownIn<[X]>>;
}

/** The matrix norms the standard names. */
export type MatrixNormOrd = 'fro' | 'nuc' | 1 | -1 | 2 | -2 | number;

/**
 * The norm of every matrix of `x` (its last two axes): 'fro' (default) Frobenius, 'nuc' the
 * sum of singular values, 1/-1 max/min column sum of |x|, Infinity/-Infinity max/min row
 * sum, 2/-2 largest/smallest singular value. `keepdims` keeps the two axes as size 1.
 * @example
 * linalg.matrixNorm(fromArray([[1, 2], [3, 4]]), { ord: 1 }).compute().toNested(); // 6
 */
export function matrixNorm<X extends ArrayLike>(
  x: X,
  opts?: { readonly keepdims?: boolean; readonly ord?: MatrixNormOrd },
): LazyArray<KnownIn<[X]>> {
  const fn = 'linalg.matrixNorm';
  const o = checkOptions(fn, opts);
  const a0 = linalgInput(fn, x, 2);
  const a = isFloat(a0.dtype) ? a0 : astype(a0, 'float64');
  const ord = o.ord ?? 'fro';
  const keep = (y: LazyArray) => (o.keepdims === true ? expandDims(y, { axis: [-2, -1] }) : y);
  switch (ord) {
    case 'fro':
      return keep(sqrt(sum(multiply(a, a), { axis: [-2, -1] }))) as LazyArray<KnownIn<[X]>>;
    case 'nuc':
      return keep(sum(svdvals(a), { axis: -1 })) as LazyArray<KnownIn<[X]>>;
    case 1:
      return keep(max(sum(abs(a), { axis: -2 }), { axis: -1 })) as LazyArray<KnownIn<[X]>>;
    case -1:
      return keep(min(sum(abs(a), { axis: -2 }), { axis: -1 })) as LazyArray<KnownIn<[X]>>;
    case Infinity:
      return keep(max(sum(abs(a), { axis: -1 }), { axis: -1 })) as LazyArray<KnownIn<[X]>>;
    case -Infinity:
      return keep(min(sum(abs(a), { axis: -1 }), { axis: -1 })) as LazyArray<KnownIn<[X]>>;
    case 2:
      return keep(max(svdvals(a), { axis: -1 })) as LazyArray<KnownIn<[X]>>;
    case -2:
      return keep(min(svdvals(a), { axis: -1 })) as LazyArray<KnownIn<[X]>>;
    default:
      throw new ValueError(
        `${fn}: ord ${formatValue(ord)} must be 'fro', 'nuc', 1, -1, 2, -2, Infinity or -Infinity`,
      );
  }
}
