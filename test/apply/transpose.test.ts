// permuteDims / transpose / swapaxes / moveaxis against a dense reference.
// Random shapes, chunkings and permutations; output chunks, dtype, task counts and errors.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { moveaxis, permuteDims, swapaxes, transpose } from '../../src/apply/transpose.ts';
import { compute } from '../../src/array/compute.ts';
import { fromArray } from '../../src/array/from-array.ts';
import { LazyArray } from '../../src/array/lazy-array.ts';
import { materializeTasks, runnableCount } from '../../src/graph/materialize.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { denseTranspose } from '../helpers/layout-reference.ts';
import { arbShapeAndChunks, expectArray, randomDense, rng } from '../helpers/reference.ts';

function shuffled(n: number, seed: number): number[] {
  const r = rng(seed);
  const out = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The same array with the sizes of axis 0 marked unknown (as after a mask). */
function withUnknownRows(x: LazyArray): LazyArray {
  const chunks = x.chunks.map((c, ax) => (ax === 0 ? c.map(() => null) : c));
  return new LazyArray(Object.freeze({ ...x.layer, chunks }));
}

describe('permuteDims', () => {
  test('random permutations match the dense transpose (values, shape, chunks)', async () => {
    await fc.assert(
      fc.asyncProperty(arbShapeAndChunks(4, 6), async ({ shape, chunks, seed }) => {
        const dense = randomDense(shape, 'float64', seed);
        const x = fromArray(dense, { chunks });
        const axes = shuffled(shape.length, seed + 7);
        const y = permuteDims(x, axes);
        expect(y.chunks).toEqual(axes.map((a) => chunks[a]));
        expectArray(await compute(y), denseTranspose(dense, axes));
      }),
      { numRuns: 40 },
    );
  });

  test('negative axes count from the end', async () => {
    const dense = randomDense([2, 3, 4], 'int32', 3);
    const y = permuteDims(fromArray(dense, { chunks: [1, 2, 3] }), [-1, 0, -2]);
    expect(y.shape).toEqual([4, 2, 3]);
    expectArray(await compute(y), denseTranspose(dense, [2, 0, 1]));
  });

  test.each(['int16', 'uint8', 'bool', 'float32'] as const)('keeps dtype %s', async (dtype) => {
    const dense = randomDense([3, 5], dtype, 11);
    const y = transpose(fromArray(dense, { chunks: [2, 2] }));
    expect(y.dtype).toBe(dtype);
    expectArray(await compute(y), denseTranspose(dense, [1, 0]));
  });

  test('one task per block; the identity permutation adds no layer', () => {
    const x = fromArray(randomDense([6, 4]), { chunks: [2, 2] });
    expect(runnableCount(materializeTasks([x.layer]))).toBe(6);
    expect(runnableCount(materializeTasks([permuteDims(x, [1, 0]).layer]))).toBe(12);
    expect(permuteDims(x, [0, 1])).toBe(x);
  });

  test('names are deterministic and depend on the axes', () => {
    const x = fromArray(randomDense([2, 3, 4]), { chunks: 2 });
    expect(permuteDims(x, [2, 1, 0]).name).toBe(permuteDims(x, [2, 1, 0]).name);
    expect(permuteDims(x, [2, 1, 0]).name).not.toBe(permuteDims(x, [1, 2, 0]).name);
  });

  test('only block-preserving permutations are fusable', () => {
    const sq = fromArray(randomDense([4, 4]), { chunks: 2 });
    expect(permuteDims(sq, [1, 0]).layer.fusable).toBe(false);
    const oneBlock = fromArray(randomDense([4, 4]), { chunks: 4 });
    expect(permuteDims(oneBlock, [1, 0]).layer.fusable).toBe(true);
  });

  test('unknown sizes permute along', async () => {
    const dense = randomDense([4, 3], 'float64', 4);
    const x = withUnknownRows(fromArray(dense, { chunks: [2, 3] }));
    const y = permuteDims(x, [1, 0]);
    expect(y.chunks).toEqual([[3], [null, null]]);
    expectArray(await compute(y), denseTranspose(dense, [1, 0]));
  });

  test.each([
    [[0], 'ValueError', /^permuteDims: axes \(0,\) is not a permutation/],
    [[0, 0], 'ValueError', /^permuteDims: repeated axis in \(0, 0\)/],
    [[0, 2], 'ValueError', /^permuteDims: axis 2 is out of bounds/],
    [[0, 1.5], 'ValueError', /^permuteDims: axis 1.5 is not an integer/],
  ])('permuteDims(x, %j) throws %s', (axes, tag, text) => {
    const x = fromArray(randomDense([2, 3]));
    expectThrow(() => permuteDims(x, axes), tag, text);
  });
});

describe('transpose, swapaxes, moveaxis', () => {
  test('transpose reverses axes by default and reverses the chunks', async () => {
    const dense = randomDense([5, 3], 'float64', 5);
    const x = fromArray(dense, {
      chunks: [
        [2, 3],
        [1, 2],
      ],
    });
    const t = transpose(x);
    expect(t.shape).toEqual([3, 5]);
    expect(t.chunks).toEqual([
      [1, 2],
      [2, 3],
    ]);
    expectArray(await compute(t), denseTranspose(dense, [1, 0]));
    expect(transpose(x, [0, 1])).toBe(x);
  });

  test.each([
    [[2, 3, 4], 0, 2, [2, 1, 0]],
    [[2, 3, 4], -1, 1, [0, 2, 1]],
    [[2, 3, 4, 5], 1, 1, [0, 1, 2, 3]],
  ])('swapaxes(%j, %d, %d)', async (shape, a, b, perm) => {
    const dense = randomDense(shape, 'float64', 9);
    const y = swapaxes(fromArray(dense, { chunks: 2 }), a, b);
    expectArray(await compute(y), denseTranspose(dense, perm));
  });

  // Expected permutations follow NumPy's moveaxis.
  test.each([
    [0, -1, [1, 2, 3, 0]],
    [-1, 0, [3, 0, 1, 2]],
    [
      [0, 1],
      [-1, -2],
      [2, 3, 1, 0],
    ],
    [
      [0, 2],
      [3, 0],
      [2, 1, 3, 0],
    ],
    [[], [], [0, 1, 2, 3]],
  ] as const)('moveaxis(x, %j, %j)', async (src, dst, perm) => {
    const dense = randomDense([2, 3, 4, 5], 'float64', 2);
    const y = moveaxis(fromArray(dense, { chunks: [1, 2, 3, 2] }), src, dst);
    expect(y.shape).toEqual(perm.map((a) => [2, 3, 4, 5][a]));
    expectArray(await compute(y), denseTranspose(dense, perm));
  });

  test('errors name the function and the value', () => {
    const x = fromArray(randomDense([2, 3]));
    expectThrow(() => swapaxes(x, 0, 5), 'ValueError', /^swapaxes: axis 5 is out of bounds/);
    expectThrow(() => transpose(x, [1]), 'ValueError', /^transpose: axes \(1,\)/);
    expectThrow(
      () => moveaxis(x, [0, 1], [0]),
      'ValueError',
      /^moveaxis: source \(0, 1\) and destination \(0,\)/,
    );
    expectThrow(() => moveaxis(x, [0, 0], [0, 1]), 'ValueError', /^moveaxis: repeated axis/);
    expectThrow(() => moveaxis(x, 0, -3), 'ValueError', /^moveaxis: axis -3 is out of bounds/);
  });
});
