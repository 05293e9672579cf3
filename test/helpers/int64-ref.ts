// Dense BigInt references for int64 and uint64 tests: random values at the edges (±2^63,
// neighbours past 2^53), lazy arrays of them on random chunkings, and C-order line indices.

import type { BigIntArray, DType } from '../../src/array/dtype.ts';
import type { LazyArray } from '../../src/array/lazy-array.ts';
import { NDArray } from '../../src/array/ndarray.ts';
import { fromArray } from '../../src/index.ts';
import { randomAxisChunks } from './reference.ts';

export const MIN = -(2n ** 63n);
export const MAX = 2n ** 63n - 1n;
export const wrap = (v: bigint): bigint => BigInt.asIntN(64, v);
export const wrapU = (v: bigint): bigint => BigInt.asUintN(64, v);

/** Random int64 values: small ones, edges, ones past 2^53 and large ones near ±2^63. */
export function randomBig(n: number, r: () => number): bigint[] {
  const edges = [0n, 1n, -1n, MIN, MAX, MIN + 1n, MAX - 1n, 2n ** 53n + 1n, -(2n ** 53n) - 1n];
  return Array.from({ length: n }, () => {
    const u = r();
    if (u < 0.25) return edges[Math.floor(r() * edges.length)]!;
    if (u < 0.55) return BigInt(Math.floor(r() * 201) - 100);
    return wrap(BigInt(Math.floor(r() * 2 ** 31)) * BigInt(Math.floor(r() * 2 ** 31)) * 5n);
  });
}

/** A random shape of 1 to 3 axes, each of 1 to `maxSide` elements. */
export function randomShape(r: () => number, maxSide = 6): number[] {
  const nd = 1 + Math.floor(r() * 3);
  return Array.from({ length: nd }, () => 1 + Math.floor(r() * maxSide));
}

export const size = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);

/** `values` (wrapped to uint64 for that dtype) as a lazy array on random chunks. */
export function lazyBig(
  values: bigint[],
  shape: number[],
  r: () => number,
  dtype: DType = 'int64',
): LazyArray {
  const data =
    dtype === 'uint64' ? BigUint64Array.from(values.map(wrapU)) : BigInt64Array.from(values);
  return fromArray(new NDArray(data, shape, dtype), {
    chunks: shape.map((n) => randomAxisChunks(n, r)),
  });
}

export const bigs = (a: NDArray): bigint[] => Array.from(a.data as BigIntArray);

/** The flat indices of every line along `axis` of a C-order array of `shape`. */
export function lines(shape: readonly number[], axis: number): number[][] {
  const post = size(shape.slice(axis + 1));
  const pre = size(shape.slice(0, axis));
  const n = shape[axis]!;
  const out: number[][] = [];
  for (let i = 0; i < pre; i++) {
    for (let q = 0; q < post; q++) {
      out.push(Array.from({ length: n }, (_, k) => (i * n + k) * post + q));
    }
  }
  return out;
}
