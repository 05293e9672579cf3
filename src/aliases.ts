// NumPy's names for tessera functions, listed once: each alias is the same function object
// as its Array API name (arccos is acos), so dispatch, docs and method forms are shared.

import { concat } from './apply/concat.ts';
import { abs } from './apply/elementwise-arith.ts';
import { acos, acosh, asin, asinh, atan, atan2, atanh } from './apply/elementwise-math.ts';
import { reshape } from './apply/reshape.ts';
import { type ArrayLike, asLazy } from './array/from-array.ts';
import type { KnownIn } from './array/known-shape.ts';
import type { LazyArray } from './array/lazy-array.ts';

/**
 * NumPy's name for abs.
 * @example
 * absolute(fromArray([-1, 2])); // [1, 2]
 */
export const absolute = abs;
/**
 * NumPy's name for concat.
 * @example
 * concatenate([ones([2]), zeros([3])]).shape; // [5]
 */
export const concatenate = concat;
/**
 * NumPy's name for acos.
 * @example
 * arccos(fromArray([1])); // [0]
 */
export const arccos = acos;
/**
 * NumPy's name for asin.
 * @example
 * arcsin(fromArray([0])); // [0]
 */
export const arcsin = asin;
/**
 * NumPy's name for atan.
 * @example
 * arctan(fromArray([0])); // [0]
 */
export const arctan = atan;
/**
 * NumPy's name for atan2.
 * @example
 * arctan2(fromArray([1]), 1); // [π/4]
 */
export const arctan2 = atan2;
/**
 * NumPy's name for acosh.
 * @example
 * arccosh(fromArray([1])); // [0]
 */
export const arccosh = acosh;
/**
 * NumPy's name for asinh.
 * @example
 * arcsinh(fromArray([0])); // [0]
 */
export const arcsinh = asinh;
/**
 * NumPy's name for atanh.
 * @example
 * arctanh(fromArray([0])); // [0]
 */
export const arctanh = atanh;

/**
 * The array flattened to 1-D in C order (NumPy's ravel: reshape(x, [-1])).
 * @example
 * ravel(ones([2, 3])).shape; // [6]
 */
export function ravel<X extends ArrayLike>(x: X): LazyArray<KnownIn<[X]>> {
  return reshape(asLazy(x, 'ravel'), [-1]) as LazyArray<KnownIn<[X]>>;
}

/**
 * The array flattened to 1-D in C order (NumPy's ndarray.flatten; arrays are immutable
 * here, so it is ravel).
 * @example
 * flatten(ones([2, 3])).shape; // [6]
 */
export function flatten<X extends ArrayLike>(x: X): LazyArray<KnownIn<[X]>> {
  return reshape(asLazy(x, 'flatten'), [-1]) as LazyArray<KnownIn<[X]>>;
}

/**
 * Arrays joined column-wise (NumPy's hstack): along axis 0 for 1-D arrays, else axis 1.
 * @example
 * hstack([ones([2, 1]), zeros([2, 2])]).shape; // [2, 3]
 */
export function hstack<A extends ArrayLike>(arrays: readonly A[]): LazyArray<KnownIn<[A]>> {
  const xs = arrays.map((x) => asLazy(x, 'hstack'));
  return concat(xs, { axis: xs.every((x) => x.ndim === 1) ? 0 : 1 }) as LazyArray<KnownIn<[A]>>;
}

/**
 * Arrays joined row-wise (NumPy's vstack): 1-D arrays become rows first.
 * @example
 * vstack([fromArray([1, 2]), fromArray([3, 4])]).shape; // [2, 2]
 */
export function vstack<A extends ArrayLike>(arrays: readonly A[]): LazyArray<KnownIn<[A]>> {
  const xs = arrays.map((x) => {
    const a = asLazy(x, 'vstack');
    return a.ndim <= 1 ? reshape(a, [1, -1]) : a;
  });
  return concat(xs, { axis: 0 }) as LazyArray<KnownIn<[A]>>;
}
