// sum prod mean min max any all var std against dense references on random shapes,
// chunkings, axes, keepdims, splitEvery values and dtypes; output chunks and dtypes.

import { describe, expect, test } from 'vitest';
import {
  all,
  any,
  type DTypeReductionOptions,
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
import type { ArrayLike } from '../../src/array/from-array.ts';
import { fromArray } from '../../src/array/from-array.ts';
import type { LazyArray } from '../../src/array/lazy-array.ts';
import type { NDArray } from '../../src/array/ndarray.ts';
import { expectArray, randomAxisChunks, randomDense, rng } from '../helpers/reference.ts';
import { castTo, denseReduce, type Fold, folds } from './reduction-reference.ts';

type Op = (x: ArrayLike, opts?: DTypeReductionOptions) => LazyArray;

interface Case {
  shape: number[];
  chunks: number[][];
  axis: number | number[] | undefined;
  axes: number[];
  keepdims: boolean;
  splitEvery: number | undefined;
  seed: number;
}

/** Random cases: 1-3 axes of 1-7, random chunks, axis none / one / several / negative / []. */
function cases(count: number, seed: number): Case[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  return Array.from({ length: count }, (_, k) => {
    const ndim = 1 + Math.floor(r() * 3);
    const shape = Array.from({ length: ndim }, () => 1 + Math.floor(r() * 7));
    const chunks = shape.map((n) => randomAxisChunks(n, r));
    const kind = pick(['none', 'one', 'neg', 'several', 'empty'] as const);
    let axis: number | number[] | undefined;
    if (kind === 'one') axis = Math.floor(r() * ndim);
    else if (kind === 'neg') axis = -1 - Math.floor(r() * ndim);
    else if (kind === 'several')
      axis = shape
        .map((_, ax) => ax)
        .filter(() => r() < 0.6)
        .reverse();
    else if (kind === 'empty') axis = [];
    const list = axis === undefined ? shape.map((_, ax) => ax) : [axis].flat();
    const axes = list.map((a) => (a < 0 ? a + ndim : a)).sort((a, b) => a - b);
    return {
      shape,
      chunks,
      axis,
      axes,
      keepdims: r() < 0.4,
      splitEvery: pick([2, 3, undefined]),
      seed: seed * 1000 + k,
    };
  });
}

function expectedChunks(c: Case): number[][] {
  return c.chunks.flatMap((ch, ax) => (c.axes.includes(ax) ? (c.keepdims ? [[1]] : []) : [ch]));
}

async function check(
  op: Op,
  c: Case,
  dtype: DType,
  outDtype: DType,
  fold: Fold,
  extra: DTypeReductionOptions = {},
  rtol = 1e-9,
): Promise<NDArray> {
  const dense = randomDense(c.shape, dtype, c.seed);
  const x = fromArray(dense, { chunks: c.chunks });
  const opts: DTypeReductionOptions = { keepdims: c.keepdims, ...extra };
  if (c.axis !== undefined) opts.axis = c.axis;
  if (c.splitEvery !== undefined) opts.splitEvery = c.splitEvery;
  const y = op(x, opts);
  expect(y.dtype).toBe(outDtype);
  expect(y.chunks).toEqual(expectedChunks(c));
  const got = await compute(y);
  expectArray(got, denseReduce(dense, c.axes, c.keepdims, outDtype, fold), rtol);
  return got;
}

const intSum: Record<DType, DType> = {
  float64: 'float64',
  float32: 'float32',
  float16: 'float16',
  int64: 'int64',
  int32: 'int64',
  int16: 'int64',
  int8: 'int64',
  uint64: 'uint64',
  uint32: 'uint64',
  uint16: 'uint64',
  uint8: 'uint64',
  bool: 'int64',
  complex64: 'complex64',
  complex128: 'complex128',
};
const floatOf = (d: DType): DType => (d === 'float32' || d === 'float64' ? d : 'float64');
const tol = (d: DType): number => (d === 'float32' ? 1e-5 : 1e-9);
const DTYPES: DType[] = ['float64', 'float32', 'int32', 'int16', 'int8', 'uint8', 'bool'];

describe.each(DTYPES)('reductions of %s', (dtype) => {
  const table = cases(18, DTYPES.indexOf(dtype) + 1);
  const out = intSum[dtype];

  test('sum', async () => {
    for (const c of table) await check(sum, c, dtype, out, folds.sum, {}, tol(out));
  });
  test('prod', async () => {
    const fold = out.startsWith('float') ? folds.prodFloat : folds.prodInt;
    for (const c of table) await check(prod, c, dtype, out, fold, {}, tol(out));
  });
  test('mean', async () => {
    const o = floatOf(dtype);
    for (const c of table) await check(mean, c, dtype, o, folds.mean, {}, tol(o));
  });
  test('min and max keep the dtype', async () => {
    for (const c of table) {
      await check(min, c, dtype, dtype, folds.min);
      await check(max, c, dtype, dtype, folds.max);
    }
  });
  test('any and all give bool', async () => {
    for (const c of table) {
      await check(any, c, dtype, 'bool', folds.any);
      await check(all, c, dtype, 'bool', folds.all);
    }
  });
  test('var and std with corrections 0 and 1', async () => {
    const o = floatOf(dtype);
    for (const c of table) {
      const correction = c.seed % 2;
      const v = folds.variance(correction);
      const vopts = { correction } as DTypeReductionOptions;
      await check(variance, c, dtype, o, v, vopts, tol(o));
      await check(std, c, dtype, o, (xs) => Math.sqrt(v(xs)), vopts, tol(o));
    }
  });
});

describe('the dtype option casts each element, then accumulates', () => {
  const table = cases(10, 77);
  test.each([
    ['float64', 'int32'],
    ['float64', 'int8'],
    ['int32', 'float32'],
    ['int32', 'uint8'],
    ['float32', 'float64'],
  ] as [DType, DType][])('sum of %s with dtype %s', async (from, to) => {
    const fold: Fold = (v) => v.reduce((a, b) => a + castTo(b, to), 0);
    for (const c of table) await check(sum, c, from, to, fold, { dtype: to }, tol(to));
  });
  test('prod of float64 with dtype int32 multiplies truncated values with wrap-around', async () => {
    const fold: Fold = (v) => v.reduce((a, b) => Math.imul(a, castTo(b, 'int32')), 1);
    for (const c of table) await check(prod, c, 'float64', 'int32', fold, { dtype: 'int32' });
  });
  test('mean of int16 with dtype float32', async () => {
    for (const c of table)
      await check(mean, c, 'int16', 'float32', folds.mean, { dtype: 'float32' }, 1e-5);
  });
});

describe('numerics', () => {
  test('std of 1e8 + unit noise is right to 1e-6 relative', async () => {
    const n = 200_000;
    const r = rng(5);
    const data = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      // Box-Muller normal noise
      data[i] = 1e8 + Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
    }
    let m = 0;
    for (const v of data) m += v - 1e8;
    m /= n;
    let ss = 0;
    for (const v of data) ss += (v - 1e8 - m) ** 2;
    const expected = Math.sqrt(ss / n);
    for (const chunks of [1000, 7919, n]) {
      const got = (await compute(std(fromArray(data, { chunks })))).data[0] as number;
      expect(Math.abs(got - expected) / expected).toBeLessThan(1e-6);
    }
  });

  test('float32 sums accumulate in float64', async () => {
    const data = new Float32Array(1_000_001).fill(0.1);
    const got = (await compute(sum(fromArray(data, { chunks: 250_000 })))).data[0]!;
    expect(got).toBe(Math.fround(Math.fround(0.1) * 1_000_001));
  });

  test('int32 sums accumulate in int64, as NumPy and the Array API (no wrap at 32 bits)', async () => {
    const data = new Int32Array([2 ** 31 - 1, 1, 5]);
    const s = await compute(sum(fromArray(data, { chunks: 1 })));
    expect(s.dtype).toBe('int64');
    expect(s.data[0]).toBe(2n ** 31n + 5n);
  });

  test('NaN propagates through min and max; any treats NaN as true', async () => {
    const x = fromArray(new Float64Array([3, Number.NaN, -1, 0, 4, 2]), {
      shape: [2, 3],
      chunks: 1,
    });
    expect(Array.from((await compute(min(x, { axis: 1 }))).data as NumberArray)).toEqual([
      Number.NaN,
      0,
    ]);
    expect(Array.from((await compute(max(x, { axis: 0 }))).data as NumberArray)).toEqual([
      3,
      Number.NaN,
      2,
    ]);
    expect((await compute(min(x))).data[0]).toBeNaN();
    const nan = fromArray(new Float64Array([0, Number.NaN]));
    expect((await compute(any(nan))).data[0]).toBe(1);
  });
});
