// linalg's structural functions: matrixTranspose, diagonal, trace, outer, cross and vecdot,
// built from lazy manipulation, elementwise and reduction layers (cross/diagonal: one op).

import { checkOptions } from '../array/check-options.ts';
import { type DType, isComplex, resultType } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import { formatTuple, formatValue } from '../chunking/format.ts';
import { ShapeError, ValueError } from '../errors.ts';
import { expandDims } from './axes.ts';
import { normalizeAxis } from './axis-args.ts';
import { conj } from './complex-parts.ts';
import { multiply } from './elementwise-arith.ts';
import { coreApply, coreShape } from './linalg-core.ts';
import { sum } from './reductions.ts';
import { moveaxis, swapaxes } from './transpose.ts';

function atLeast(fn: string, x: ArrayLike, ndim: number): LazyArray {
  const a = asLazy(x, fn);
  if (a.ndim < ndim) {
    throw new ShapeError(
      `${fn}: needs at least ${ndim} dimensions, got shape ${formatTuple(a.shape)}`,
    );
  }
  return a;
}

/**
 * Every matrix of `x` transposed: its last two axes swapped.
 * @example
 * linalg.matrixTranspose(zeros([5, 2, 3])).shape; // [5, 3, 2]
 */
export function matrixTranspose<X extends ArrayLike>(x: X): LazyArray<KnownIn<[X]>> {
  return swapaxes(atLeast('linalg.matrixTranspose', x, 2), -1, -2) as LazyArray<KnownIn<[X]>>;
}

function offsetOf(fn: string, v: unknown): number {
  const k = v ?? 0;
  if (typeof k !== 'number' || !Number.isInteger(k)) {
    throw new ValueError(`${fn}: offset ${formatValue(v)} is not an integer`);
  }
  return k;
}

/**
 * The diagonal of every matrix of `x` (offset > 0 above the main one, < 0 below): shape
 * `[..., length]`, the dtype of `x`.
 * @example
 * linalg.diagonal(fromArray([[1, 2], [3, 4]])).compute().toNested(); // [1, 4]
 */
export function diagonal<X extends ArrayLike>(
  x: X,
  opts?: { readonly offset?: number },
): LazyArray<KnownIn<[X]>> {
  const fn = 'linalg.diagonal';
  const a = atLeast(fn, x, 2);
  const offset = offsetOf(fn, checkOptions(fn, opts).offset);
  const [m, n] = coreShape(fn, a, 2) as [number, number];
  const len = Math.max(0, offset >= 0 ? Math.min(m, n - offset) : Math.min(m + offset, n));
  const [d] = coreApply({
    fn,
    op: 'diagonal',
    args: { offset },
    inputs: [{ array: a, core: 2 }],
    outputs: [{ core: [len], dtype: a.dtype }],
  });
  return d! as LazyArray<KnownIn<[X]>>;
}

/**
 * The sum of the diagonal of every matrix of `x` (shape `x.shape[:-2]`), in `sum`'s dtype.
 * @example
 * linalg.trace(fromArray([[1, 2], [3, 4]])).compute().toNested(); // 5
 */
export function trace<X extends ArrayLike>(
  x: X,
  opts?: { readonly offset?: number; readonly dtype?: DType },
): LazyArray<KnownIn<[X]>> {
  const o = checkOptions('linalg.trace', opts);
  const d = diagonal(x, { offset: offsetOf('linalg.trace', o.offset) });
  return sum(d, { axis: -1, ...(o.dtype !== undefined ? { dtype: o.dtype } : {}) }) as LazyArray<
    KnownIn<[X]>
  >;
}

/**
 * The outer product of two vectors: `out[i, j] = x1[i] · x2[j]`.
 * @example
 * linalg.outer(fromArray([1, 2]), fromArray([3, 4, 5])).compute().toNested(); // [[3, 4, 5], [6, 8, 10]]
 */
