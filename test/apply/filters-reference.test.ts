// gaussianFilter against a dense loop of scipy's algorithm (extend by the mode, one float64
// correlation per axis, each pass stored in the dtype) on random shapes, chunkings, modes and
// dtypes, with NaN and infinities: the chunked result must not depend on the chunking.

import { afterAll, beforeAll, describe, test, vi } from 'vitest';
import { type DType, type NumberArray, typedArrayCtor } from '../../src/array/dtype.ts';
import { cStrides, NDArray, shapeSize } from '../../src/array/ndarray.ts';
import { compute, type FilterMode, fromArray, gaussianFilter, shutdown } from '../../src/index.ts';
import { expectArray, randomAxisChunks, rng } from '../helpers/reference.ts';

beforeAll(() => {
  vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
});
afterAll(() => {
  vi.restoreAllMocks();
  return shutdown();
});

const MODES: FilterMode[] = ['reflect', 'mirror', 'nearest', 'wrap', 'constant'];

/** The index read for position j of an axis of n (null: the constant). */
function extend(j: number, n: number, mode: FilterMode): number | null {
  if (j >= 0 && j < n) return j;
  if (mode === 'constant') return null;
  if (mode === 'nearest') return j < 0 ? 0 : n - 1;
  if (mode === 'wrap') return ((j % n) + n) % n;
  if (mode === 'reflect') {
    const k = ((j % (2 * n)) + 2 * n) % (2 * n);
    return k < n ? k : 2 * n - 1 - k;
  }
  if (n === 1) return 0;
  const k = ((j % (2 * n - 2)) + 2 * n - 2) % (2 * n - 2);
  return k < n ? k : 2 * n - 2 - k;
}

function weights(sigma: number): number[] {
  const r = Math.trunc(4 * sigma + 0.5);
  const w = Array.from({ length: 2 * r + 1 }, (_, i) =>
    Math.exp((-0.5 * (i - r) ** 2) / sigma ** 2),
  );
  const total = w.reduce((a, b) => a + b, 0);
  return w.map((v) => v / total);
}

function referenceGaussian(x: NDArray, sigma: number, mode: FilterMode, cval: number): NDArray {
  const w = weights(sigma);
  const r = (w.length - 1) / 2;
  const st = cStrides(x.shape);
  let cur = x.data as NumberArray;
  for (let ax = 0; ax < x.shape.length; ax++) {
    const n = x.shape[ax]!;
    const out = new (typedArrayCtor(x.dtype))(cur.length) as NumberArray;
    for (let o = 0; o < cur.length; o++) {
      const i = Math.floor(o / st[ax]!) % n;
      const base = o - i * st[ax]!;
      const read = (j: number) => {
        const k = extend(j, n, mode);
        return k === null ? cval : cur[base + k * st[ax]!]!;
      };
      let s = w[r]! * read(i);
      for (let t = 1; t <= r; t++) s += w[r + t]! * (read(i - t) + read(i + t));
      out[o] = s;
    }
    cur = out;
  }
  return new NDArray(cur, x.shape, x.dtype);
}

describe('gaussianFilter matches a dense loop on random shapes and chunkings', () => {
  const cases = MODES.flatMap((mode) =>
    (['float32', 'float64'] as const).map((dtype): [FilterMode, DType] => [mode, dtype]),
  );
  test.each(cases)('%s %s', async (mode, dtype) => {
    const r = rng(mode.length * 31 + dtype.length);
    for (let trial = 0; trial < 6; trial++) {
      const ndim = 1 + Math.floor(r() * 3);
      const shape = Array.from({ length: ndim }, () => 5 + Math.floor(r() * 8));
      const data = new (typedArrayCtor(dtype))(shapeSize(shape));
      for (let i = 0; i < data.length; i++) {
        const u = r();
        data[i] = u < 0.01 ? Number.NaN : u < 0.02 ? Infinity : u * 20 - 10;
      }
      const dense = new NDArray(data, shape, dtype);
      const sigma = [0.4, 0.8, 1.2][Math.floor(r() * 3)]!;
      const cval = mode === 'constant' ? 1.5 : 0;
      const chunks = shape.map((n) => randomAxisChunks(n, r));
      const x = fromArray(dense, { chunks });
      const got = await compute(gaussianFilter(x, sigma, { mode, cval }), { scheduler: 'sync' });
      const want = referenceGaussian(dense, sigma, mode, cval);
      expectArray(got, want, dtype === 'float32' ? 1e-5 : 1e-12);
    }
  });
});
