// expandDims, squeeze, flip and broadcastTo against dense references.
// Random shapes and chunkings; output chunks, dtypes, block mapping and build-time errors.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { broadcastTo, expandDims, flip, squeeze } from '../../src/apply/axes.ts';
import { compute } from '../../src/array/compute.ts';
import { fromArray } from '../../src/array/from-array.ts';
import { LazyArray } from '../../src/array/lazy-array.ts';
import type { NDArray } from '../../src/array/ndarray.ts';
import { materializeTasks, runnableCount } from '../../src/graph/materialize.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { denseBroadcast, denseFlip } from '../helpers/layout-reference.ts';
import { arbShapeAndChunks, expectArray, randomDense, rng } from '../helpers/reference.ts';

/** The same array with the sizes of axis 0 marked unknown (as after a mask). */
function withUnknownRows(x: LazyArray): LazyArray {
  const chunks = x.chunks.map((c, ax) => (ax === 0 ? c.map(() => null) : c));
  return new LazyArray(Object.freeze({ ...x.layer, chunks }));
}

const reshaped = (x: NDArray, shape: number[]) => ({ dtype: x.dtype, shape, data: x.data });

describe('expandDims', () => {
  test.each([
    [[3, 4], 0, [1, 3, 4]],
    [[3, 4], -1, [3, 4, 1]],
    [
      [3, 4],
      [0, -1],
      [1, 3, 4, 1],
    ],
    [
      [3, 4],
      [1, 3],
      [3, 1, 4, 1],
    ],
    [[], 0, [1]],
  ])('expandDims(%j, { axis: %j }) has shape %j', async (shape, axis, out) => {
    const dense = randomDense(shape, 'int32', 3);
    const y = expandDims(fromArray(dense, { chunks: 2 }), { axis });
    expect(y.shape).toEqual(out);
    expect(y.dtype).toBe('int32');
    expectArray(await compute(y), reshaped(dense, out));
  });

  test('inserted axes are one chunk of 1; other chunks are kept', () => {
    const x = fromArray(randomDense([5, 4]), {
      chunks: [
        [2, 3],
        [1, 3],
      ],
    });
    expect(expandDims(x, { axis: [0, 2] }).chunks).toEqual([[1], [2, 3], [1], [1, 3]]);
  });

  test('errors', () => {
    const x = fromArray(randomDense([3, 4]));
    expectThrow(() => expandDims(x, { axis: 3 }), 'ValueError', /^expandDims: axis 3 is out/);
    expectThrow(() => expandDims(x, { axis: [0, 0] }), 'ValueError', /^expandDims: repeated/);
    expectThrow(() => expandDims(x, { axis: [0, -4] }), 'ValueError', /^expandDims: repeated/);
  });
});

describe('squeeze', () => {
  test.each([
    [[1, 3, 1, 4], undefined, [3, 4]],
    [[1, 3, 1, 4], 0, [3, 1, 4]],
    [
      [1, 3, 1, 4],
      [-2, 0],
      [3, 4],
    ],
    [[1, 1], undefined, []],
    [[3, 4], undefined, [3, 4]],
  ])('squeeze(%j, { axis: %j }) has shape %j', async (shape, axis, out) => {
    const dense = randomDense(shape, 'float32', 5);
    const y = squeeze(fromArray(dense, { chunks: 2 }), axis === undefined ? {} : { axis });
    expect(y.shape).toEqual(out);
    expectArray(await compute(y), reshaped(dense, out));
  });

  test('removing a non-unit axis names it', () => {
    const x = fromArray(randomDense([1, 3]));
    expectThrow(
      () => squeeze(x, { axis: 1 }),
      'ShapeError',
      /^squeeze: cannot remove axis 1 .*size 3/,
    );
    expectThrow(() => squeeze(x, { axis: 2 }), 'ValueError', /^squeeze: axis 2 is out of bounds/);
  });

  test('an unknown size cannot be checked', () => {
    const x = withUnknownRows(fromArray(randomDense([1, 3])));
    expectThrow(() => squeeze(x, { axis: 0 }), 'ChunkError', /computeChunkSizes/);
    expect(squeeze(x).shape).toEqual([null, 3]);
  });

  test('expandDims then squeeze round-trips (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(arbShapeAndChunks(3, 5), async ({ shape, chunks, seed }) => {
        const dense = randomDense(shape, 'float64', seed);
        const axis = Math.floor(rng(seed)() * (shape.length + 1));
        const y = squeeze(expandDims(fromArray(dense, { chunks }), { axis }), { axis });
        expect(y.chunks).toEqual(chunks);
        expectArray(await compute(y), dense);
      }),
      { numRuns: 20 },
    );
  });
});

