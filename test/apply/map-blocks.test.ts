// mapBlocks against dense references: blockInfo values, dropAxis, newAxis, chunks overrides,
// broadcasting, result coercion (TypedArray, number, dtype), ShapeError naming the task, fusion.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { mapBlocks } from '../../src/apply/map-blocks.ts';
import { compute } from '../../src/array/compute.ts';
import type { NumberArray } from '../../src/array/dtype.ts';
import { fromArray } from '../../src/array/from-array.ts';
import { LazyArray } from '../../src/array/lazy-array.ts';
import type { NDArray } from '../../src/array/ndarray.ts';
import type { BlockInfo } from '../../src/backends/cpu-js/apply/blockwise.ts';
import { isTesseraError } from '../../src/errors.ts';
import { fuseLayers } from '../../src/graph/fuse.ts';
import { materializeTasks, runnableCount } from '../../src/graph/materialize.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import {
  arbShapeAndChunks,
  at,
  expectArray,
  randomDense,
  withChunks,
} from '../helpers/reference.ts';

// Kernels are self-contained: they ship to workers by source.

function twiceplusone(b: NDArray): Float64Array {
  return Float64Array.from(b.data as NumberArray, (v) => 2 * v + 1);
}

/** Each element becomes its flat position in the whole array (from blockInfo). */
function globalIndex(b: NDArray, info: BlockInfo): Float64Array {
  const out = new Float64Array(b.size);
  const nd = b.shape.length;
  const idx = new Array<number>(nd).fill(0);
  for (let f = 0; f < b.size; f++) {
    let g = 0;
    for (let ax = 0; ax < nd; ax++)
      g = g * (info.shape[ax] as number) + (info.arrayLocation[ax]![0] as number) + idx[ax]!;
    out[f] = g;
    for (let ax = nd - 1; ax >= 0; ax--) {
      if (++idx[ax]! < b.shape[ax]!) break;
      idx[ax] = 0;
    }
  }
  return out;
}

/** The block's chunkLocation and numChunks, and the input's arrayLocation, flattened. */
function describeBlock(_b: NDArray, info: BlockInfo): number[] {
  const inp = info.inputs[0]!;
  const where = inp.arrayLocation.flat().map((v) => (v === null ? -1 : v));
  return [...info.chunkLocation, ...info.numChunks, ...where];
}

function sumAxis1(b: NDArray): Float64Array {
  const [r, c] = b.shape as [number, number];
  const out = new Float64Array(r);
  for (let i = 0; i < r; i++)
    for (let j = 0; j < c; j++) out[i]! += (b.data as NumberArray)[i * c + j]!;
  return out;
}

function blockSum(b: NDArray): number {
  let s = 0;
  for (const v of b.data as NumberArray) s += v;
  return s;
}

function addRow(a: NDArray, row: NDArray): Float64Array {
  const n = row.size;
  return Float64Array.from(a.data as NumberArray, (v, i) => v + (row.data as NumberArray)[i % n]!);
}

function wrongSize(b: NDArray): Float64Array {
  return new Float64Array(b.size + 1);
}

function withScalar(b: NDArray, k: number, kw: { add: number }): Float64Array {
  return Float64Array.from(b.data as NumberArray, (v) => v * k + kw.add);
}

