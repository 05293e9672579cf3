// vecdot and matrixTranspose (Array API): the dot product of vectors along an axis, as a
// fused multiply-and-sum per block (complex x1 conjugated, as the standard says), and the
// swap of the last two axes.

import { checkOptions } from '../array/check-options.ts';
import { isComplex } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import { broadcastShapes } from '../chunking/broadcast.ts';
import { formatValue } from '../chunking/format.ts';
import { ShapeError } from '../errors.ts';
import { normalizeAxis } from './axis-args.ts';
import { conj } from './complex-parts.ts';
import { multiply } from './elementwise-arith.ts';
import { sum } from './reductions.ts';
import { swapaxes } from './transpose.ts';

/**
 * The dot product of x1 and x2 along `axis` (default -1), broadcasting the other axes:
 * `sum(conj(x1) · x2, axis)` (conj changes complex x1 only).
 * @example
 * vecdot(fromArray([[1, 2], [3, 4]]), fromArray([1, 1])); // [3, 7]
 */
export function vecdot<X1 extends ArrayLike, X2 extends ArrayLike>(
  x1: X1,
  x2: X2,
  opts?: { axis?: number },
): LazyArray<KnownIn<[X1, X2]>> {
  const o = checkOptions('vecdot', opts);
  const a = asLazy(x1, 'vecdot');
  const b = asLazy(x2, 'vecdot');
  const shape = broadcastShapes('vecdot', a.shape, b.shape);
  if (shape.length === 0) throw new ShapeError('vecdot: x1 and x2 must have at least one axis');
  const axis = normalizeAxis('vecdot', o.axis ?? -1, shape.length);
  const at = (x: LazyArray) => x.shape[axis - (shape.length - x.ndim)];
  const [na, nb] = [at(a), at(b)];
  if (na !== nb) {
    throw new ShapeError(
      `vecdot: sizes ${formatValue(na)} and ${formatValue(nb)} along axis ${o.axis ?? -1} differ`,
    );
  }
  const ca = isComplex(a.dtype) ? conj(a) : a;
  return sum(multiply(ca, b), { axis }) as LazyArray<KnownIn<[X1, X2]>>;
}

/**
 * The last two axes swapped (a stack of matrices transposed).
 * @example
 * matrixTranspose(zeros([5, 2, 3])).shape; // [5, 3, 2]
 */
export function matrixTranspose<X extends ArrayLike>(x: X): LazyArray<KnownIn<[X]>> {
  const a = asLazy(x, 'matrixTranspose');
  if (a.ndim < 2) {
    throw new ShapeError(
      `matrixTranspose: x must have at least two axes, got shape ${formatValue(a.shape)}`,
    );
  }
  return swapaxes(a, -1, -2) as LazyArray<KnownIn<[X]>>;
}