export function outer<X1 extends ArrayLike, X2 extends ArrayLike>(
  x1: X1,
  x2: X2,
): LazyArray<KnownIn<[X1, X2]>> {
  const fn = 'linalg.outer';
  const [a, b] = [asLazy(x1, fn), asLazy(x2, fn)];
  if (a.ndim !== 1 || b.ndim !== 1) {
    throw new ShapeError(
      `${fn}: needs two 1-d arrays, got shapes ${formatTuple(a.shape)} and ${formatTuple(b.shape)}`,
    );
  }
  return multiply(expandDims(a, { axis: -1 }), b) as LazyArray<KnownIn<[X1, X2]>>;
}

/** The size of `axis` of `a` (normalized), checked against `want`. */
function axisSize(fn: string, a: LazyArray, axis: number): { axis: number; size: number | null } {
  const ax = normalizeAxis(fn, axis, a.ndim);
  return { axis: ax, size: a.shape[ax]! };
}

/**
 * The cross product of 3-vectors along `axis` (default -1) of `x1` and `x2`, whose other
 * axes broadcast.
 * @example
 * linalg.cross(fromArray([1, 0, 0]), fromArray([0, 1, 0])).compute().toNested(); // [0, 0, 1]
 */
export function cross<X1 extends ArrayLike, X2 extends ArrayLike>(
  x1: X1,
  x2: X2,
  opts?: { readonly axis?: number },
): LazyArray<KnownIn<[X1, X2]>> {
  const fn = 'linalg.cross';
  const axis = checkOptions(fn, opts).axis ?? -1;
  const [a, b] = [atLeast(fn, x1, 1), atLeast(fn, x2, 1)];
  const [pa, pb] = [axisSize(fn, a, axis), axisSize(fn, b, axis)];
  if (pa.size !== 3 || pb.size !== 3) {
    throw new ShapeError(
      `${fn}: axis ${axis} must have size 3 in both arrays, got shapes ${formatTuple(a.shape)} and ${formatTuple(b.shape)}`,
    );
  }
  const [y] = coreApply({
    fn,
    op: 'cross',
    inputs: [
      { array: moveaxis(a, pa.axis, -1), core: 1 },
      { array: moveaxis(b, pb.axis, -1), core: 1 },
    ],
    outputs: [{ core: [3], dtype: resultType(a.dtype, b.dtype) }],
  });
  const nd = y!.ndim;
  return moveaxis(y!, -1, axis < 0 ? nd + axis : Math.min(axis, nd - 1)) as LazyArray<
    KnownIn<[X1, X2]>
  >;
}

/**
 * The dot product of `x1` and `x2` along `axis` (default -1), the other axes broadcast:
 * `sum(conj(x1) · x2, axis)` (conj changes complex x1 only).
 * @example
 * linalg.vecdot(fromArray([[1, 2], [3, 4]]), fromArray([1, 1])).compute().toNested(); // [3, 7]
 */
export function vecdot<X1 extends ArrayLike, X2 extends ArrayLike>(
  x1: X1,
  x2: X2,
  opts?: { readonly axis?: number },
): LazyArray<KnownIn<[X1, X2]>> {
  const fn = 'linalg.vecdot';
  const axis = checkOptions(fn, opts).axis ?? -1;
  const [a, b] = [atLeast(fn, x1, 1), atLeast(fn, x2, 1)];
  if (typeof axis !== 'number' || !Number.isInteger(axis)) {
    throw new ValueError(`${fn}: axis ${formatValue(axis)} is not an integer`);
  }
  // counted from the end, so it names the same axis of both broadcast operands
  const neg = axis >= 0 ? axis - a.ndim : axis;
  const [pa, pb] = [axisSize(fn, a, neg), axisSize(fn, b, neg)];
  if (pa.size !== null && pb.size !== null && pa.size !== pb.size) {
    throw new ShapeError(
      `${fn}: axis ${axis} has size ${pa.size} in ${formatTuple(a.shape)} but ${pb.size} in ${formatTuple(b.shape)}`,
    );
  }
  const ca = isComplex(a.dtype) ? conj(a) : a;
  return sum(multiply(ca, b), { axis: neg }) as LazyArray<KnownIn<[X1, X2]>>;
}
