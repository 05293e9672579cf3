// argmin / argmax against dense references: global indices along one axis or flat,
// ties and NaNs resolving to the first occurrence, keepdims, splitEvery, unknown sizes.

import { describe, expect, test } from 'vitest';
import { argmax, argmin } from '../../src/apply/reductions.ts';
import { compute } from '../../src/array/compute.ts';
import { type DType, type NumberArray, typedArrayCtor } from '../../src/array/dtype.ts';
import { fromArray } from '../../src/array/from-array.ts';
import { NDArray } from '../../src/array/ndarray.ts';
import { isTesseraError } from '../../src/errors.ts';
import { expectArray, randomAxisChunks, rng, withChunks } from '../helpers/reference.ts';
import { denseReduce, folds } from './reduction-reference.ts';

/** Data with many ties: values in {0, 1, 2} (and NaNs for floats when asked). */
function tiedDense(shape: number[], dtype: DType, seed: number, nans = false): NDArray {
  const r = rng(seed);
  const size = shape.reduce((a, b) => a * b, 1);
  const data = new (typedArrayCtor(dtype))(size);
  for (let i = 0; i < size; i++) data[i] = nans && r() < 0.1 ? Number.NaN : Math.floor(r() * 3);
  return new NDArray(data, shape, dtype);
}

const DTYPES: [DType, boolean][] = [
  ['float64', false],
  ['float64', true],
  ['float32', true],
  ['int32', false],
  ['uint8', false],
  ['bool', false],
];

describe.each(DTYPES)('argmin / argmax of %s (NaNs: %s)', (dtype, nans) => {
  const r = rng(dtype.length * 31 + (nans ? 7 : 0));
  const table = Array.from({ length: 30 }, (_, k) => {
    const ndim = 1 + Math.floor(r() * 3);
    const shape = Array.from({ length: ndim }, () => 1 + Math.floor(r() * 7));
    const u = r();
    const axis =
      u < 0.3 ? undefined : u < 0.5 ? -1 - Math.floor(r() * ndim) : Math.floor(r() * ndim);
    return {
      shape,
      chunks: shape.map((n) => randomAxisChunks(n, r)),
      axis,
      keepdims: r() < 0.4,
      splitEvery: [2, 3, undefined][k % 3],
      seed: k + 1,
    };
  });

  test.each([
    ['argmin', argmin, 'min'],
    ['argmax', argmax, 'max'],
  ] as const)('%s', async (_, f, better) => {
    for (const c of table) {
      const dense = tiedDense(c.shape, dtype, c.seed, nans);
      const x = fromArray(dense, { chunks: c.chunks });
      const y = f(x, {
        keepdims: c.keepdims,
        ...(c.axis === undefined ? {} : { axis: c.axis }),
        ...(c.splitEvery === undefined ? {} : { splitEvery: c.splitEvery }),
      });
      expect(y.dtype).toBe('int32');
      const ax = c.axis === undefined ? undefined : (c.axis + c.shape.length) % c.shape.length;
      const axes = ax === undefined ? c.shape.map((_, i) => i) : [ax];
      const fold = folds.arg(better, ax === undefined);
      expectArray(await compute(y), denseReduce(dense, axes, c.keepdims, 'int32', fold));
    }
  });
});

describe('argmin / argmax specifics', () => {
  test('the first of equal extremes across blocks wins (flat and along an axis)', async () => {
    const x = fromArray(new Float64Array([5, 1, 7, 1, 1, 9, 9, 0.5, 9]), {
      shape: [3, 3],
      chunks: 1,
    });
    expect((await compute(argmin(x, { splitEvery: 2 }))).data[0]).toBe(7);
    expect((await compute(argmax(x))).data[0]).toBe(5);
    expect(Array.from((await compute(argmin(x, { axis: 0 }))).data as NumberArray)).toEqual([
      1, 2, 0,
    ]);
    const ties = fromArray(new Int32Array(12).fill(4), { chunks: 5 });
    expect((await compute(argmax(ties, { splitEvery: 2 }))).data[0]).toBe(0);
  });

  test('the first NaN wins, as NumPy', async () => {
    const x = fromArray(new Float64Array([3, 1, Number.NaN, 0, Number.NaN]), { chunks: 2 });
    expect((await compute(argmin(x))).data[0]).toBe(2);
    expect((await compute(argmax(x))).data[0]).toBe(2);
  });

  test('a 0-d array gives index 0', async () => {
    const x = fromArray(new NDArray(new Float64Array([3]), [], 'float64'));
    const y = argmin(x);
    expect(y.shape).toEqual([]);
    expect((await compute(y)).data[0]).toBe(0);
  });

  test('along an axis of unknown chunk sizes (relative indices need no offsets)', async () => {
    const dense = tiedDense([9, 4], 'float64', 3);
    const known = fromArray(dense, {
      chunks: [
        [2, 3, 4],
        [3, 1],
      ],
    });
    const unknown = withChunks(known, [
      [null, null, null],
      [3, 1],
    ]);
    const y = argmax(unknown, { axis: 0, splitEvery: 2 });
    expect(y.chunks).toEqual([[3, 1]]);
    expectArray(await compute(y), denseReduce(dense, [0], false, 'int32', folds.arg('max', false)));
    const rows = argmin(unknown, { axis: 1, keepdims: true });
    expect(rows.chunks).toEqual([[null, null, null], [1]]);
    expectArray(
      await compute(rows),
      denseReduce(dense, [1], true, 'int32', folds.arg('min', false)),
    );
  });

  test('a flat index over unknown sizes is a ChunkError naming computeChunkSizes', () => {
    const known = fromArray(tiedDense([4, 4], 'int32', 1), { chunks: 2 });
    const unknown = withChunks(known, [
      [null, null],
      [2, 2],
    ]);
    try {
      argmin(unknown);
      throw new Error('expected a ChunkError');
    } catch (e) {
      expect(isTesseraError(e, 'ChunkError')).toBe(true);
      expect((e as Error).message).toMatch(/^argmin: .*computeChunkSizes/);
    }
  });

  test.each([
    [{ axis: [0, 1] }, /^argmax: axis \(0, 1\) must be a single integer/],
    [{ axis: 2 }, /^argmax: axis 2 is out of bounds/],
    [{ axis: 0.5 }, /^argmax: axis 0.5 is not an integer/],
  ])('argmax(x, %j) is a ValueError', (opts, text) => {
    const x = fromArray(tiedDense([2, 2], 'int32', 1));
    try {
      argmax(x, opts as { axis: number });
      throw new Error('expected a ValueError');
    } catch (e) {
      expect(isTesseraError(e, 'ValueError'), String(e)).toBe(true);
      expect((e as Error).message).toMatch(text);
    }
  });

  test('an empty reduction is a ValueError at build time', () => {
    const x = fromArray(new Float64Array(0), { shape: [3, 0] });
    expect(() => argmin(x)).toThrow(/^argmin: zero-size array/);
    expect(() => argmax(x, { axis: 1 })).toThrow(/^argmax: zero-size array reduced over axis 1/);
    expect(argmin(x, { axis: 0 }).shape).toEqual([0]);
  });
});
