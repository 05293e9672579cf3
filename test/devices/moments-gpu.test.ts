// var and std of GPU arrays run on the GPU (two passes of its own kernels) and equal the
// CPU's one-pass merge within float32 tolerance, over any axes and corrections.

import { afterAll, describe, expect, test } from 'vitest';
import { compute, random, shutdown, toDevice } from '../../src/index.ts';
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
