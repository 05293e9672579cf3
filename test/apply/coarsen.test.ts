// coarsen against a dense window-by-window reference on random shapes, chunkings, dtypes
// and factors; chunk alignment, trimExcess and pad; errors.

import { afterAll, describe, expect, test } from 'vitest';
import { alignedChunks } from '../../src/apply/coarsen.ts';
import type { DType, NumberArray, TypedArray } from '../../src/array/dtype.ts';
import { cStrides, type NDArray, shapeSize } from '../../src/array/ndarray.ts';
import {
  arange,
  type CoarsenReductionName,
  coarsen,
  compute,
  fromArray,
  max as maxOf,
  mean,
  shutdown,
} from '../../src/index.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { expectArray, randomAxisChunks, randomDense, rng } from '../helpers/reference.ts';

afterAll(() => shutdown());
/** The stored elements as plain numbers (what Array.from(data) gave before int64). */
const raw = (a: NDArray): number[] => Array.from(a.data as NumberArray);
const SYNC = { scheduler: 'sync' } as const;

const REF: Record<CoarsenReductionName, (v: number[]) => number> = {
  sum: (v) => v.reduce((a, b) => a + b, 0),
  prod: (v) => v.reduce((a, b) => a * b, 1),
  mean: (v) => v.reduce((a, b) => a + b, 0) / v.length,
  min: (v) => Math.min(...v),
  max: (v) => Math.max(...v),
  any: (v) => (v.some((e) => e !== 0) ? 1 : 0),
  all: (v) => (v.every((e) => e !== 0) ? 1 : 0),
  var: (v) => {
    const m = v.reduce((a, b) => a + b, 0) / v.length;
    return v.reduce((a, b) => a + (b - m) ** 2, 0) / v.length;
  },
  std: (v) => Math.sqrt(REF.var(v)),
};

/** Dense coarsen of `x` (shape a multiple of factors): each window's values reduced. */
function reference(
  x: { shape: number[]; data: ArrayLike<number> | TypedArray },
  factors: number[],
  r: CoarsenReductionName,
) {
  const outShape = x.shape.map((n, ax) => n / factors[ax]!);
  const st = cStrides(x.shape);
  const out: number[] = [];
  const win = shapeSize(factors);
  for (let o = 0; o < shapeSize(outShape); o++) {
    const oi = outShape.map(
      (_, ax) => Math.floor(o / shapeSize(outShape.slice(ax + 1))) % outShape[ax]!,
    );
    const vals: number[] = [];
    for (let w = 0; w < win; w++) {
      let off = 0;
      factors.forEach((f, ax) => {
        const wi = Math.floor(w / shapeSize(factors.slice(ax + 1))) % f;
        off += (oi[ax]! * f + wi) * st[ax]!;
      });
      vals.push(x.data[off] as number);
    }
    out.push(REF[r](vals));
  }
  return { shape: outShape, data: out };
}

const NAMES = Object.keys(REF) as CoarsenReductionName[];
const DTYPES: DType[] = ['float64', 'float32', 'int32', 'uint8'];

describe('coarsen matches a dense reference', () => {
  test.each(Array.from({ length: 24 }, (_, i) => i))('case %i', async (i) => {
    const r = rng(7 + i);
    const ndim = 1 + Math.floor(r() * 3);
    const factors = Array.from({ length: ndim }, () => 1 + Math.floor(r() * 3));
    const shape = factors.map((f) => f * (1 + Math.floor(r() * 4)));
    const dtype = DTYPES[i % DTYPES.length]!;
    const name = NAMES[i % NAMES.length]!;
    const dense = randomDense(shape, dtype, 1 + i);
    if (name === 'prod') for (let k = 0; k < dense.data.length; k++) dense.data[k] = (k % 3) + 1;
    const chunks = shape.map((n) => randomAxisChunks(n, r));
    const x = fromArray(dense).rechunk(chunks);
    const axes = Object.fromEntries(factors.map((f, ax) => [ax, f]));
    const y = coarsen(name, x, axes);
    const want = reference(dense, factors, name);
    expect(y.shape).toEqual(want.shape);
    const rtol = dtype === 'float32' || name === 'var' || name === 'std' ? 1e-5 : 1e-9;
    const got = await compute(y, SYNC);
    expectArray(got, want, rtol);
    // the aligned chunks, divided by the factors
    y.chunks.forEach((c, ax) => {
      const f = factors[ax]!;
      const aligned = chunks[ax]!.every((n) => n % f === 0)
        ? chunks[ax]!
        : alignedChunks(chunks[ax]!, f);
      expect(c).toEqual(aligned.map((n) => n / f));
    });
  });
});

