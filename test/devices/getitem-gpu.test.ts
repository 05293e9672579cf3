// Integer indexing (NumPy basic indexing that drops or adds axes) of GPU arrays runs on the
// GPU ('getitem' as a strided copy), equal to the CPU.

import { afterAll, describe, expect, test } from 'vitest';
import { compute, random, shutdown, toDevice } from '../../src/index.ts';
import { announceTier, expectClose, hasGpu } from './tier.ts';

announceTier('getitem-gpu.test.ts');
afterAll(() => shutdown());

describe.skipIf(!hasGpu)('getitem on the GPU', () => {
  const x = random.uniform([9, 10, 7], { seed: 4, chunks: [4, 3, 7], dtype: 'float32' });
  test.each(['4', '1:5, 3', '::-2, None, 2, 1:', '..., 0', '-1, ::3'])(
    '%s',
    async (index) => {
      const g = toDevice(x, 'gpu').get(index);
      expect(g.device).toBe('gpu');
      const [a, b] = [await compute(toDevice(g, 'cpu')), await compute(x.get(index))];
      expect(a.shape).toEqual(b.shape);
      expectClose(a.data, b.data, 0, 0, index);
    },
    60_000,
  );
});
