// Creation functions shaped like another array (emptyLike, zerosLike, onesLike, fullLike)
// and eye: each keeps the model's chunks, so the new array lines up with it block by block.

import { ChunkError, ValueError } from '../errors.ts';
import { checkOptions, describe, optionalDType } from './check-options.ts';
import { type CreationOptions, full } from './creation.ts';
import type { DType } from './dtype.ts';
import { type ArrayLike, asLazy } from './from-array.ts';
import type { KnownIn } from './known-shape.ts';
import type { LazyArray } from './lazy-array.ts';

/** Options of the `*Like` functions: the dtype (default x's) and chunks (default x's). */
export type LikeOptions = CreationOptions;

function like(fn: string, x: ArrayLike, value: number | boolean, opts?: LikeOptions): LazyArray {
  const o = checkOptions(fn, opts);
  const a = asLazy(x, fn);
  const dtype: DType = optionalDType(fn, o.dtype, a.dtype);
  const shape = a.shape;
  if (shape.some((s) => s === null)) {
    throw new ChunkError(`${fn}: x has unknown sizes; call computeChunkSizes(x) first`);
  }
  return full(shape as number[], value, { dtype, chunks: o.chunks ?? a.chunks });
}

/**
 * An uninitialised array of x's shape, dtype and chunks (here: zeros).
 * @example
 * emptyLike(ones([4, 4], { chunks: 2 })).numBlocks; // [2, 2]
 */
export function emptyLike<X extends ArrayLike>(x: X, opts?: LikeOptions): LazyArray<KnownIn<[X]>> {
  return like('emptyLike', x, 0, opts) as LazyArray<KnownIn<[X]>>;
}

/**
 * Zeros of x's shape, dtype (or `dtype`) and chunks.
 * @example
 * zerosLike(fromArray([1, 2, 3])); // [0, 0, 0]
 */
export function zerosLike<X extends ArrayLike>(x: X, opts?: LikeOptions): LazyArray<KnownIn<[X]>> {
  return like('zerosLike', x, 0, opts) as LazyArray<KnownIn<[X]>>;
}

/**
 * Ones of x's shape, dtype (or `dtype`) and chunks.
 * @example
 * onesLike(fromArray([1, 2, 3]), { dtype: 'int32' }); // [1, 1, 1]
 */
export function onesLike<X extends ArrayLike>(x: X, opts?: LikeOptions): LazyArray<KnownIn<[X]>> {
  return like('onesLike', x, 1, opts) as LazyArray<KnownIn<[X]>>;
}

/**
 * `fillValue` everywhere, in x's shape, dtype (or `dtype`) and chunks.
 * @example
 * fullLike(zeros([2, 2]), 7); // [[7, 7], [7, 7]] float64
 */
export function fullLike<X extends ArrayLike>(
  x: X,
  fillValue: number | boolean,
  opts?: LikeOptions,
): LazyArray<KnownIn<[X]>> {
  if (typeof fillValue !== 'number' && typeof fillValue !== 'boolean') {
    throw new ValueError(
      `fullLike: fill value ${describe(fillValue)} is not a number or a boolean`,
    );
  }
  return like('fullLike', x, fillValue, opts) as LazyArray<KnownIn<[X]>>;
}
