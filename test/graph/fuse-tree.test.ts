// Coarsened reduction trees: with at least MIN_PARTIALS partial blocks, the first combine
// level computes its partials itself; task counts pinned, values bit-identical to the
// unoptimized graph, small reductions untouched.

import { describe, expect, test } from 'vitest';
import { compute } from '../../src/array/compute.ts';
import { fromArray } from '../../src/array/from-array.ts';
import type { LazyArray } from '../../src/array/lazy-array.ts';
import { fuseLayers } from '../../src/graph/fuse.ts';
import { MIN_COARSE, MIN_PARTIALS } from '../../src/graph/fuse-tree.ts';
import { materializeTasks, runnableCount } from '../../src/graph/materialize.ts';
import '../../src/index.ts';
import { randomDense } from '../helpers/reference.ts';

// randomDense floats sum exactly in any order, so fused and unfused graphs compare bit for
// bit here even where a fused sum adds in an order of its own (see backends/cpu-js/elementwise/ew-rows.ts)

const tasks = (y: LazyArray): number => runnableCount(materializeTasks(fuseLayers([y.layer])));

describe('absorbPartials', () => {
  const x = fromArray(randomDense([64, 64], 'float64', 4), { chunks: 2 }); // 1024 blocks

  test.each<[string, () => LazyArray, number]>([
    // 32 × 32 partials: 8 × 8 combines run them, then 2 × 2 combines and the aggregate
    ['x.sum()', () => x.sum(), 64 + 4 + 1],
    ['(x * 2 - 1).max()', () => x.mul(2).sub(1).max(), 64 + 4 + 1],
    ['x.std()', () => x.std(), 64 + 4 + 1],
    // axis 0 only: 32 partial rows of 32, combines of 4 rows: 8 × 32, then 2 × 32, aggregate 32
    ['x.mean(axis 0)', () => x.mean({ axis: 0 }), 8 * 32 + 2 * 32 + 32],
  ])('%s: tasks after coarsening, values as unoptimized', async (_, build, count) => {
    expect(MIN_PARTIALS).toBeLessThanOrEqual(1024);
    expect(tasks(build())).toBe(count);
    const fused = await compute(build(), { scheduler: 'sync' });
    const plain = await compute(build(), { scheduler: 'sync', optimize: false });
    expect(fused.shape).toEqual(plain.shape);
    for (let i = 0; i < fused.size; i++) expect(Object.is(fused.data[i], plain.data[i])).toBe(true);
    const onThreads = await compute(build(), { scheduler: 'threads', workers: 2 });
    for (let i = 0; i < fused.size; i++)
      expect(Object.is(fused.data[i], onThreads.data[i])).toBe(true);
  });

  test('partials over views of one source pack into ew-reduce-views sharing one object', () => {
    const table = materializeTasks(fuseLayers([x.mul(2).sum().layer]));
    const coarse = table.layers.find((l) => l.meta?.absorbed !== undefined)!;
    const [a, b] = [coarse.task([0, 0]), coarse.task([3, 5])];
    expect([a.kernel, b.kernel]).toEqual(['ew-reduce-views', 'ew-reduce-views']);
    const [pa, pb] = [a.params, b.params] as { shared: unknown; packed: unknown }[];
    expect(pa!.shared).toBe(pb!.shared);
    expect(pa!.packed).toBeInstanceOf(Int32Array);
    // a transposed operand's view permutes axes: left as fused steps
    const t = materializeTasks(fuseLayers([x.add(x.T).sum().layer]));
    expect(t.layers.find((l) => l.meta?.absorbed !== undefined)!.task([0, 0]).kernel).toBe('fused');
  });

  // 128 × 128 blocks of one element: 32 × 32 coarse tasks (≥ MIN_COARSE, tiny), absorbed by
  // the 8 × 8 combines; then 2 × 2 combines and the aggregate. Along axis 0: 32 × 128 coarse
  // tasks, absorbed by 8 × 128, those by 2 × 128; then the aggregate's 128
  const many = fromArray(randomDense([128, 128], 'float64', 6), { chunks: 1 });
  test.each<[string, () => LazyArray, number]>([
    ['x.sum()', () => many.sum(), 64 + 4 + 1],
    ['(x * 2).max()', () => many.mul(2).max(), 64 + 4 + 1],
    ['x.std()', () => many.std(), 64 + 4 + 1],
    ['x.mean(axis 0)', () => many.mean({ axis: 0 }), 2 * 128 + 128],
  ])(
    '%s: many small coarse tasks are absorbed again, values unchanged',
    async (_, build, count) => {
      expect(MIN_COARSE).toBeLessThanOrEqual(32 * 32);
      expect(tasks(build())).toBe(count);
      const fused = await compute(build(), { scheduler: 'sync' });
      const plain = await compute(build(), { scheduler: 'sync', optimize: false });
      const onThreads = await compute(build(), { scheduler: 'threads', workers: 2 });
      expect(fused.shape).toEqual(plain.shape);
      for (let i = 0; i < plain.size; i++) {
        expect(Object.is(fused.data[i], plain.data[i])).toBe(true);
        expect(Object.is(onThreads.data[i], plain.data[i])).toBe(true);
      }
    },
  );

  test('fewer partials than MIN_PARTIALS keep one task per block', () => {
    const small = fromArray(randomDense([64, 64], 'float64', 5), { chunks: 4 }); // 256 blocks
    expect(tasks(small.sum())).toBe(256 + 16 + 1);
  });
});
