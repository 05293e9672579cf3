// blockwise in index notation against dense references: transposes, aligned and broadcast
// inputs, contractions (lists and concatenated), newAxes, adjustChunks, values, names, errors.

import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { blockwise } from '../../src/apply/blockwise.ts';
import { compute } from '../../src/array/compute.ts';
import type { NumberArray } from '../../src/array/dtype.ts';
import { fromArray } from '../../src/array/from-array.ts';
import { NDArray } from '../../src/array/ndarray.ts';
import type { BlockInfo } from '../../src/backends/cpu-js/apply/blockwise.ts';
import { materializeTasks, runnableCount } from '../../src/graph/materialize.ts';
import { shutdownDefaultPool } from '../../src/workers/pool.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { denseTranspose } from '../helpers/layout-reference.ts';
import { arbShapeAndChunks, at, expectArray, randomDense } from '../helpers/reference.ts';

// Kernels are self-contained: they ship to workers by source.

function transpose2d(b: NDArray): Float64Array {
  const [r, c] = b.shape as [number, number];
  const out = new Float64Array(r * c);
  for (let i = 0; i < r; i++)
    for (let j = 0; j < c; j++) out[j * r + i] = (b.data as NumberArray)[i * c + j]!;
  return out;
}

function addBlocks(a: NDArray, b: NDArray): Float64Array {
  // b may be broadcast along axis 0 (a single row)
  const out = new Float64Array(a.size);
  const n = b.size;
  for (let i = 0; i < a.size; i++)
    out[i] = (a.data as NumberArray)[i]! + (b.data as NumberArray)[i % n]!;
  return out;
}

/** Row sums of a list of column blocks (no concatenation). */
function rowSumsOfList(blocks: NDArray[]): Float64Array {
  const rows = blocks[0]!.shape[0]!;
  const out = new Float64Array(rows);
  for (const b of blocks) {
    const c = b.shape[1]!;
    for (let i = 0; i < rows; i++)
      for (let j = 0; j < c; j++) out[i]! += (b.data as NumberArray)[i * c + j]!;
  }
  return out;
}

/** Row sums of one (concatenated) block. */
function rowSums(b: NDArray): Float64Array {
  const [r, c] = b.shape as [number, number];
  const out = new Float64Array(r);
  for (let i = 0; i < r; i++)
    for (let j = 0; j < c; j++) out[i]! += (b.data as NumberArray)[i * c + j]!;
  return out;
}

function naiveMatmul(a: NDArray, b: NDArray): Float64Array {
  const [m, k] = a.shape as [number, number];
  const n = b.shape[1]!;
  const out = new Float64Array(m * n);
  for (let i = 0; i < m; i++)
    for (let p = 0; p < k; p++)
      for (let j = 0; j < n; j++)
        out[i * n + j]! +=
          (a.data as NumberArray)[i * k + p]! * (b.data as NumberArray)[p * n + j]!;
  return out;
}

/** Repeat a 1-d block `reps` times along a new last axis. */
function repeatLast(b: NDArray, reps: number): Float64Array {
  const out = new Float64Array(b.size * reps);
  for (let i = 0; i < b.size; i++)
    for (let r = 0; r < reps; r++) out[i * reps + r] = (b.data as NumberArray)[i]!;
  return out;
}

/** Each element twice along axis 0 of a 1-d block. */
function doubleUp(b: NDArray): Float64Array {
  const out = new Float64Array(2 * b.size);
  for (let i = 0; i < b.size; i++) out[2 * i] = out[2 * i + 1] = (b.data as NumberArray)[i]!;
  return out;
}

function firstOf(b: NDArray): number {
  return (b.data as NumberArray)[0]!;
}

/** scale * x + offset, with `offset` passed as a plain value and `scale` as kwargs. */
function affine(b: NDArray, offset: number, kw: { scale: number }, info: BlockInfo): Float64Array {
  const out = new Float64Array(b.size);
  for (let i = 0; i < b.size; i++) out[i] = kw.scale * (b.data as NumberArray)[i]! + offset;
  if (info.chunkShape[0] !== b.shape[0]) throw new Error('blockInfo out of place');
  return out;
}

afterAll(() => shutdownDefaultPool());

