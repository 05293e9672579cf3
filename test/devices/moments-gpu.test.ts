// var and std of GPU arrays run on the GPU (two passes of its own kernels) and equal the
// CPU's one-pass merge within float32 tolerance, over any axes and corrections.

import { afterAll, describe, expect, test } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import { compute, fromArray, random, shutdown, toDevice } from '../../src/index.ts';
import { announceTier, expectClose, hasGpu } from './tier.ts';

announceTier('moments-gpu.test.ts');
afterAll(() => shutdown());

describe.skipIf(!hasGpu)('var and std on the GPU', () => {
  const x = random.normal([40, 33, 6], { seed: 8, chunks: [7, 5, 6], dtype: 'float32' });
  test.each([
    ['var', undefined, 0, false],
    ['std', 0, 1, false],
    ['var', [0, 2], 0, true],
    ['std', 1, 1, true],
  ] as const)(
    '%s axis %j correction %i keepdims %s',
    async (fn, axis, correction, keepdims) => {
      const opts = {
        ...(axis === undefined ? {} : { axis: axis as number | number[] }),
        correction,
        keepdims,
      };
      const g = fn === 'var' ? toDevice(x, 'gpu').var(opts) : toDevice(x, 'gpu').std(opts);
      expect(g.device).toBe('gpu');
      const c = fn === 'var' ? x.var(opts) : x.std(opts);
      const [a, b] = [await compute(toDevice(g, 'cpu')), await compute(c)];
      expect(a.shape).toEqual(b.shape);
      expectClose(a.data, b.data, 1e-4, 1e-5, fn);
    },
    60_000,
  );
});

describe.skipIf(!hasGpu)('argmin and argmax on the GPU', () => {
  // ties (rounded values) and NaNs: the first index wins, a NaN beats any number
  const n = 24 * 10 * 3;
  const data = new Float32Array(n);
  for (let i = 0; i < n; i++) data[i] = Math.round(Math.sin(i * 1.7) * 4);
  data[37] = Number.NaN;
  data[500] = Number.NaN;
  const x = fromArray(data, { shape: [24, 10, 3], chunks: [5, 4, 3] });
  const clean = fromArray(
    Float32Array.from(data, (v) => (Number.isNaN(v) ? 0 : v)),
    {
      shape: [24, 10, 3],
      chunks: [7, 3, 2],
    },
  );
  test.each([
    ['argmin', undefined, false],
    ['argmax', 0, false],
    ['argmin', 1, true],
    ['argmax', 2, false],
    ['argmax', undefined, true],
  ] as const)(
    '%s axis %j keepdims %s',
    async (fn, axis, keepdims) => {
      for (const a of [x, clean]) {
        const opts = { ...(axis === undefined ? {} : { axis }), keepdims };
        const g = toDevice(a, 'gpu')[fn](opts);
        expect(g.device).toBe('gpu');
        expect(g.dtype).toBe('int32');
        const [got, want] = [await compute(toDevice(g, 'cpu')), await compute(a[fn](opts))];
        expect(got.shape).toEqual(want.shape);
        expect(Array.from(got.data as NumberArray)).toEqual(Array.from(want.data as NumberArray));
      }
    },
    60_000,
  );
});
