// zoom on the GPU: the same taps as the CPU (one definition), a float32 volume resampled by
// the 'zoom-axis' shader for orders 0, 1 and 3, against the CPU on random shapes.

import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import type { Layer } from '../../src/graph/layer.ts';
import { compute, random, shutdown, toDevice, zoom } from '../../src/index.ts';
import { announceTier, expectClose, hasGpu } from './tier.ts';

announceTier('zoom-gpu.test.ts');

/** The backends of every 'zoom' layer of a graph. */
function zoomBackends(layer: Layer, seen = new Set<string>()): string[] {
  if (seen.has(layer.name)) return [];
  seen.add(layer.name);
  const own = layer.op === 'zoom' ? [layer.backend?.name ?? 'cpu-js'] : [];
  return [...new Set([...own, ...layer.deps.flatMap((d) => zoomBackends(d, seen))])];
}
afterAll(() => shutdown());

describe.skipIf(!hasGpu)('zoom on the GPU', () => {
  test('runs on webgpu and equals the CPU for every order', async () => {
    const x = random.uniform([12, 10, 9], { seed: 5, chunks: [5, 4, 9], dtype: 'float32' });
    for (const order of [0, 1, 3] as const) {
      const g = zoom(toDevice(x, 'gpu'), [2, 0.6, 1.5], { order });
      expect(g.device).toBe('gpu');
      expect(zoomBackends(g.layer)).toEqual(['webgpu']);
      const [a, b] = [
        await compute(toDevice(g, 'cpu')),
        await compute(zoom(x, [2, 0.6, 1.5], { order })),
      ];
      expect(a.shape).toEqual(b.shape);
      expectClose(a.data, b.data, 1e-5, 1e-5, `order ${order}`);
    }
  }, 60_000);

  test('random shapes and factors', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 3 }),
        fc.constantFrom(0, 1, 3),
        fc.constantFrom(0.5, 1.3, 2),
        async (shape, order, f) => {
          const x = random.uniform(shape, { seed: 1, chunks: 4, dtype: 'float32' });
          const o = order as 0 | 1 | 3;
          const a = await compute(toDevice(zoom(toDevice(x, 'gpu'), f, { order: o }), 'cpu'));
          const b = await compute(zoom(x, f, { order: o }));
          expectClose(a.data, b.data, 1e-5, 1e-5);
        },
      ),
      { numRuns: 10 },
    );
  }, 120_000);
});