describe('blockwise', () => {
  test("'ij' from 'ji' transposes (values, shape, chunks)", async () => {
    await fc.assert(
      fc.asyncProperty(arbShapeAndChunks(2, 9), async ({ shape, chunks, seed }) => {
        if (shape.length !== 2) return;
        const dense = randomDense(shape, 'float64', seed);
        const y = blockwise(transpose2d, 'ij', fromArray(dense, { chunks }), 'ji', {
          dtype: 'float64',
        });
        expect(y.chunks).toEqual([chunks[1], chunks[0]]);
        expectArray(await compute(y), denseTranspose(dense, [1, 0]));
      }),
      { numRuns: 30 },
    );
  });

  test('inputs chunked differently are aligned; 1-row inputs broadcast', async () => {
    const a = randomDense([6, 8], 'float64', 1);
    const b = randomDense([6, 8], 'float64', 2);
    const row = randomDense([1, 8], 'float64', 3);
    const x = fromArray(a, {
      chunks: [
        [2, 4],
        [3, 5],
      ],
    });
    const y = fromArray(b, {
      chunks: [
        [3, 3],
        [4, 4],
      ],
    });
    const z = blockwise(addBlocks, 'ij', x, 'ij', y, 'ij', { dtype: 'float64' });
    expect(z.chunks).toEqual([
      [2, 1, 3],
      [3, 1, 4],
    ]);
    expectArray(await compute(z), {
      shape: [6, 8],
      data: (a.data as NumberArray).map((v, i) => v + (b.data as NumberArray)[i]!),
    });
    const w = blockwise(addBlocks, 'ij', x, 'ij', fromArray(row, { chunks: [1, 4] }), 'ij', {
      dtype: 'float64',
    });
    expect(w.chunks).toEqual([
      [2, 4],
      [3, 1, 4],
    ]);
    expectArray(await compute(w), {
      shape: [6, 8],
      data: (a.data as NumberArray).map((v, i) => v + (row.data as NumberArray)[i % 8]!),
    });
  });

  test('contraction without concatenate passes lists of blocks', async () => {
    const a = randomDense([5, 9], 'float64', 4);
    const x = fromArray(a, { chunks: [2, 4] });
    const y = blockwise(rowSumsOfList, 'i', x, 'ij', { dtype: 'float64' });
    expect(y.chunks).toEqual([[2, 2, 1]]);
    const want = Array.from({ length: 5 }, (_, i) => {
      let s = 0;
      for (let j = 0; j < 9; j++) s += at(a, [i, j]);
      return s;
    });
    expectArray(await compute(y), { shape: [5], data: want });
    const z = blockwise(rowSums, 'i', x, 'ij', { dtype: 'float64', concatenate: true });
    expectArray(await compute(z), { shape: [5], data: want });
  });

  test('a matrix product with concatenate matches naive loops', async () => {
    const a = randomDense([5, 7], 'float64', 5);
    const b = randomDense([7, 4], 'float64', 6);
    const c = blockwise(
      naiveMatmul,
      'ik',
      fromArray(a, { chunks: [2, 3] }),
      'ij',
      fromArray(b, { chunks: [[4, 3], 2] }),
      'jk',
      {
        dtype: 'float64',
        concatenate: true,
      },
    );
    expect(c.chunks).toEqual([
      [2, 2, 1],
      [2, 2],
    ]);
    const want = new NDArray(naiveMatmul(a, b), [5, 4], 'float64');
    expectArray(await compute(c), want, 1e-12);
  });

  test('newAxes adds an output index of one chunk', async () => {
    const a = randomDense([7], 'float64', 7);
    const y = blockwise(repeatLast, 'ir', fromArray(a, { chunks: 3 }), 'i', 3, null, {
      dtype: 'float64',
      newAxes: { r: 3 },
    });
    expect(y.chunks).toEqual([[3, 3, 1], [3]]);
    expectArray(await compute(y), { shape: [7, 3], data: repeatLast(a, 3) });
  });

  test.each([
    ['a function', (c: number) => 2 * c, doubleUp, [6, 6, 2]],
    ['explicit sizes', [6, 6, 2], doubleUp, [6, 6, 2]],
    ['one size for every block', 1, firstOf, [1, 1, 1]],
  ] as const)('adjustChunks with %s', async (_, spec, fn, want) => {
    const a = randomDense([7], 'float64', 8);
    const y = blockwise(fn, 'i', fromArray(a, { chunks: 3 }), 'i', {
      dtype: 'float64',
      adjustChunks: { i: spec },
    });
    expect(y.chunks).toEqual([want]);
    const ad = a.data as NumberArray;
    const dense = fn === firstOf ? [ad[0]!, ad[3]!, ad[6]!] : doubleUp(a);
    expectArray(await compute(y), { shape: [want.reduce((s, v) => s + v, 0)], data: dense });
  });

  test('plain values, kwargs and blockInfo reach the kernel in order', async () => {
    const a = randomDense([5], 'float64', 9);
    const y = blockwise(affine, 'i', fromArray(a, { chunks: 2 }), 'i', 10, null, {
      dtype: 'float32',
      kwargs: { scale: 3 },
    });
    expect(y.dtype).toBe('float32');
    expectArray(await compute(y), {
      dtype: 'float32',
      shape: [5],
      data: Float32Array.from(a.data as NumberArray, (v) => 3 * v + 10),
    });
  });

  test('kernels shipped by source run on worker threads (contraction lists, values, kwargs)', async () => {
    const a = randomDense([6, 5], 'float64', 11);
    const x = fromArray(a, { chunks: [3, 2] });
    const sums = blockwise(rowSumsOfList, 'i', x, 'ij', { dtype: 'float64' });
    const t = blockwise(transpose2d, 'ij', x, 'ji', { dtype: 'float64' });
    const aff = blockwise(affine, 'i', sums, 'i', 1, null, {
      dtype: 'float64',
      kwargs: { scale: 2 },
    });
    const [gotT, gotA] = await compute(t, aff, { scheduler: 'threads', workers: 2 });
    expectArray(gotT!, denseTranspose(a, [1, 0]));
    const rows = Array.from({ length: 6 }, (_, i) =>
      Array.from((a.data as NumberArray).slice(i * 5, i * 5 + 5)).reduce((p, v) => p + v, 0),
    );
    expectArray(gotA!, { shape: [6], data: rows.map((v) => 2 * v + 1) }, 1e-12);
  });

  test('inline kernels may close over local variables', async () => {
    const k = 4;
    const a = randomDense([6], 'float64', 10);
    const y = blockwise(
      (b: NDArray) => (b.data as NumberArray).map((v) => v * k),
      'i',
      fromArray(a, { chunks: 4 }),
      'i',
      {
        dtype: 'float64',
        inline: true,
      },
    );
    expectArray(await compute(y), { shape: [6], data: (a.data as NumberArray).map((v) => v * k) });
  });

  test('one task per output block; names are deterministic and carry the kernel name', () => {
    const x = fromArray(randomDense([6, 4]), { chunks: [2, 2] });
    const y = blockwise(transpose2d, 'ij', x, 'ji', { dtype: 'float64' });
    expect(y.name).toBe(blockwise(transpose2d, 'ij', x, 'ji', { dtype: 'float64' }).name);
    expect(y.name).toMatch(/^transpose2d-/);
    expect(y.name).not.toBe(blockwise(rowSums, 'ij', x, 'ji', { dtype: 'float64' }).name);
    expect(blockwise(transpose2d, 'ij', x, 'ji', { dtype: 'float64', name: 'mine' }).name).toBe(
      'mine',
    );
    expect(runnableCount(materializeTasks([y.layer]))).toBe(6 + 6);
  });

  test.each([
    [
      'no options',
      () =>
        blockwise(
          rowSums,
          'i',
          ...([randomDense([2, 2]), 'ij'] as never as [{ dtype: 'float64' }]),
        ),
      'ValueError',
      ['blockwise', 'dtype'],
    ],
    [
      'bad dtype',
      () => blockwise(rowSums, 'i', randomDense([2, 2]), 'ij', { dtype: 'complex' as never }),
      'DTypeError',
      ['blockwise', 'complex'],
    ],
    [
      'odd pairs',
      () => blockwise(rowSums, 'i', randomDense([2, 2]), { dtype: 'float64' }),
      'ValueError',
      ['pairs'],
    ],
    [
      'index length',
      () => blockwise(rowSums, 'i', randomDense([2, 2]), 'ijk', { dtype: 'float64' }),
      'ValueError',
      ["'ijk'", '2 dimensions'],
    ],
    [
      'unknown output',
      () => blockwise(rowSums, 'ik', randomDense([2, 2]), 'ij', { dtype: 'float64' }),
      'ValueError',
      ["'k'"],
    ],
    [
      'repeated output',
      () => blockwise(rowSums, 'ii', randomDense([2, 2]), 'ij', { dtype: 'float64' }),
      'ValueError',
      ["'ii'"],
    ],
    [
      'mismatched lengths',
      () =>
        blockwise(addBlocks, 'i', randomDense([3]), 'i', randomDense([4]), 'i', {
          dtype: 'float64',
        }),
      'ShapeError',
      ["index 'i'", '(3, 4)'],
    ],
    [
      'alignArrays false',
      () =>
        blockwise(
          addBlocks,
          'i',
          fromArray(randomDense([4]), { chunks: 2 }),
          'i',
          fromArray(randomDense([4]), { chunks: 1 }),
          'i',
          {
            dtype: 'float64',
            alignArrays: false,
          },
        ),
      'ValueError',
      ['alignArrays'],
    ],
    [
      'bad adjustChunks',
      () =>
        blockwise(firstOf, 'i', randomDense([4]), 'i', {
          dtype: 'float64',
          adjustChunks: { i: [1, 2] },
        }),
      'ValueError',
      ['adjustChunks'],
    ],
    [
      'newAxes on an input index',
      () => blockwise(firstOf, 'i', randomDense([4]), 'i', { dtype: 'float64', newAxes: { i: 2 } }),
      'ValueError',
      ["new axis 'i'"],
    ],
    [
      'a non-array with an index',
      () => blockwise(firstOf, 'i', 'abc', 'i', { dtype: 'float64' }),
      'ValueError',
      ["'abc'", 'not an array'],
    ],
    [
      'a closure',
      () => {
        const k = 2;
        return blockwise(
          (b: NDArray) => (b.data as NumberArray).map((v) => v * k),
          'i',
          randomDense([4]),
          'i',
          {
            dtype: 'float64',
          },
        );
      },
      'KernelError',
      ["'k'"],
    ],
  ] as const)('%s throws', (_, f, tag, parts) => {
    expectThrow(f, tag, parts);
  });
});
