// real, imag and conj: the parts of complex numbers. On real dtypes (all tessera has today)
// they are the standard's identities: real(x) = x, imag(x) = zeros, conj(x) = x.

import { zerosLike } from '../array/creation-like.ts';
import { type DType, isFloat, isInteger } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import { DTypeError } from '../errors.ts';
import { elementwise, node } from './elementwise.ts';

function numericArray(fn: string, x: ArrayLike): LazyArray {
  const a = asLazy(x, fn);
  if (!isFloat(a.dtype) && !isInteger(a.dtype)) {
    throw new DTypeError(`${fn}: needs a numeric array, got dtype '${a.dtype}'`);
  }
  return a;
}

/**
 * The real part; for real dtypes, x itself.
 * @example
 * real(fromArray([1.5, -2])); // [1.5, -2]
 */
export function real<X extends ArrayLike>(x: X): LazyArray<KnownIn<[X]>> {
  return numericArray('real', x) as LazyArray<KnownIn<[X]>>;
}

/**
 * The imaginary part; for real dtypes, zeros of x's shape, dtype and chunks (unknown
 * sizes kept).
 * @example
 * imag(fromArray([1.5, -2])); // [0, 0]
 */
export function imag<X extends ArrayLike>(x: X): LazyArray<KnownIn<[X]>> {
  const a = numericArray('imag', x);
  const d: DType = a.dtype;
  if (a.shape.every((s) => s !== null)) return zerosLike(a) as LazyArray<KnownIn<[X]>>;
  // unknown sizes: `x && 0` (0 even for NaN) over x's blocks keeps their chunks
  return elementwise('imag', [a], ([v]) => {
    const zero = node('logicalAnd', [v!.leaf, { const: 0 }], 'bool');
    return { expr: node('astype', [zero], d), dtype: d };
  }) as LazyArray<KnownIn<[X]>>;
}

/**
 * The complex conjugate; for real dtypes, x itself.
 * @example
 * conj(fromArray([1.5, -2])); // [1.5, -2]
 */
export function conj<X extends ArrayLike>(x: X): LazyArray<KnownIn<[X]>> {
  return numericArray('conj', x) as LazyArray<KnownIn<[X]>>;
}