describe('flip', () => {
  test('random axes match the dense flip; chunks reverse on flipped axes', async () => {
    await fc.assert(
      fc.asyncProperty(arbShapeAndChunks(3, 7), async ({ shape, chunks, seed }) => {
        const r = rng(seed + 1);
        const axes = shape.map((_, ax) => ax).filter(() => r() < 0.6);
        const dense = randomDense(shape, 'int16', seed);
        const y = flip(fromArray(dense, { chunks }), { axis: axes });
        expect(y.chunks).toEqual(chunks.map((c, ax) => (axes.includes(ax) ? [...c].reverse() : c)));
        expectArray(await compute(y), denseFlip(dense, axes));
      }),
      { numRuns: 30 },
    );
  });

  test('flips every axis by default; negative axes', async () => {
    const dense = randomDense([3, 4], 'uint8', 2);
    const x = fromArray(dense, { chunks: [2, 3] });
    expectArray(await compute(flip(x)), denseFlip(dense, [0, 1]));
    expectArray(await compute(flip(x, { axis: -1 })), denseFlip(dense, [1]));
  });

  test('unknown sizes flip along', async () => {
    const dense = randomDense([5, 2], 'float64', 8);
    const y = flip(withUnknownRows(fromArray(dense, { chunks: [[2, 3], [2]] })), { axis: 0 });
    expect(y.chunks).toEqual([[null, null], [2]]);
    expectArray(await compute(y), denseFlip(dense, [0]));
  });

  test('one task per block; fusable only when flipped axes have one block', () => {
    const x = fromArray(randomDense([6, 4]), { chunks: [2, 4] });
    expect(runnableCount(materializeTasks([flip(x).layer]))).toBe(6);
    expect(flip(x, { axis: 1 }).layer.fusable).toBe(true);
    expect(flip(x, { axis: 0 }).layer.fusable).toBe(false);
  });

  test('errors', () => {
    const x = fromArray(randomDense([3, 4]));
    expectThrow(() => flip(x, { axis: 2 }), 'ValueError', /^flip: axis 2 is out of bounds/);
    expectThrow(() => flip(x, { axis: [1, -1] }), 'ValueError', /^flip: repeated axis/);
  });
});

describe('broadcastTo', () => {
  test.each([
    [[3], [[3]], [4, 3], [[4], [3]]],
    [
      [1, 3],
      [[1], [2, 1]],
      [5, 3],
      [[5], [2, 1]],
    ],
    [
      [2, 1],
      [[1, 1], [1]],
      [3, 2, 4],
      [[3], [1, 1], [4]],
    ],
    [[1], [[1]], [0], [[0]]],
    [[], [], [2, 2], [[2], [2]]],
  ])('broadcastTo(%j chunked %j, %j) has chunks %j', async (shape, chunks, target, outChunks) => {
    const dense = randomDense(shape, 'float64', 4);
    const y = broadcastTo(fromArray(dense, { chunks }), target);
    expect(y.chunks).toEqual(outChunks);
    expectArray(await compute(y), denseBroadcast(dense, target));
  });

  test('random broadcasts match the dense reference', async () => {
    await fc.assert(
      fc.asyncProperty(arbShapeAndChunks(3, 5), async ({ shape, chunks, seed }) => {
        const r = rng(seed + 3);
        const inShape = shape.map((n) => (r() < 0.4 ? 1 : n));
        const inChunks = inShape.map((n, ax) => (n === 1 ? [1] : chunks[ax]!));
        const target = [...(r() < 0.5 ? [2] : []), ...shape];
        const dense = randomDense(inShape, 'int32', seed);
        const y = broadcastTo(fromArray(dense, { chunks: inChunks }), target);
        expectArray(await compute(y), denseBroadcast(dense, target));
      }),
      { numRuns: 30 },
    );
  });

  test('broadcasting to the same shape returns the array', () => {
    const x = fromArray(randomDense([2, 3]));
    expect(broadcastTo(x, [2, 3])).toBe(x);
  });

  test('errors', () => {
    const x = fromArray(randomDense([2, 3]));
    expectThrow(
      () => broadcastTo(x, [3]),
      'ShapeError',
      /^broadcastTo: cannot broadcast shape \(2, 3\) to \(3,\)/,
    );
    expectThrow(
      () => broadcastTo(x, [4, 3]),
      'ShapeError',
      /^broadcastTo: cannot broadcast .* \(axis 0\)/,
    );
    expectThrow(() => broadcastTo(x, [2, -3]), 'ValueError', /^broadcastTo: shape \(2, -3\)/);
    const u = withUnknownRows(fromArray(randomDense([2, 3])));
    expectThrow(() => broadcastTo(u, [2, 3]), 'ChunkError', /computeChunkSizes/);
  });
});
