// real, imag and conj: the parts of complex numbers (elementwise 'real'/'imag'/'conj' nodes,
// float32 parts for complex64, float64 for complex128). On real dtypes they are the
// standard's identities: real(x) = x, imag(x) = zeros, conj(x) = x.

import { zerosLike } from '../array/creation-like.ts';
import { type DType, isComplex, isFloat, isInteger, realDType } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import { DTypeError } from '../errors.ts';
import { elementwise, node } from './elementwise.ts';

function numericArray(fn: string, x: ArrayLike): LazyArray {
  const a = asLazy(x, fn);
  if (!isFloat(a.dtype) && !isInteger(a.dtype) && !isComplex(a.dtype)) {
    throw new DTypeError(`${fn}: needs a numeric array, got dtype '${a.dtype}'`);
  }
  return a;
}

/** The 'real'/'imag'/'conj' node over complex `a` (`to` its result dtype). */
function complexPart(fn: string, a: LazyArray, to: DType): LazyArray {
  return elementwise(fn, [a], ([v]) => ({ expr: node(fn, [v!.leaf], to), dtype: to }));
}

/**
 * The real part (float32 for complex64, float64 for complex128); for real dtypes, x itself.
 * @example
 * real(fromArray([1.5, -2])); // [1.5, -2]
 * real(fromArray([{ re: 1, im: 2 }])); // [1] (float64)
 */
export function real<X extends ArrayLike>(x: X): LazyArray<KnownIn<[X]>> {
  const a = numericArray('real', x);
  if (isComplex(a.dtype))
    return complexPart('real', a, realDType(a.dtype)) as LazyArray<KnownIn<[X]>>;
  return a as LazyArray<KnownIn<[X]>>;
}

/**
 * The imaginary part (float32 for complex64, float64 for complex128); for real dtypes,
 * zeros of x's shape, dtype and chunks (unknown sizes kept).
 * @example
 * imag(fromArray([1.5, -2])); // [0, 0]
 * imag(fromArray([{ re: 1, im: 2 }])); // [2] (float64)
 */
export function imag<X extends ArrayLike>(x: X): LazyArray<KnownIn<[X]>> {
  const a = numericArray('imag', x);
  if (isComplex(a.dtype))
    return complexPart('imag', a, realDType(a.dtype)) as LazyArray<KnownIn<[X]>>;
  const d: DType = a.dtype;
  if (a.shape.every((s) => s !== null)) return zerosLike(a) as LazyArray<KnownIn<[X]>>;
  // unknown sizes: `x && 0` (0 even for NaN) over x's blocks keeps their chunks
  return elementwise('imag', [a], ([v]) => {
    const zero = node('logicalAnd', [v!.leaf, { const: 0 }], 'bool');
    return { expr: node('astype', [zero], d), dtype: d };
  }) as LazyArray<KnownIn<[X]>>;
}

/**
 * The complex conjugate (re, -im), of x's dtype; for real dtypes, x itself.
 * @example
 * conj(fromArray([1.5, -2])); // [1.5, -2]
 * conj(fromArray([{ re: 1, im: 2 }])); // [{ re: 1, im: -2 }]
 */
export function conj<X extends ArrayLike>(x: X): LazyArray<KnownIn<[X]>> {
  const a = numericArray('conj', x);
  if (isComplex(a.dtype)) return complexPart('conj', a, a.dtype) as LazyArray<KnownIn<[X]>>;
  return a as LazyArray<KnownIn<[X]>>;
}