describe('mapBlocks', () => {
  test('a TypedArray result per block matches the dense map (values, chunks)', async () => {
    await fc.assert(
      fc.asyncProperty(arbShapeAndChunks(3, 8), async ({ shape, chunks, seed }) => {
        const dense = randomDense(shape, 'float64', seed);
        const y = mapBlocks(twiceplusone, fromArray(dense, { chunks }), { dtype: 'float64' });
        expect(y.chunks).toEqual(chunks);
        expectArray(await compute(y), {
          shape,
          data: (dense.data as NumberArray).map((v) => 2 * v + 1),
        });
      }),
      { numRuns: 30 },
    );
  });

  test('blockInfo arrayLocation and shape give global positions', async () => {
    await fc.assert(
      fc.asyncProperty(arbShapeAndChunks(3, 7), async ({ shape, chunks }) => {
        const y = mapBlocks(globalIndex, fromArray(randomDense(shape), { chunks }), {
          dtype: 'int32',
        });
        const n = shape.reduce((a, b) => a * b, 1);
        expectArray(await compute(y), {
          dtype: 'int32',
          shape,
          data: Array.from({ length: n }, (_, i) => i),
        });
      }),
      { numRuns: 25 },
    );
  });

  test('blockInfo chunkLocation, numChunks and the inputs’ locations', async () => {
    const x = fromArray(randomDense([5]), { chunks: [2, 3] });
    const y = mapBlocks(describeBlock, x, { dtype: 'float64', chunks: [[4, 4]] });
    // per block: chunkLocation (1), numChunks (1), input arrayLocation (2)
    expectArray(await compute(y), { shape: [8], data: [0, 2, 0, 2, 1, 2, 2, 5] });
  });

  test('dropAxis concatenates the dropped axis and removes it', async () => {
    const a = randomDense([5, 7], 'float64', 3);
    const y = mapBlocks(sumAxis1, fromArray(a, { chunks: [2, 3] }), {
      dtype: 'float64',
      dropAxis: 1,
    });
    expect(y.chunks).toEqual([[2, 2, 1]]);
    const want = Array.from({ length: 5 }, (_, i) => {
      let s = 0;
      for (let j = 0; j < 7; j++) s += at(a, [i, j]);
      return s;
    });
    expectArray(await compute(y), { shape: [5], data: want }, 1e-12);
  });

  test('newAxis inserts an axis of one chunk; with dropAxis it replaces one', async () => {
    const a = randomDense([6], 'float64', 4);
    const y = mapBlocks(twiceplusone, fromArray(a, { chunks: 4 }), {
      dtype: 'float64',
      newAxis: 0,
    });
    expect(y.chunks).toEqual([[1], [4, 2]]);
    expectArray(await compute(y), {
      shape: [1, 6],
      data: (a.data as NumberArray).map((v) => 2 * v + 1),
    });
    const b = randomDense([4, 6], 'float64', 5);
    const z = mapBlocks(sumAxis1, fromArray(b, { chunks: [2, 3] }), {
      dtype: 'float64',
      dropAxis: -1,
      newAxis: -1,
    });
    expect(z.chunks).toEqual([[2, 2], [1]]);
    const rows = Array.from({ length: 4 }, (_, i) =>
      Array.from((b.data as NumberArray).slice(i * 6, i * 6 + 6)).reduce((s, v) => s + v, 0),
    );
    expectArray(await compute(z), { shape: [4, 1], data: rows }, 1e-12);
  });

  test('a number per block with chunks overridden to 1', async () => {
    const a = randomDense([3, 8], 'float64', 6);
    const y = mapBlocks(blockSum, fromArray(a, { chunks: [3, 3] }), {
      dtype: 'float64',
      chunks: [1, 1],
    });
    expect(y.chunks).toEqual([[1], [1, 1, 1]]);
    const sums = [0, 3, 6].map((c0) => {
      let s = 0;
      for (let i = 0; i < 3; i++) for (let j = c0; j < Math.min(8, c0 + 3); j++) s += at(a, [i, j]);
      return s;
    });
    expectArray(await compute(y), { shape: [1, 3], data: sums }, 1e-12);
  });

  test('lower-rank inputs broadcast right-aligned and are aligned to common chunks', async () => {
    const a = randomDense([4, 6], 'float64', 7);
    const row = randomDense([6], 'float64', 8);
    const y = mapBlocks(addRow, fromArray(a, { chunks: [2, 3] }), fromArray(row, { chunks: 2 }), {
      dtype: 'float64',
    });
    expect(y.chunks).toEqual([
      [2, 2],
      [2, 1, 1, 2],
    ]);
    expectArray(await compute(y), {
      shape: [4, 6],
      data: (a.data as NumberArray).map((v, i) => v + (row.data as NumberArray)[i % 6]!),
    });
  });

  test('non-array arguments and kwargs pass through; results take the declared dtype', async () => {
    const a = randomDense([5], 'float64', 9);
    const y = mapBlocks(withScalar, fromArray(a, { chunks: 2 }), 3, {
      dtype: 'int32',
      kwargs: { add: 0.5 },
    });
    expect(y.dtype).toBe('int32');
    expectArray(await compute(y), {
      dtype: 'int32',
      shape: [5],
      data: (a.data as NumberArray).map((v) => Math.trunc(v * 3 + 0.5)),
    });
  });

  test('unknown sizes pass through; blockInfo locations there are null', async () => {
    const dense = randomDense([5, 3], 'float64', 12);
    const x = fromArray(dense, { chunks: [[2, 3], 3] });
    const unknown = withChunks(x, [[null, null], [3]]);
    const y = mapBlocks(twiceplusone, unknown, { dtype: 'float64' });
    expect(y.chunks).toEqual([[null, null], [3]]);
    expectArray(await compute(y), {
      shape: [5, 3],
      data: (dense.data as NumberArray).map((v) => 2 * v + 1),
    });
    const z = mapBlocks(describeBlock, unknown, { dtype: 'float64', chunks: [[8, 8], [1]] });
    // chunkLocation (2), numChunks (2), input arrayLocation (4); unknown bounds read as -1
    expect((await compute(z)).toArray()).toEqual([
      ...[0, 0, 2, 1, 0, -1, 0, 3],
      ...[1, 0, 2, 1, -1, -1, 0, 3],
    ]);
  });

  test('a result of the wrong size is a ShapeError naming the task', async () => {
    const y = mapBlocks(wrongSize, fromArray(randomDense([4]), { chunks: 2 }), {
      dtype: 'float64',
    });
    const err = await compute(y).then(
      () => undefined,
      (e: unknown) => e,
    );
    let shapeError: unknown = err;
    while (shapeError instanceof Error && !isTesseraError(shapeError, 'ShapeError'))
      shapeError = shapeError.cause;
    expect(isTesseraError(shapeError, 'ShapeError'), String(err)).toBe(true);
    expect((shapeError as Error).message).toContain(y.name);
    expect((shapeError as Error).message).toContain("'wrongSize'");
  });

  test('chains of mapBlocks fuse into one task per block', () => {
    const x = fromArray(randomDense([8, 8]), { chunks: 4 });
    const y = mapBlocks(twiceplusone, mapBlocks(twiceplusone, x, { dtype: 'float64' }), {
      dtype: 'float64',
    });
    const fused = fuseLayers([y.layer]);
    expect(runnableCount(materializeTasks(fused))).toBe(4);
    expect(y).toBeInstanceOf(LazyArray);
  });

  test.each([
    [
      'no options',
      () => mapBlocks(twiceplusone, ...([randomDense([2])] as never as [{ dtype: 'float64' }])),
      'ValueError',
      ['mapBlocks', 'dtype'],
    ],
    [
      'no arrays',
      () => mapBlocks(twiceplusone, 3, { dtype: 'float64' }),
      'ValueError',
      ['at least one array'],
    ],
    [
      'dropAxis out of range',
      () => mapBlocks(twiceplusone, randomDense([2]), { dtype: 'float64', dropAxis: 2 }),
      'ValueError',
      ['axis 2'],
    ],
    [
      'chunks of the wrong rank',
      () => mapBlocks(twiceplusone, randomDense([2]), { dtype: 'float64', chunks: [1, 1] }),
      'ValueError',
      ['chunks'],
    ],
    [
      'shapes that do not broadcast',
      () => mapBlocks(addRow, randomDense([2, 3]), randomDense([4]), { dtype: 'float64' }),
      'ShapeError',
      ['mapBlocks'],
    ],
  ] as const)('%s throws', (_, f, tag, parts) => {
    expectThrow(f, tag, parts);
  });
});
