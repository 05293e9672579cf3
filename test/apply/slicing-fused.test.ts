// Slices with negative steps read in place by their consumer (the slice layer joins the
// consumer's fused task): values against dense references for reductions and elementwise
// consumers on random shapes, chunkings and steps; and the task count of the fused graph.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { getitem } from '../../src/apply/slicing.ts';
import type { NumberArray } from '../../src/array/dtype.ts';
import { NDArray } from '../../src/array/ndarray.ts';
import type { IndexItem } from '../../src/chunking/parse-index.ts';
import { fuseLayers } from '../../src/graph/fuse.ts';
import { materializeTasks } from '../../src/graph/materialize.ts';
import { compute, fromArray, persist } from '../../src/index.ts';
import { arbShapeAndChunks, expectArray, randomDense, rng } from '../helpers/reference.ts';
import { denseGet } from './indexing-reference.ts';
import { denseReduce, folds } from './reduction-reference.ts';

const SYNC = { scheduler: 'sync' } as const;

/** One slice per axis with a random step (negative half the time) and random bounds. */
function reversedIndex(shape: readonly number[], r: () => number): IndexItem[] {
  return shape.map((n) => {
    const step = [-1, -1, -2, -3, 1, 2][Math.floor(r() * 6)]!;
    const s: { start?: number; stop?: number; step: number } = { step };
    if (r() < 0.4) s.start = Math.floor(r() * (n + 2)) - 1;
    if (r() < 0.4) s.stop = Math.floor(r() * (n + 2)) - 1;
    return s;
  });
}

describe('slices with negative steps feeding a consumer', () => {
  test.each([
    ['sum', folds.sum],
    ['mean', folds.mean],
    ['max', folds.max],
  ] as const)('%s over random axes equals the dense reference', async (op, fold) => {
    await fc.assert(
      fc.asyncProperty(arbShapeAndChunks(3, 7), async ({ shape, chunks, seed }) => {
        const r = rng(seed);
        const dense = randomDense(shape, 'float64', seed);
        const [x] = await persist(fromArray(dense, { chunks }), SYNC);
        const index = reversedIndex(shape, r);
        const want = denseGet(dense, index);
        if (op === 'max' && want.size === 0) return; // no identity
        const axes = want.shape.flatMap((_, ax) => (r() < 0.5 ? [ax] : []));
        const y = getitem(x!, index)[op]({ axis: axes });
        const got = await compute(y, SYNC);
        expectArray(got, denseReduce(want, axes, false, 'float64', fold), 1e-9);
      }),
      { numRuns: 60 },
    );
  });

  test('an elementwise consumer, and float32 data', async () => {
    await fc.assert(
      fc.asyncProperty(arbShapeAndChunks(3, 7), async ({ shape, chunks, seed }) => {
        const dense = randomDense(shape, 'float32', seed);
        const [x] = await persist(fromArray(dense, { chunks }), SYNC);
        const index = reversedIndex(shape, rng(seed));
        const want = denseGet(dense, index);
        const got = await compute(getitem(x!, index).mul(2).add(1), SYNC);
        const ref = new NDArray(
          Float32Array.from(want.data as NumberArray, (v) => v * 2 + 1),
          want.shape,
          'float32',
        );
        expectArray(got, ref, 1e-6);
      }),
      { numRuns: 60 },
    );
  });

  test("x.get('::-1, :').mean(0) runs the slice inside the reduction's tasks", async () => {
    const dense = randomDense([8, 6], 'float64', 3);
    const [x] = await persist(fromArray(dense, { chunks: [2, 3] }), SYNC);
    const y = x!.get('::-1, :').mean({ axis: 0 });
    const plain = x!.mean({ axis: 0 });
    // the same tasks as the mean of x itself: no separate slice task per block
    const tasks = (l: typeof y) => materializeTasks(fuseLayers([l.layer])).count;
    expect(tasks(y)).toBe(tasks(plain));
    expectArray(await compute(y, SYNC), await compute(plain, SYNC), 1e-12);
  });
});