describe('coarsen', () => {
  test('dtypes follow the reductions; the library functions are accepted', async () => {
    const x = fromArray(Int32Array.from([1, 2, 3, 4]), { chunks: 2 });
    expect(coarsen('sum', x, { 0: 2 }).dtype).toBe('int32');
    expect(coarsen('mean', x, { 0: 2 }).dtype).toBe('float64');
    expect(coarsen('any', x, { 0: 2 }).dtype).toBe('bool');
    const a = await compute(coarsen(mean, x, { [-1]: 2 }), SYNC);
    expect(raw(a)).toEqual([1.5, 3.5]);
    const b = await compute(coarsen(maxOf, x, { 0: 4 }), SYNC);
    expect(raw(b)).toEqual([4]);
  });

  test('alignedChunks rounds down and carries', () => {
    expect(alignedChunks([5, 5, 2], 3)).toEqual([3, 6, 3]);
    expect(alignedChunks([1, 1, 1, 1], 2)).toEqual([2, 2]);
    expect(alignedChunks([4, 4], 2)).toEqual([4, 4]);
  });

  test('trimExcess drops the remainder; pad fills the last window', async () => {
    const x = arange(7, { chunks: 3, dtype: 'float64' });
    const t = await compute(coarsen('sum', x, { 0: 3 }, { trimExcess: true }), SYNC);
    expect(raw(t)).toEqual([3, 12]);
    const p = await compute(coarsen('sum', x, { 0: 3 }, { pad: 0 }), SYNC);
    expect(raw(p)).toEqual([3, 12, 6]);
    const e = await compute(coarsen('max', x, { 0: 3 }, { pad: 'edge' }), SYNC);
    expect(raw(e)).toEqual([2, 5, 6]);
  });

  test('axes of unknown size that are not coarsened are fine, trimmed or not', async () => {
    const rows = arange(6).mask(arange(6).greater(2)); // 3 elements, unknown until computed
    const x = rows
      .expandDims({ axis: 1 })
      .multiply(arange(5, { dtype: 'float64' }).reshape([1, 5]));
    const y = coarsen('sum', x, { 1: 2 }, { trimExcess: true });
    expect(y.shape).toEqual([null, 2]);
    expect((await compute(y, SYNC)).toNested()).toEqual([
      [3, 15],
      [4, 20],
      [5, 25],
    ]);
  });

  test.each([
    [
      () => coarsen('sum', arange(7), { 0: 2 }),
      'ValueError',
      ['coarsen:', '{"0":2}', 'shape (7', 'trimExcess'],
    ],
    [
      () => coarsen('median' as CoarsenReductionName, arange(4), { 0: 2 }),
      'ValueError',
      ['coarsen:', "'median'"],
    ],
    [
      () => coarsen(Math.max as never, arange(4), { 0: 2 }),
      'ValueError',
      ['coarsen:', 'function max'],
    ],
    [() => coarsen('sum', arange(4), { 0: 0 }), 'ValueError', ['coarsen:', 'factor 0']],
    [() => coarsen('sum', arange(4), { 1: 2 }), 'ValueError', ['coarsen:']],
    [
      () => coarsen('sum', arange(4), { 0: 2 }, { trimExcess: true, pad: 0 }),
      'ValueError',
      ['not both'],
    ],
    [
      () => coarsen('sum', arange(6).mask(arange(6).greater(2)), { 0: 2 }),
      'ChunkError',
      ['coarsen:', 'computeChunkSizes'],
    ],
  ])('error %#', (f, tag, fragments) => expectThrow(f, tag, fragments));
});
