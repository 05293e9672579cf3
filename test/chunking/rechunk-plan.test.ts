// Tests of rechunk planning: intersectChunks tables and tiling property; planRechunk plans
// checked for validity, memory per task and graph size per step on random chunkings.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { chunkOffsets, numBlocks } from '../../src/chunking/blocks.ts';
import { divideToWidth, groupToWidth } from '../../src/chunking/rechunk-intermediate.ts';
import {
  intersectChunks,
  planRechunk,
  rechunkGraphSize,
  rechunkTaskBytes,
} from '../../src/chunking/rechunk-plan.ts';
import type { Chunks, Size } from '../../src/chunking/types.ts';
import { configure, resetConfig } from '../../src/config.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { cutChunks } from '../helpers/reference.ts';

const rep = (v: number, n: number): number[] => new Array<number>(n).fill(v);

/** Random chunks of n (positive sizes), mostly regular with a ragged end, sometimes irregular. */
const chunkingOf = (n: number): fc.Arbitrary<number[]> =>
  fc.oneof(
    fc
      .integer({ min: 1, max: n })
      .map((s) => [...rep(s, Math.floor(n / s)), ...(n % s ? [n % s] : [])]),
    fc
      .array(fc.integer({ min: 1, max: Math.max(1, n >> 1) }), { minLength: 1, maxLength: 40 })
      .map((sizes) => cutChunks(sizes, n)),
  );

describe('intersectChunks', () => {
  test.each([
    [
      [5, 5],
      [3, 4, 3],
      [
        [[0, 0, 3]],
        [
          [0, 3, 5],
          [1, 0, 2],
        ],
        [[1, 2, 5]],
      ],
    ],
    [[10], [10], [[[0, 0, 10]]]],
    [
      [3, 0, 4],
      [7],
      [
        [
          [0, 0, 3],
          [2, 0, 4],
        ],
      ],
    ],
    [[7], [3, 0, 4], [[[0, 0, 3]], [[0, 3, 3]], [[0, 3, 7]]]],
    [
      [4, 3],
      [4, 0, 3],
      [[[0, 0, 4]], [[1, 0, 0]], [[1, 0, 3]]],
    ],
    [[0], [0], [[[0, 0, 0]]]],
  ])('%j -> %j', (o, n, expected) => {
    const got = intersectChunks(o, n).map((ps) => ps.map((p) => [p.block, p.start, p.stop]));
    expect(got).toEqual(expected);
  });

  test('sizes that differ throw', () => {
    expectThrow(() => intersectChunks([3, 3], [7]), 'ChunkError', ['rechunk:', '(7,)', '(3, 3)']);
  });

  test('pieces tile every new chunk, in order, inside their old blocks', () => {
    const pair = fc
      .integer({ min: 1, max: 60 })
      .chain((n) => fc.tuple(chunkingOf(n), chunkingOf(n)));
    fc.assert(
      fc.property(pair, ([o, n]) => {
        const oldOff = chunkOffsets(o);
        const newOff = chunkOffsets(n);
        intersectChunks(o, n).forEach((pieces, j) => {
          let pos = newOff[j]!;
          for (const p of pieces) {
            expect(p.start).toBeGreaterThanOrEqual(0);
            expect(p.stop).toBeLessThanOrEqual(o[p.block]!);
            expect(oldOff[p.block]! + p.start).toBe(pos);
            expect(p.stop).toBeGreaterThan(p.start);
            pos += p.stop - p.start;
          }
          expect(pos).toBe(newOff[j + 1]);
        });
      }),
    );
  });
});

describe('graph size and task bytes', () => {
  test.each([
    [
      [[5, 5], [4]],
      [
        [3, 4, 3],
        [2, 2],
      ],
      8,
    ],
    [[[5, 5], [4]], [[5, 5], [4]], 2],
    [[[10000], rep(100, 100)], [rep(100, 100), [10000]], 10000],
    [
      [[null, null], [4]],
      [
        [null, null],
        [2, 2],
      ],
      4,
    ],
    [[], [], 1],
  ] as [Chunks, Chunks, number][])('rechunkGraphSize(%j, %j) = %d', (o, n, expected) => {
    expect(rechunkGraphSize(o, n)).toBe(expected);
  });

  test.each([
    [[[5, 5]], [[10]], 8, 160],
    [[[10]], [[3, 3, 4]], 8, 64],
    [[[2, 2], [3]], [[4], [1, 2]], 4, 2 * 4 * 2 * 4],
    [[[0]], [[0]], 8, 0],
    [[], [], 8, 16],
  ] as [Chunks, Chunks, number, number][])(
    'rechunkTaskBytes(%j, %j, %d) = %d',
    (o, n, itemsize, expected) => {
      expect(rechunkTaskBytes(o, n, itemsize)).toBe(expected);
    },
  );

  test('divideToWidth and groupToWidth', () => {
    expect(divideToWidth([10, 3], 4)).toEqual([3, 3, 4, 3]);
    expect(divideToWidth([10000], 1666)).toEqual([1428, 1428, 1428, 1429, 1429, 1429, 1429]);
    expect(groupToWidth([2, 2, 2, 2, 2], 5)).toEqual([4, 4, 2]);
    expect(groupToWidth([7, 1, 1], 5)).toEqual([7, 2]);
  });
});

