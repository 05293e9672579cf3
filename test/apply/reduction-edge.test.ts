// Reductions at the edges: bad axes and options (tags and messages at build time), empty
// arrays, unknown sizes, eager inputs, 0-d arrays and per-axis splitEvery records.

import { describe, expect, test } from 'vitest';
import {
  all,
  any,
  argmin,
  max,
  mean,
  min,
  prod,
  std,
  sum,
  variance,
} from '../../src/apply/reductions.ts';
import { compute } from '../../src/array/compute.ts';
import type { DType, NumberArray } from '../../src/array/dtype.ts';
import { fromArray } from '../../src/array/from-array.ts';
import { LazyArray } from '../../src/array/lazy-array.ts';
import { NDArray, ndarray } from '../../src/array/ndarray.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { expectArray, randomDense } from '../helpers/reference.ts';
import { denseReduce, folds } from './reduction-reference.ts';

/** The same array with the chunk sizes of `axes` marked unknown (as after a mask). */
function withUnknown(x: LazyArray, axes: number[]): LazyArray {
  const chunks = x.chunks.map((c, ax) => (axes.includes(ax) ? c.map(() => null) : c));
  return new LazyArray(Object.freeze({ ...x.layer, chunks }));
}

describe('build-time validation', () => {
  const x = fromArray(randomDense([3, 4]), { chunks: 2 });
  test.each([
    [sum, 'sum', { axis: 2 }, 'ValueError', /^sum: axis 2 is out of bounds/],
    [mean, 'mean', { axis: -3 }, 'ValueError', /^mean: axis -3 is out of bounds/],
    [max, 'max', { axis: [0, -2] }, 'ValueError', /^max: repeated axis in \(0, -2\)/],
    [std, 'std', { axis: 1.5 }, 'ValueError', /^std: axis 1.5 is not an integer/],
    [prod, 'prod', { splitEvery: 1 }, 'ValueError', /^prod: splitEvery 1 must be an integer >= 2/],
    [any, 'any', { splitEvery: { 1: 2.5 } }, 'ValueError', /^any: splitEvery 2.5 must be/],
    [all, 'all', { splitEvery: { 5: 2 } }, 'ValueError', /^all: axis 5 is out of bounds/],
    [variance, 'var', { correction: -1 }, 'ValueError', /^var: correction -1 must be/],
    [sum, 'sum', { dtype: 'int128' }, 'DTypeError', /^sum: unknown dtype "int128"/],
    [mean, 'mean', { dtype: 'int32' }, 'DTypeError', /^mean: dtype 'int32' must be a floating/],
  ] as const)('%s with %j', (f, _, opts, tag, text) => {
    expectThrow(() => (f as (x: LazyArray, o: unknown) => LazyArray)(x, opts), tag, text);
  });
});

describe('empty arrays', () => {
  const empty = fromArray(new Float64Array(0), { shape: [0, 3] });
  test.each([
    [sum, 0],
    [prod, 1],
    [mean, Number.NaN],
    [variance, Number.NaN],
    [any, 0],
    [all, 1],
  ] as const)('%o over zero elements', async (f, v) => {
    const y = await compute(f(empty, { axis: 0 }));
    expect(y.shape).toEqual([3]);
    expect(Array.from(y.data as NumberArray)).toEqual([v, v, v]);
    expect(Array.from((await compute(f(empty))).data as NumberArray)).toEqual([v]);
  });

  test('min and max of zero elements are ValueErrors at build time, quoting the axis', () => {
    expectThrow(() => min(empty), 'ValueError', /^min: zero-size array reduced over axis null/);
    expectThrow(() => max(empty, { axis: [0] }), 'ValueError', /^max: .*axis \(0,\)/);
  });

  test('min over a non-empty axis of an empty array is an empty array', async () => {
    const y = min(empty, { axis: 1 });
    expect(y.shape).toEqual([0]);
    expect((await compute(y)).shape).toEqual([0]);
  });

  test('a reduced axis with no blocks at all', async () => {
    const noBlocks = new LazyArray(
      Object.freeze({
        ...fromArray(new Float64Array(0), { shape: [0, 3] }).layer,
        chunks: [[], [3]],
      }),
    );
    expect(Array.from((await compute(sum(noBlocks, { axis: 0 }))).data as NumberArray)).toEqual([
      0, 0, 0,
    ]);
    expect(Array.from((await compute(prod(noBlocks))).data as NumberArray)).toEqual([1]);
  });

  test('a zero-length block between others adds nothing', async () => {
    const dense = randomDense([5, 2], 'int32', 4);
    const x = fromArray(dense, { chunks: [[2, 0, 3], [2]] });
    for (const [f, fold] of [
      [min, folds.min],
      [prod, folds.prodInt],
      [variance, folds.variance(0)],
    ] as const) {
      const y = f(x, { axis: 0, splitEvery: 2 });
      expectArray(await compute(y), denseReduce(dense, [0], false, y.dtype, fold));
    }
    const arg = argmin(x, { axis: 0, splitEvery: 2 });
    expectArray(
      await compute(arg),
      denseReduce(dense, [0], false, 'int32', folds.arg('min', false)),
    );
  });

  test('min of unknown sizes that turn out empty fails when computed', async () => {
    const unknown = withUnknown(fromArray(new Float64Array(0), { shape: [0, 2] }), [0]);
    await expect(compute(min(unknown, { axis: 0 }))).rejects.toThrow(/min: zero-size/);
  });
});

