// Functions that compute in float64 (linear algebra, FFTs, quantiles, bincount, zoom) take
// int64 and uint64 arrays as NumPy does: widened to float64, so each result equals the same
// function of astype(x, 'float64'), on random values and chunkings.

import { describe, expect, it } from 'vitest';
import type { LazyArray } from '../../src/array/lazy-array.ts';
import { NDArray } from '../../src/array/ndarray.ts';
import {
  bincount,
  compute,
  DTypeError,
  fft,
  fromArray,
  histogram,
  linalg,
  median,
  percentile,
  zoom,
} from '../../src/index.ts';
import { randomAxisChunks, rng } from '../helpers/reference.ts';

const SYNC = { scheduler: 'sync' } as const;

function randomInts(shape: number[], seed: number, dtype: 'int64' | 'uint64'): LazyArray {
  const r = rng(seed);
  const n = shape.reduce((a, b) => a * b, 1);
  const values = Array.from({ length: n }, () =>
    BigInt(Math.floor(r() * 2000) - (dtype === 'int64' ? 1000 : 0)),
  );
  const data = dtype === 'int64' ? BigInt64Array.from(values) : BigUint64Array.from(values);
  return fromArray(new NDArray(data, shape, dtype), {
    chunks: shape.map((s) => randomAxisChunks(s, r)),
  });
}

const CASES: [string, (x: LazyArray) => LazyArray, number[]][] = [
  ['linalg.det', (x) => linalg.det(x), [3, 4, 4]],
  ['linalg.inv', (x) => linalg.inv(x), [2, 3, 3]],
  ['linalg.solve', (x) => linalg.solve(x, x), [3, 3]],
  ['fft.rfft', (x) => fft.rfft(x), [3, 10]],
  ['fft.fft', (x) => fft.fft(x, { axis: 0 }), [7, 2]],
  ['percentile', (x) => percentile(x, 30, { axis: 1 }), [4, 9]],
  ['median', (x) => median(x), [5, 5]],
  ['zoom', (x) => zoom(x, 2, { order: 1 }), [4, 3]],
  ['histogram', (x) => histogram(x, { bins: 5 })[0], [6, 7]],
];

describe('int64 and uint64 widened to float64', () => {
  for (const [name, f, shape] of CASES) {
    it.each([1, 2, 3])(`${name} equals ${name} of astype float64, seed %i`, async (seed) => {
      for (const dtype of ['int64', 'uint64'] as const) {
        const x = randomInts(shape, seed * 7 + name.length, dtype);
        const [got, want] = await compute(f(x), f(x.astype('float64')), SYNC);
        expect(got.dtype).toBe(want.dtype);
        expect(got.shape).toEqual(want.shape);
        expect(Array.from(got.data as Float64Array)).toEqual(Array.from(want.data as Float64Array));
      }
    });
  }

  it('bincount counts int64 values', async () => {
    const x = fromArray([3n, 0n, 3n, 1n], { chunks: 3 });
    expect((await compute(bincount(x), SYNC)).toNested()).toEqual([1, 1, 0, 2]);
  });

  it('a function whose result would be int64 still refuses it, naming the function', () => {
    const x = fromArray([[1n, 2n, 3n]]);
    expect(() => linalg.cross(x, x)).toThrow(DTypeError);
    expect(() => linalg.cross(x, x)).toThrow(/^linalg: dtype 'int64' is not supported/);
  });
});
