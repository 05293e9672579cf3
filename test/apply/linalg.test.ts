// matmul and tensordot against naive dense loops: random shapes, chunkings and dtypes,
// 1-d promotion, batch broadcasting, the partial-sum tree (task counts) and errors.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { matmul, tensordot } from '../../src/apply/linalg.ts';
import { transpose } from '../../src/apply/transpose.ts';
import { compute } from '../../src/array/compute.ts';
import type { DType, NumberArray } from '../../src/array/dtype.ts';
import { fromArray } from '../../src/array/from-array.ts';
import { NDArray } from '../../src/array/ndarray.ts';
import { materializeTasks, runnableCount } from '../../src/graph/materialize.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import {
  expectArray,
  randomAxisChunks,
  randomDense,
  rng,
  withChunks,
} from '../helpers/reference.ts';
import { denseEinsum, denseMatmul } from './contraction-reference.ts';

function chunked(shape: number[], dtype: DType, seed: number) {
  const r = rng(seed + 99);
  const dense = randomDense(shape, dtype, seed);
  return { dense, lazy: fromArray(dense, { chunks: shape.map((n) => randomAxisChunks(n, r)) }) };
}

const dim = fc.integer({ min: 1, max: 7 });

describe('matmul', () => {
  test('2-d products match naive loops for random shapes, chunkings and dtypes', async () => {
    await fc.assert(
      fc.asyncProperty(
        dim,
        dim,
        dim,
        fc.constantFrom<DType>('float64', 'float32', 'int32', 'int8'),
        fc.integer({ min: 1, max: 1e6 }),
        async (m, k, n, dtype, seed) => {
          const a = chunked([m, k], dtype, seed);
          const b = chunked([k, n], 'float64', seed + 1);
          const y = matmul(a.lazy, b.lazy);
          const want = 'float64';
          expect(y.dtype).toBe(want);
          expect(y.shape).toEqual([m, n]);
          expectArray(await compute(y), denseMatmul(a.dense, b.dense, want));
        },
      ),
      { numRuns: 40 },
    );
  });

  test.each([
    ['float32', 'float32', 'float32'],
    ['int32', 'int32', 'int32'],
    ['int8', 'uint8', 'int16'],
    ['bool', 'bool', 'bool'],
  ] as const)('dtypes %s @ %s give %s', async (da, db, dout) => {
    const a = chunked([5, 6], da, 3);
    const b = chunked([6, 4], db, 4);
    const y = matmul(a.lazy, b.lazy);
    expect(y.dtype).toBe(dout);
    expectArray(await compute(y), denseMatmul(a.dense, b.dense, dout), 1e-5);
  });

  test.each([
    ['vector @ matrix', [6], [6, 4]],
    ['matrix @ vector', [5, 6], [6]],
    ['vector @ vector', [7], [7]],
    ['batched', [3, 4, 5], [3, 5, 2]],
    ['batch broadcast (1 vs 3)', [1, 4, 5], [3, 5, 2]],
    ['batch rank broadcast', [2, 3, 4, 5], [5, 6]],
    ['batched @ vector', [3, 4, 5], [5]],
    ['vector @ batched', [4], [2, 4, 3]],
  ])('%s: %j @ %j', async (_, sa, sb) => {
    const a = chunked(sa as number[], 'float64', 11);
    const b = chunked(sb as number[], 'float64', 12);
    const want = denseMatmul(a.dense, b.dense, 'float64');
    const y = matmul(a.lazy, b.lazy);
    expect(y.shape).toEqual(want.shape);
    expectArray(await compute(y), want);
  });

  test('matching chunkings along k: one task per output block when k has ≤ 4 blocks', async () => {
    const ad = randomDense([8, 12]);
    const bd = randomDense([12, 6], 'float64', 2);
    const a = fromArray(ad, { chunks: [4, 3] });
    const b = fromArray(bd, { chunks: [3, 3] });
    const y = matmul(a, b);
    expect(y.chunks).toEqual([
      [4, 4],
      [3, 3],
    ]);
    const table = materializeTasks([y.layer]);
    // 4 output blocks; each reads its blocks of the wrapped data in place (no getter tasks)
    expect(runnableCount(table)).toBe(4);
    expectArray(await compute(y), denseMatmul(ad, bd, 'float64'), 1e-12);
    // transposed operands read their windows in place too: a.T @ a
    const at = matmul(transpose(a), a);
    const outBlocks = at.numBlocks.reduce((p, n) => p * n, 1);
    expect(runnableCount(materializeTasks([at.layer]))).toBe(outBlocks);
    const t = new Float64Array(96);
    for (let i = 0; i < 8; i++)
      for (let j = 0; j < 12; j++) t[j * 8 + i] = (ad.data as NumberArray)[i * 12 + j]!;
    const adT = new NDArray(t, [12, 8], 'float64');
    expectArray(await compute(at), denseMatmul(adT, ad, 'float64'), 1e-12);
  });

  test('many k blocks: partial products then a sum tree', async () => {
    const a = chunked([3, 40], 'float64', 5);
    const b = chunked([40, 2], 'float64', 6);
    const x = fromArray(a.dense, { chunks: [3, 2] });
    const w = fromArray(b.dense, { chunks: [2, 2] });
    const y = matmul(x, w);
    expect(y.chunks).toEqual([[3], [2]]);
    // 20 k blocks → 5 partials of 4 pairs → sums of 4 → 2 → 1 (wrapped data read in place)
    const table = materializeTasks([y.layer]);
    expect(runnableCount(table)).toBe(5 + 2 + 1);
    expectArray(await compute(y), denseMatmul(a.dense, b.dense, 'float64'), 1e-12);
  });

  test('different chunkings along k are aligned', async () => {
    const a = chunked([4, 10], 'float64', 7);
    const b = chunked([10, 3], 'float64', 8);
    const y = matmul(
      fromArray(a.dense, { chunks: [2, [3, 7]] }),
      fromArray(b.dense, { chunks: [[5, 5], 3] }),
    );
    expectArray(await compute(y), denseMatmul(a.dense, b.dense, 'float64'));
  });

  test('blocks larger than the GEMM tiles (k > 256, n > 1024)', async () => {
    const a = chunked([3, 300], 'float32', 13);
    const b = chunked([300, 1100], 'float32', 14);
    const y = matmul(fromArray(a.dense, { chunks: -1 }), fromArray(b.dense, { chunks: -1 }));
    expectArray(await compute(y), denseMatmul(a.dense, b.dense, 'float32'), 1e-5);
  });

  test('unknown sizes: free axes pass through, a contracted one needs computeChunkSizes', async () => {
    const a = chunked([5, 4], 'float64', 15);
    const b = chunked([4, 3], 'float64', 16);
    const x = fromArray(a.dense, { chunks: [[2, 3], 2] });
    const rowsUnknown = withChunks(x, [
      [null, null],
      [2, 2],
    ]);
    const y = matmul(rowsUnknown, fromArray(b.dense, { chunks: 2 }));
    expect(y.chunks).toEqual([
      [null, null],
      [2, 1],
    ]);
    expectArray(await compute(y), denseMatmul(a.dense, b.dense, 'float64'));
    const colsUnknown = withChunks(x, [
      [2, 3],
      [null, null],
    ]);
    const w = fromArray(b.dense, { chunks: [[1, 3], 3] });
    expectThrow(() => matmul(colsUnknown, w), 'ChunkError', ['matmul', 'computeChunkSizes']);
  });

  test('eager operands are accepted', async () => {
    const a = randomDense([2, 3]);
    const b = randomDense([3, 2], 'float64', 4);
    expectArray(await compute(matmul(a, b)), denseMatmul(a, b, 'float64'));
  });

  test('names are deterministic', () => {
    const a = fromArray(randomDense([4, 4]), { chunks: 2 });
    expect(matmul(a, a).name).toBe(matmul(a, a).name);
    expect(matmul(a, a).name).not.toBe(matmul(a, matmul(a, a)).name);
  });

  test.each([
    [[3, 4], [5, 2], 'ShapeError', ['matmul', '(3, 4)', '(5, 2)']],
    [[], [3], 'ValueError', ['matmul', 'at least one dimension']],
    [[2, 3, 4], [4, 4, 2], 'ShapeError', ['matmul', 'do not broadcast']],
  ])('matmul(%j, %j) throws %s', (sa, sb, tag, parts) => {
    const a = fromArray(randomDense(sa as number[]));
    const b = fromArray(randomDense(sb as number[]));
    expectThrow(() => matmul(a, b), tag as string, parts as string[]);
  });
});

