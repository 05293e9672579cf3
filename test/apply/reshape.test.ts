// reshape against the dense reference (same data in C order), with pinned rechunk costs.
// Merges, splits, both at once, -1, unit axes, identity, empty arrays, unknown sizes, errors.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { reshape } from '../../src/apply/reshape.ts';
import { compute } from '../../src/array/compute.ts';
import { fromArray } from '../../src/array/from-array.ts';
import type { LazyArray } from '../../src/array/lazy-array.ts';
import { materializeTasks, runnableCount } from '../../src/graph/materialize.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import {
  arbShapeAndChunks,
  expectArray,
  randomDense,
  rng,
  withChunks,
} from '../helpers/reference.ts';

const tasks = (x: LazyArray): number => runnableCount(materializeTasks([x.layer]));
const ops = (x: LazyArray): string[] => {
  const seen: string[] = [];
  const walk = (l: LazyArray['layer']): void => {
    seen.push(l.op);
    for (const d of l.deps) walk(d);
  };
  walk(x.layer);
  return seen;
};

/** A random shape with `size` elements: prime factors regrouped, unit axes sprinkled in. */
function randomTarget(size: number, seed: number): number[] {
  const r = rng(seed);
  const out: number[] = [];
  for (let n = size, p = 2; n > 1; ) {
    if (n % p !== 0) {
      p++;
      continue;
    }
    n /= p;
    if (out.length > 0 && r() < 0.5) out[out.length - 1]! *= p;
    else out.push(p);
  }
  if (r() < 0.3) out.splice(Math.floor(r() * (out.length + 1)), 0, 1);
  if (out.length > 0 && r() < 0.3) out[Math.floor(r() * out.length)] = -1;
  return out.length === 0 ? [1] : out;
}

describe('reshape', () => {
  test('(6, 4) chunked (2, 4) to (24,) needs no rechunk; chunked (2, 2) it does', async () => {
    const dense = randomDense([6, 4], 'float64', 1);
    const whole = fromArray(dense, { chunks: [2, 4] });
    const y = reshape(whole, [24]);
    expect(y.chunks).toEqual([[8, 8, 8]]);
    expect(ops(y)).not.toContain('rechunk');
    expect(tasks(y)).toBe(tasks(whole) + 3);
    expectArray(await compute(y), { shape: [24], data: dense.data });

    const split = fromArray(dense, { chunks: [2, 2] });
    const z = reshape(split, [24]);
    expect(ops(z)).toContain('rechunk');
    expect(tasks(z)).toBeGreaterThan(tasks(split) + z.numBlocks[0]!);
    expectArray(await compute(z), { shape: [24], data: dense.data });
  });

  test.each([
    ['merge', [4, 3, 5], [[2, 2], [3], [2, 3]], [12, 5]],
    ['merge all', [4, 3, 5], [[1, 3], [2, 1], [5]], [60]],
    ['split', [24], [[6, 6, 6, 6]], [2, 3, 4]],
    ['split, uneven chunks', [24], [[5, 5, 5, 5, 4]], [6, 4]],
    [
      'both',
      [6, 4],
      [
        [2, 2, 2],
        [3, 1],
      ],
      [4, 6],
    ],
    [
      'both, 3-d',
      [4, 6, 2],
      [
        [3, 1],
        [2, 4],
        [1, 1],
      ],
      [8, 3, 2],
    ],
    [
      '-1',
      [6, 4],
      [
        [3, 3],
        [2, 2],
      ],
      [-1, 3],
    ],
    ['unit axes', [3, 1, 4], [[1, 2], [1], [2, 2]], [1, 3, 4, 1]],
    ['drop unit axes', [1, 6, 1], [[1], [4, 2], [1]], [2, 3]],
    ['to 0-d', [1, 1], [[1], [1]], []],
    ['from 0-d', [], [], [1, 1, 1]],
  ])('%s: %j chunked %j to %j', async (_, shape, chunks, target) => {
    const dense = randomDense(shape, 'float64', 17);
    const y = reshape(fromArray(dense, { chunks }), target);
    const size = dense.size;
    const out = target.map((n) =>
      n === -1 ? size / target.reduce((p, m) => (m === -1 ? p : p * m), 1) : n,
    );
    expect(y.shape).toEqual(out);
    expect(y.chunks.map((c) => c.reduce((a, b) => a! + b!, 0))).toEqual(out);
    expectArray(await compute(y), { dtype: 'float64', shape: out, data: dense.data });
  });

  test('random shapes, chunkings and targets match the dense data (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(arbShapeAndChunks(3, 8), async ({ shape, chunks, seed }) => {
        const dense = randomDense(shape, 'int32', seed);
        const size = dense.size;
        const target = randomTarget(size, seed + 1);
        const y = reshape(fromArray(dense, { chunks }), target);
        const rest = target.reduce((p, n) => (n === -1 ? p : p * n), 1);
        const out = target.map((n) => (n === -1 ? size / rest : n));
        expectArray(await compute(y), { dtype: 'int32', shape: out, data: dense.data });
      }),
      { numRuns: 40 },
    );
  });

  test('identity returns the array itself; names are deterministic', () => {
    const x = fromArray(randomDense([4, 6]), { chunks: 2 });
    expect(reshape(x, [4, 6])).toBe(x);
    expect(reshape(x, [4, -1])).toBe(x);
    expect(reshape(x, [24]).name).toBe(reshape(x, [-1]).name);
    expect(reshape(x, [24]).name).not.toBe(reshape(x, [2, 12]).name);
  });

  test('empty arrays reshape without tasks per input block', async () => {
    const x = fromArray(randomDense([0, 4]), { chunks: [[0], [2, 2]] });
    const y = reshape(x, [4, 0, 3]);
    expect(y.chunks).toEqual([[4], [0], [3]]);
    expect((await compute(y)).shape).toEqual([4, 0, 3]);
  });

  test.each(['bool', 'uint16', 'float32'] as const)('keeps dtype %s', async (dtype) => {
    const dense = randomDense([4, 6], dtype, 3);
    const y = reshape(fromArray(dense, { chunks: [3, 2] }), [2, 12]);
    expectArray(await compute(y), { dtype, shape: [2, 12], data: dense.data });
  });

  test('unknown sizes are a ChunkError naming computeChunkSizes', () => {
    const x = fromArray(randomDense([4, 3]), { chunks: [2, 3] });
    const u = withChunks(x, [[null, null], [3]]);
    expectThrow(() => reshape(u, [-1]), 'ChunkError', /^reshape: .*computeChunkSizes/);
  });

  test.each([
    [[5, -1], 'ShapeError', /^reshape: cannot reshape an array of size 24 into shape \(5, -1\)/],
    [[5, 5], 'ShapeError', /^reshape: cannot reshape an array of size 24 into shape \(5, 5\)/],
    [[-1, -1], 'ValueError', /^reshape: shape \(-1, -1\) has more than one -1/],
    [[2, -2, 6], 'ValueError', /^reshape: shape \(2, -2, 6\) is not a list of sizes/],
    [[2.5, 4], 'ValueError', /^reshape: shape \(2.5, 4\)/],
    [[0, -1], 'ShapeError', /^reshape: cannot reshape .* \(0, -1\)/],
  ])('reshape(x, %j) throws %s', (shape, tag, text) => {
    const x = fromArray(randomDense([4, 6]));
    expectThrow(() => reshape(x, shape), tag, text);
  });
});
