// A 4 GiB float32 pipeline in 64 MiB chunks on the GPU under memoryLimit: the blocks are made
// on the device (random uniforms), transformed, and reduced twice (so each transformed block
// is held in a GPU buffer until both reductions read it); device bytes stay bounded.

import { afterAll, describe, expect, test } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import { compute, type RunStats, random, shutdown, withDevice } from '../../src/index.ts';
import { announceTier, hasGpu } from './tier.ts';

announceTier('memory-gpu.test.ts');
afterAll(() => shutdown());

describe.skipIf(!hasGpu)('bounded device memory', () => {
  test('4 GiB in 64 MiB chunks under a 512 MiB memoryLimit', async () => {
    const n = 2 ** 30;
    const chunk = 2 ** 24;
    const limit = 512 * 2 ** 20;
    const x = withDevice('gpu', () =>
      random.uniform([n], { seed: 1, chunks: chunk, dtype: 'float32' }),
    );
    const y = x.mul(2).add(1);
    let stats: RunStats | undefined;
    const [s, m] = await compute(y.sum(), y.max(), {
      allowTransfer: true,
      memoryLimit: limit,
      onStats: (st) => {
        stats = st;
      },
    });
    expect((s!.data as NumberArray)[0]! / n).toBeCloseTo(2, 3);
    expect(m!.data[0]).toBeLessThanOrEqual(3);
    // the limit holds new blocks back; what is in flight when it is reached may overshoot it
    expect(stats!.peakDeviceBytes).toBeGreaterThan(0);
    expect(stats!.peakDeviceBytes).toBeLessThanOrEqual(limit + 4 * chunk * 4);
    expect(stats!.peakLiveBytes).toBeLessThan(64 * 2 ** 20); // host: only the tiny partials
  }, 400_000);
});
