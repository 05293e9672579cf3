// int64 and uint64 matrix products (matmul, tensordot, einsum of two operands) against a dense
// BigInt reference, exact modulo 2^64 as NumPy's, on random shapes and chunkings (chunked
// inner axes included, so partial products are summed across tasks).

import { afterAll, describe, expect, it } from 'vitest';
import type { BigIntArray } from '../../src/array/dtype.ts';
import type { LazyArray } from '../../src/array/lazy-array.ts';
import { NDArray } from '../../src/array/ndarray.ts';
import {
  compute,
  DTypeError,
  einsum,
  fromArray,
  matmul,
  shutdown,
  tensordot,
} from '../../src/index.ts';
import { randomAxisChunks, rng } from '../helpers/reference.ts';

const SYNC = { scheduler: 'sync' } as const;

afterAll(() => shutdown());

function randomValues(n: number, r: () => number): bigint[] {
  return Array.from({ length: n }, () => {
    const u = r();
    if (u < 0.3) return BigInt(Math.floor(r() * 21) - 10);
    // large values, so products wrap modulo 2^64
    return BigInt.asIntN(
      64,
      BigInt(Math.floor(r() * 2 ** 31)) * BigInt(Math.floor(r() * 2 ** 31)) * 7n,
    );
  });
}

function lazy(
  values: bigint[],
  shape: number[],
  r: () => number,
  dtype: 'int64' | 'uint64' = 'int64',
): LazyArray {
  const data =
    dtype === 'int64'
      ? BigInt64Array.from(values)
      : BigUint64Array.from(values.map((v) => BigInt.asUintN(64, v)));
  return fromArray(new NDArray(data, shape, dtype), {
    chunks: shape.map((n) => randomAxisChunks(n, r)),
  });
}

/** C = A @ B over the last two axes of 2-d operands, modulo 2^64. */
function refMatmul(
  a: bigint[],
  b: bigint[],
  m: number,
  k: number,
  n: number,
  unsigned = false,
): bigint[] {
  const wrap = unsigned ? BigInt.asUintN : BigInt.asIntN;
  const c: bigint[] = [];
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      let s = 0n;
      for (let p = 0; p < k; p++) s += a[i * k + p]! * b[p * n + j]!;
      c.push(wrap(64, s));
    }
  }
  return c;
}

const bigs = (x: NDArray): bigint[] => Array.from(x.data as BigIntArray);

describe('int64 matrix products', () => {
  it.each([1, 2, 3, 4, 5, 6])(
    'matmul, tensordot and einsum agree with BigInt sums, seed %i',
    async (seed) => {
      const r = rng(seed * 13);
      const [m, k, n] = [1 + Math.floor(r() * 6), 1 + Math.floor(r() * 7), 1 + Math.floor(r() * 5)];
      const a = randomValues(m * k, r);
      const b = randomValues(k * n, r);
      const x = lazy(a, [m, k], r);
      const y = lazy(b, [k, n], r);
      const want = refMatmul(a, b, m, k, n);
      const [mm, td, es] = await compute(
        matmul(x, y),
        tensordot(x, y, { axes: 1 }),
        einsum('ik,kj->ij', x, y),
        SYNC,
      );
      for (const got of [mm, td, es]) {
        expect(got.dtype).toBe('int64');
        expect(got.shape).toEqual([m, n]);
        expect(bigs(got)).toEqual(want);
      }
    },
  );

  it('x.T @ x, vectors and uint64', async () => {
    const r = rng(99);
    const a = randomValues(12, r);
    const x = lazy(a, [4, 3], r);
    const at = [0, 1, 2].flatMap((j) => [0, 1, 2, 3].map((i) => a[i * 3 + j]!));
    const [gram, mv] = await compute(x.T.matmul(x), matmul(x, lazy(a.slice(0, 3), [3], r)), SYNC);
    expect(bigs(gram)).toEqual(refMatmul(at, a, 3, 4, 3));
    expect(bigs(mv)).toEqual(refMatmul(a, a.slice(0, 3), 4, 3, 1));
    const u = lazy(a, [4, 3], r, 'uint64');
    const ua = a.map((v) => BigInt.asUintN(64, v));
    const uat = at.map((v) => BigInt.asUintN(64, v));
    const ug = await compute(u.T.matmul(u), SYNC);
    expect(ug.dtype).toBe('uint64');
    expect(bigs(ug)).toEqual(refMatmul(uat, ua, 3, 4, 3, true));
  });

  it('runs on worker threads and in worker processes', async () => {
    const r = rng(5);
    const a = randomValues(30, r);
    const x = lazy(a, [5, 6], r);
    const y = lazy(a, [6, 5], r);
    const got = await compute(x.matmul(y), { workers: 2 });
    expect(bigs(got)).toEqual(refMatmul(a, a, 5, 6, 5));
    const byProcess = await compute(x.matmul(y), { scheduler: 'processes', workers: 1 });
    expect(bigs(byProcess)).toEqual(refMatmul(a, a, 5, 6, 5));
  });

  it('einsum of three int64 operands is refused when built', () => {
    const x = fromArray([
      [1n, 2n],
      [3n, 4n],
    ]);
    expect(() => einsum('ij,jk,kl->il', x, x, x)).toThrow(DTypeError);
  });
});