describe('unknown sizes', () => {
  const dense = randomDense([7, 5], 'float64', 9);
  const x = fromArray(dense, {
    chunks: [
      [2, 2, 3],
      [1, 4],
    ],
  });

  test.each([
    ['sum', sum, folds.sum],
    ['mean', mean, folds.mean],
    ['var', variance, folds.variance(0)],
    ['max', max, folds.max],
  ] as const)('%s along an axis of unknown chunk sizes', async (_, f, fold) => {
    const u = withUnknown(x, [0]);
    const y = f(u, { axis: 0, splitEvery: 2 });
    expect(y.chunks).toEqual([[1, 4]]);
    expectArray(await compute(y), denseReduce(dense, [0], false, 'float64', fold));
  });

  test('unknown sizes along kept axes stay unknown', async () => {
    const y = sum(withUnknown(x, [0]), { axis: 1, keepdims: true });
    expect(y.chunks).toEqual([[null, null, null], [1]]);
    expectArray(await compute(y), denseReduce(dense, [1], true, 'float64', folds.sum));
  });
});

describe('inputs and shapes', () => {
  test('eager inputs: NDArray, TypedArray and nested arrays', async () => {
    expect((await compute(sum(ndarray([1, 2, 3, 4], [2, 2]), { axis: 1 }))).toNested()).toEqual([
      3, 7,
    ]);
    expect((await compute(max(new Int16Array([4, -2, 9])))).toNested()).toBe(9);
    expect(
      (
        await compute(
          mean([
            [1, 2],
            [3, 5],
          ]),
        )
      ).toNested(),
    ).toBe(2.75);
  });

  test('0-d arrays reduce to themselves', async () => {
    const x = fromArray(new NDArray(new Int8Array([7]), [], 'int8'));
    const y = sum(x);
    expect(y.shape).toEqual([]);
    expect(y.dtype).toBe('int64');
    expect((await compute(y)).toNested()).toBe(7n);
    expect((await compute(argmin(x, { keepdims: true }))).toNested()).toBe(0);
  });

  test('keepdims over every axis keeps ndim', async () => {
    const y = sum(fromArray(randomDense([3, 4, 2]), { chunks: 2 }), { keepdims: true });
    expect(y.shape).toEqual([1, 1, 1]);
    expect(y.chunks).toEqual([[1], [1], [1]]);
  });

  test.each([
    ['uint16', 'uint64'],
    ['int8', 'int64'],
    ['bool', 'int64'],
  ] as [DType, DType][])('sum of %s gives %s', (from, to) => {
    expect(sum(fromArray(randomDense([4], from))).dtype).toBe(to);
  });

  test('a splitEvery record sets the fan-in per axis', async () => {
    const dense = randomDense([8, 8]);
    const x = fromArray(dense, { chunks: 1 });
    const y = sum(x, { splitEvery: { 0: 2, [-1]: 8 } });
    expectArray(await compute(y), denseReduce(dense, [0, 1], false, 'float64', folds.sum));
  });

  test('the same expression has the same name; other options give other names', () => {
    const x = fromArray(randomDense([6, 6]), { chunks: 2 });
    expect(sum(x, { axis: 0 }).name).toBe(sum(x, { axis: [-2] }).name);
    const names = new Set([
      sum(x, { axis: 0 }).name,
      sum(x, { axis: 1 }).name,
      sum(x, { axis: 0, keepdims: true }).name,
      sum(x, { axis: 0, splitEvery: 2 }).name,
      sum(x, { axis: 0, dtype: 'float32' }).name,
      prod(x, { axis: 0 }).name,
      std(x, { axis: 0 }).name,
      variance(x, { axis: 0 }).name,
      variance(x, { axis: 0, correction: 1 }).name,
    ]);
    expect(names.size).toBe(9);
  });
});
