// The approximate chunk-parallel quantile path: its rank bound on random data, exactness
// while no summary drops a point, no rechunk in the graph, NaN handling, option errors.

import { afterAll, describe, expect, test } from 'vitest';
import { nanquantile, percentile, quantile } from '../../src/apply/percentile.ts';
import type { NumberArray } from '../../src/array/dtype.ts';
import { materializeTasks } from '../../src/graph/materialize.ts';
import { compute, fromArray, type NDArray, random, shutdown } from '../../src/index.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { expectArray, randomDense } from '../helpers/reference.ts';

afterAll(() => shutdown());
const SYNC = { scheduler: 'sync' } as const;

/** Counts of values below and at most v in row r of a 2-d dense array. */
function ranks(x: NDArray, r: number, v: number): [number, number] {
  const n = x.shape[1]!;
  let below = 0;
  let atMost = 0;
  for (let j = 0; j < n; j++) {
    const e = x.data[r * n + j]!;
    if (e < v) below++;
    if (e <= v) atMost++;
  }
  return [below, atMost];
}

describe('rank bound', () => {
  test.each([
    [3, 6000, 400, 50, 4],
    [2, 9000, 700, 80, 3],
    [4, 3000, 250, 20, 2],
  ])(
    '%i rows × %i in chunks of %i, resolution %i, splitEvery %i',
    async (rows, n, chunk, resolution, splitEvery) => {
      const x = random.normal([rows, n], { seed: n, chunks: [rows, chunk] });
      const qs = [0, 0.01, 0.1, 0.5, 0.77, 0.99, 1];
      const y = quantile(x, qs, { axis: 1, approximate: true, resolution, splitEvery });
      const eps = y.layer.meta!.rankError as number;
      const blocks = Math.ceil(n / chunk);
      let levels = 0;
      for (let b = blocks; b > splitEvery; b = Math.ceil(b / splitEvery)) levels++;
      expect(eps).toBeCloseTo((1 + levels) / (2 * resolution), 12);
      const [got, dense] = await compute(y, x, SYNC);
      qs.forEach((q, i) => {
        for (let r = 0; r < rows; r++) {
          const v = got!.data[i * rows + r] as number;
          const [below, atMost] = ranks(dense!, r, v);
          expect(below).toBeLessThanOrEqual((q + eps) * n);
          expect(atMost).toBeGreaterThanOrEqual((q - eps) * n);
        }
      });
    },
  );
});

describe('exact while nothing is dropped', () => {
  test('resolution above the slice length: every method equals the exact path', async () => {
    const dense = randomDense([3, 4, 23], 'float64', 9);
    const x = fromArray(dense, { chunks: [2, 3, 5] });
    for (const method of ['linear', 'lower', 'hazen', 'nearest', 'midpoint'] as const) {
      const opts = { axis: [0, 2], method, keepdims: true };
      const [a, e] = await compute(
        quantile(x, [0.2, 0.5], { ...opts, approximate: true, resolution: 200 }),
        quantile(x, [0.2, 0.5], opts),
        SYNC,
      );
      expectArray(a!, e!, 1e-12);
    }
  });

  test('NaN propagates, nanquantile skips it', async () => {
    const x = fromArray(
      [
        [1, Number.NaN, 3, 4, 5, 6],
        [1, 2, 3, 4, 5, 6],
      ],
      { chunks: [2, 2] },
    );
    const [p, n] = await compute(
      percentile(x, 50, { axis: 1, approximate: true }),
      nanquantile(x, 0.5, { axis: 1, approximate: true }),
      SYNC,
    );
    expect(Number.isNaN(p!.data[0]!)).toBe(true);
    expect(p!.data[1]).toBe(3.5);
    expect(Array.from(n!.data as NumberArray)).toEqual([4, 3.5]);
  });
});

describe('graph and options', () => {
  test('no rechunk: one summary per block, a merge tree, one final task per output block', () => {
    const x = random.uniform([4, 1000], { seed: 2, chunks: [2, 100] });
    const y = percentile(x, 50, { axis: 1, approximate: true, splitEvery: 4 });
    const table = materializeTasks([y.layer]);
    const count = new Map<string, number>();
    for (let t = 0; t < table.count; t++) {
      const op = table.layers[table.layerOf[t]!]!.op;
      count.set(op, (count.get(op) ?? 0) + 1);
    }
    expect([...count.keys()].some((op) => op.startsWith('rechunk'))).toBe(false);
    expect(count.get('percentile-sketch')).toBe(20);
    expect(count.get('percentile-sketch-merge')).toBe(2 * 3);
    expect(count.get('percentile')).toBe(2);
    expect(y.chunks).toEqual([[2, 2]]);
  });

  const x = fromArray(
    [
      [1, 2],
      [3, 4],
    ],
    { chunks: 1 },
  );
  test.each([
    [
      () => quantile(x, 0.5, { approximate: 1 as unknown as boolean }),
      'ValueError',
      ['quantile: approximate'],
    ],
    [
      () => quantile(x, 0.5, { approximate: true, resolution: 1 }),
      'ValueError',
      ['quantile: resolution 1 must be an integer >= 2'],
    ],
    [
      () => percentile(x, 50, { approximate: true, splitEvery: 1 }),
      'ValueError',
      ['percentile: splitEvery 1'],
    ],
  ] as const)('%#', (f, tag, fragments) => {
    expectThrow(f, tag, fragments);
  });
});