describe('tensordot', () => {
  test.each([
    ['axes 2 (default)', [3, 4, 5], [4, 5, 2], undefined, ['ijk', 'jkl'], 'il'],
    ['axes 1', [3, 4], [4, 5], 1, ['ij', 'jk'], 'ik'],
    ['axes 0 (outer product)', [3], [2, 2], 0, ['i', 'jk'], 'ijk'],
    [
      'pairs',
      [4, 3, 2],
      [2, 5, 4],
      [
        [0, 2],
        [2, 0],
      ],
      ['ijk', 'kli'],
      'jl',
    ],
    ['negative axes', [3, 4], [5, 4], [[-1], [-1]], ['ij', 'kj'], 'ik'],
    ['single axis numbers', [3, 4], [3, 2], [0, 0], ['ij', 'ik'], 'jk'],
  ])('%s', async (_, sa, sb, axes, terms, out) => {
    const a = chunked(sa as number[], 'float64', 21);
    const b = chunked(sb as number[], 'float64', 22);
    const y = tensordot(a.lazy, b.lazy, axes === undefined ? {} : { axes: axes as never });
    const want = denseEinsum(terms as string[], out as string, [a.dense, b.dense], 'float64');
    expect(y.shape).toEqual(want.shape);
    expectArray(await compute(y), want);
  });

  test('random shapes and chunkings with axes = 1 match the dense product', async () => {
    await fc.assert(
      fc.asyncProperty(
        dim,
        dim,
        dim,
        dim,
        fc.integer({ min: 1, max: 1e6 }),
        async (p, q, k, n, seed) => {
          const a = chunked([p, q, k], 'int32', seed);
          const b = chunked([k, n], 'int32', seed + 1);
          const y = tensordot(a.lazy, b.lazy, { axes: 1 });
          expect(y.dtype).toBe('int32');
          expectArray(
            await compute(y),
            denseEinsum(['pqk', 'kn'], 'pqn', [a.dense, b.dense], 'int32'),
          );
        },
      ),
      { numRuns: 25 },
    );
  });

  test.each([
    [{ axes: 3 }, 'ValueError', ['tensordot', 'axes 3']],
    [{ axes: [[0], [0, 1]] }, 'ValueError', ['tensordot', 'pair 1 with 2']],
    [{ axes: [[0], [0]] }, 'ShapeError', ['tensordot', '(3, 4)', '(4, 3)']],
    [{ axes: [[5], [0]] }, 'ValueError', ['tensordot', 'axis 5']],
  ])('tensordot(%j) throws %s', (opts, tag, parts) => {
    const a = fromArray(randomDense([3, 4]));
    const b = fromArray(randomDense([4, 3]));
    expectThrow(() => tensordot(a, b, opts as never), tag as string, parts as string[]);
  });
});
