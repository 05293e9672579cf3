// tril, triu and eye: a comparison of a row-index and a column-index array broadcast over
// the last two axes, chunked as the matrix, so each block is one fused elementwise loop.

import { checkOptions, optionalDType } from '../array/check-options.ts';
import { arange, type CreationOptions, checkShapeArg, creationChunks } from '../array/creation.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import { formatValue } from '../chunking/format.ts';
import type { Chunks } from '../chunking/types.ts';
import { ChunkError, ShapeError, ValueError } from '../errors.ts';
import { subtract } from './elementwise-arith.ts';
import { astype, equal, greaterEqual, lessEqual, where } from './elementwise-logic.ts';
import { reshape } from './reshape.ts';

function checkK(fn: string, k: unknown): number {
  if (typeof k !== 'number' || !Number.isSafeInteger(k)) {
    throw new ValueError(`${fn}: k ${formatValue(k)} is not an integer`);
  }
  return k;
}

/** col - row over a matrix with `rows` and `cols` chunkings (int32, [m, n]). */
function offsetGrid(rows: readonly number[], cols: readonly number[]): LazyArray<true> {
  const m = rows.reduce((s, c) => s + c, 0);
  const n = cols.reduce((s, c) => s + c, 0);
  const r = reshape(arange(m, { chunks: [[...rows]] as Chunks, dtype: 'int32' }), [m, 1]);
  const c = arange(n, { chunks: [[...cols]] as Chunks, dtype: 'int32' });
  return subtract(c, r);
}

function triangle(fn: 'tril' | 'triu', x: ArrayLike, opts?: { k?: number }): LazyArray {
  const o = checkOptions(fn, opts);
  const k = checkK(fn, o.k ?? 0);
  const a = asLazy(x, fn);
  if (a.ndim < 2) {
    throw new ShapeError(`${fn}: x must have at least two axes, got shape ${formatValue(a.shape)}`);
  }
  const rows = a.chunks[a.ndim - 2]!;
  const cols = a.chunks[a.ndim - 1]!;
  if (rows.some((c) => c === null) || cols.some((c) => c === null)) {
    throw new ChunkError(
      `${fn}: the matrix axes have unknown sizes; call computeChunkSizes(x) first`,
    );
  }
  const d = offsetGrid(rows as number[], cols as number[]);
  const keep = fn === 'tril' ? lessEqual(d, k) : greaterEqual(d, k);
  return where(keep, a, 0);
}

/**
 * The lower triangle of the last two axes: elements above the k-th diagonal (k > 0 above
 * the main one) set to 0.
 * @example
 * tril(ones([3, 3])); // [[1, 0, 0], [1, 1, 0], [1, 1, 1]]
 */
export function tril<X extends ArrayLike>(x: X, opts?: { k?: number }): LazyArray<KnownIn<[X]>> {
  return triangle('tril', x, opts) as LazyArray<KnownIn<[X]>>;
}

/**
 * The upper triangle of the last two axes: elements below the k-th diagonal set to 0.
 * @example
 * triu(ones([3, 3]), { k: 1 }); // [[0, 1, 1], [0, 0, 1], [0, 0, 0]]
 */
export function triu<X extends ArrayLike>(x: X, opts?: { k?: number }): LazyArray<KnownIn<[X]>> {
  return triangle('triu', x, opts) as LazyArray<KnownIn<[X]>>;
}

/** Options of eye. */
export interface EyeOptions extends CreationOptions {
  /** The diagonal that holds the ones: 0 the main one, > 0 above, < 0 below. */
  k?: number;
}

/**
 * A matrix with ones on the k-th diagonal and zeros elsewhere (default dtype float64).
 * @example
 * eye(2); // [[1, 0], [0, 1]]
 * eye(2, 3, { k: 1 }); // [[0, 1, 0], [0, 0, 1]]
 */
export function eye(
  nRows: number,
  nCols?: number | EyeOptions,
  opts?: EyeOptions,
): LazyArray<true> {
  const cols = typeof nCols === 'number' ? nCols : nRows;
  const o = checkOptions('eye', typeof nCols === 'object' ? nCols : opts);
  const shape = checkShapeArg('eye', [nRows, cols]);
  const k = checkK('eye', o.k ?? 0);
  const dtype = optionalDType('eye', o.dtype, 'float64');
  const { chunks } = creationChunks('eye', shape, dtype, o.chunks);
  return astype(equal(offsetGrid(chunks[0]!, chunks[1]!), k), dtype);
}
