// float16 through topk, argtopk and coarsen: widened exactly to float32, the result rounded
// once to float16 (NumPy's float16 reductions accumulate in float32 too), against dense loops.

import { afterAll, describe, expect, test } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import { float16Value, roundToFloat16 } from '../../src/array/float16.ts';
import { argtopk, astype, coarsen, compute, fromArray, shutdown, topk } from '../../src/index.ts';
import { rng } from '../helpers/reference.ts';

afterAll(() => shutdown());
const SYNC = { scheduler: 'sync' } as const;

/** n distinct float16-exact values (multiples of 1/8 below 256), shuffled by `seed`. */
function distinct(n: number, seed: number): Float32Array {
  const r = rng(seed);
  const v = Array.from({ length: n }, (_, i) => (i - n / 2) / 8);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [v[i], v[j]] = [v[j]!, v[i]!];
  }
  return Float32Array.from(v);
}

const values16 = (bits: ArrayLike<number>): number[] => Array.from(bits, (b) => float16Value(b));

describe('float16 windows and selections', () => {
  test('topk and argtopk of float16 equal a dense selection, values stay float16', async () => {
    for (const [n, chunk, k] of [
      [40, 7, 5],
      [33, 33, -4],
      [100, 9, 12],
    ] as const) {
      const d = distinct(n, n + k);
      const x = astype(fromArray(d, { chunks: chunk }), 'float16');
      const order = [...d.keys()].sort((i, j) => (k > 0 ? d[j]! - d[i]! : d[i]! - d[j]!));
      const want = order.slice(0, Math.abs(k));
      const [v, i] = await compute(topk(x, k), argtopk(x, k), SYNC);
      expect(v.dtype).toBe('float16');
      expect(values16(v.data as NumberArray)).toEqual(want.map((j) => d[j]!));
      expect(Array.from(i.data as NumberArray)).toEqual(want);
    }
  });

  test('coarsen of float16 rounds the float32 window reduction once', async () => {
    const r = rng(3);
    const [rows, cols] = [12, 10];
    const d = Float32Array.from({ length: rows * cols }, () => roundToFloat16(r() * 100 - 50));
    const x = astype(fromArray(d, { shape: [rows, cols], chunks: [5, 4] }), 'float16');
    for (const name of ['mean', 'sum', 'max'] as const) {
      const got = await compute(coarsen(name, x, { 0: 3, 1: 2 }), SYNC);
      expect(got.dtype).toBe('float16');
      expect(got.shape).toEqual([4, 5]);
      const out = values16(got.data as NumberArray);
      for (let i = 0; i < 4; i++) {
        for (let j = 0; j < 5; j++) {
          const w: number[] = [];
          for (let a = 0; a < 3; a++)
            for (let b = 0; b < 2; b++) w.push(d[(3 * i + a) * cols + 2 * j + b]!);
          const exact =
            name === 'max'
              ? Math.max(...w)
              : w.reduce((s, v) => s + v, 0) / (name === 'mean' ? 6 : 1);
          // one rounding to float16 (of a float32 accumulation: within one float16 ulp)
          const ulp = 2 ** (Math.floor(Math.log2(Math.max(Math.abs(exact), 2 ** -14))) - 10);
          expect(Math.abs(out[i * 5 + j]! - roundToFloat16(exact))).toBeLessThanOrEqual(ulp);
        }
      }
    }
    const any = await compute(coarsen('any', x, { 0: 2 }), SYNC);
    expect(any.dtype).toBe('bool');
  });
});