describe('planRechunk', () => {
  const transposeOld = [[10000], rep(100, 100)];
  const transposeNew = [rep(100, 100), [10000]];

  test('direct when cheap', () => {
    expect(planRechunk([[5, 5], [4]], [[10], [2, 2]], 8)).toEqual([[[10], [2, 2]]]);
    expect(planRechunk([rep(1, 1000)], [[1000]], 8)).toEqual([[[1000]]]);
    expect(
      planRechunk(
        [[null, null], [4]],
        [
          [null, null],
          [2, 2],
        ],
        8,
      ),
    ).toEqual([
      [
        [null, null],
        [2, 2],
      ],
    ]);
    expect(planRechunk([[0], [4]], [[0], [2, 2]], 8)).toEqual([[[0], [2, 2]]]);
  });

  test.each([16e6, 64e6, undefined])(
    '(10000, 100) -> (100, 10000) float64 with memoryLimit %s gets intermediates',
    (memoryLimit) => {
      const plan = planRechunk(transposeOld, transposeNew, 8, { memoryLimit });
      expect(plan.length).toBeGreaterThan(1);
      expect(plan[plan.length - 1]).toEqual(transposeNew);
      const limit = memoryLimit ?? 4 * 128 * 2 ** 20;
      let prev: Chunks = transposeOld;
      let total = 0;
      for (const step of plan) {
        expect(rechunkTaskBytes(prev, step, 8)).toBeLessThanOrEqual(limit);
        const g = rechunkGraphSize(prev, step);
        expect(g).toBeLessThanOrEqual(4 * (numBlocks(prev) + numBlocks(step)));
        total += g;
        prev = step;
      }
      // far fewer pieces than the direct all-to-all rechunk
      expect(total).toBeLessThan(rechunkGraphSize(transposeOld, transposeNew) / 2);
    },
  );

  test('memoryLimit defaults to 4 x config.chunkBytes', () => {
    configure({ chunkBytes: 4e6 });
    try {
      const plan = planRechunk(transposeOld, transposeNew, 8);
      let prev: Chunks = transposeOld;
      for (const step of plan) {
        expect(rechunkTaskBytes(prev, step, 8)).toBeLessThanOrEqual(16e6);
        prev = step;
      }
    } finally {
      resetConfig();
    }
  });

  test('targets larger than memoryLimit are allowed as the minimum', () => {
    const plan = planRechunk(transposeOld, transposeNew, 8, { memoryLimit: 1000 });
    expect(plan[plan.length - 1]).toEqual(transposeNew);
    let prev: Chunks = transposeOld;
    for (const step of plan) {
      expect(rechunkTaskBytes(prev, step, 8)).toBeLessThanOrEqual(2 * 8 * 1e6);
      prev = step;
    }
  });

  test.each([
    [[[3, 4]], [[3, 3]], {}, 'ChunkError', ['rechunk: chunks (3, 3) sum to 6, not 7, on axis 0']],
    [[[3, 4]], [[7], [1]], {}, 'ChunkError', ['rechunk:', '2 axes', 'has 1']],
    [
      [[null, null], [4]],
      [[null], [4]],
      {},
      'ChunkError',
      ['rechunk:', 'axis 0', 'computeChunkSizes'],
    ],
    [[[7], [4]], [[7], [null]], {}, 'ChunkError', ['rechunk:', 'axis 1', 'computeChunkSizes']],
    [[[7]], [[7]], { memoryLimit: 0 }, 'ValueError', ['rechunk:', 'memoryLimit 0']],
    [[[7]], [[7]], { graphSizeThreshold: -1 }, 'ValueError', ['graphSizeThreshold -1']],
  ] as [Size[][], Size[][], object, string, string[]][])(
    'planRechunk(%j, %j, %j) throws %s',
    (o, n, opts, tag, fragments) => {
      expectThrow(() => planRechunk(o, n, 8, opts), tag, fragments);
    },
  );

  test('random plans: valid steps, target at the end, tasks within memory, small graphs', () => {
    const input = fc
      .array(fc.integer({ min: 1, max: 300 }), { minLength: 2, maxLength: 3 })
      .chain((shape) =>
        fc.record({
          shape: fc.constant(shape),
          old: fc.tuple(...shape.map(chunkingOf)),
          target: fc.tuple(...shape.map(chunkingOf)),
          itemsize: fc.constantFrom(1, 4, 8),
          memoryLimit: fc.integer({ min: 16, max: 2_000_000 }),
          threshold: fc.double({ min: 1, max: 8, noNaN: true }),
        }),
      );
    fc.assert(
      fc.property(input, ({ shape, old, target, itemsize, memoryLimit, threshold }) => {
        const opts = { memoryLimit, graphSizeThreshold: threshold };
        const plan = planRechunk(old, target, itemsize, opts);
        expect(plan[plan.length - 1]).toEqual(target);
        const fits = (c: Chunks) => rechunkTaskBytes(c, c, itemsize) <= memoryLimit;
        const bound = (a: Chunks, b: Chunks) => threshold * (numBlocks(a) + numBlocks(b));
        if (plan.length === 1)
          expect(rechunkGraphSize(old, target)).toBeLessThanOrEqual(bound(old, target));
        let prev: Chunks = old;
        for (const step of plan) {
          step.forEach((axis, ax) => {
            expect(axis.reduce((s: number, c) => s + c!, 0)).toBe(shape[ax]);
            for (const c of axis) expect(c).toBeGreaterThan(0);
          });
          if (fits(old) && fits(target)) {
            expect(rechunkTaskBytes(prev, step, itemsize)).toBeLessThanOrEqual(memoryLimit);
          }
          if (plan.length > 1)
            expect(rechunkGraphSize(prev, step)).toBeLessThanOrEqual(bound(prev, step));
          prev = step;
        }
      }),
      { numRuns: 300 },
    );
  });
});
