// nansum nanprod nanmean nanvar nanstd nanmin nanmax nanargmin nanargmax against dense
// references on random shapes, chunkings, axes and splitEvery, with NaNs (and all-NaN slices).

import { afterAll, describe, expect, test } from 'vitest';
import {
  nanargmax,
  nanargmin,
  nanmax,
  nanmean,
  nanmin,
  nanprod,
  nanstd,
  nansum,
  nanvar,
} from '../../src/apply/nan-reductions.ts';
import type { DType, NumberArray } from '../../src/array/dtype.ts';
import {
  astype,
  compute,
  fromArray,
  isTesseraError,
  type NDArray,
  shutdown,
} from '../../src/index.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { expectArray, randomAxisChunks, randomDense, rng } from '../helpers/reference.ts';
import { denseReduce, type Fold } from './reduction-reference.ts';

afterAll(() => shutdown());
const SYNC = { scheduler: 'sync' } as const;

interface Case {
  shape: number[];
  chunks: number[][];
  axes: number[];
  axis: number | number[] | undefined;
  keepdims: boolean;
  splitEvery: number | undefined;
  seed: number;
}

function cases(count: number, seed: number, single = false): Case[] {
  const r = rng(seed);
  return Array.from({ length: count }, (_, k) => {
    const ndim = 1 + Math.floor(r() * 3);
    const shape = Array.from({ length: ndim }, () => 1 + Math.floor(r() * 6));
    const chunks = shape.map((n) => randomAxisChunks(n, r));
    const one = Math.floor(r() * ndim);
    const several = shape.map((_, ax) => ax).filter(() => r() < 0.6);
    const axis = r() < 0.3 ? undefined : single || r() < 0.5 ? one : several;
    const axes = axis === undefined ? shape.map((_, ax) => ax) : [axis].flat().sort();
    const splitEvery = r() < 0.5 ? 2 : undefined;
    return { shape, chunks, axes, axis, keepdims: r() < 0.3, splitEvery, seed: seed * 100 + k };
  });
}

/** Random data with about a third NaN (floats). */
function withNaNs(shape: number[], dtype: DType, seed: number): NDArray {
  const d = randomDense(shape, dtype, seed);
  if (dtype.startsWith('float')) {
    const r = rng(seed + 7);
    for (let i = 0; i < d.data.length; i++) if (r() < 0.35) d.data[i] = Number.NaN;
  }
  return d;
}

const valid = (v: number[]) => v.filter((e) => !Number.isNaN(e));
const nanMean = (v: number[]) => valid(v).reduce((a, b) => a + b, 0) / valid(v).length;
const nanVar = (ddof: number) => (v: number[]) => {
  const w = valid(v);
  const m = nanMean(v);
  const dof = w.length - ddof;
  return dof > 0 ? w.reduce((a, b) => a + (b - m) ** 2, 0) / dof : Number.NaN;
};
const extreme = (isMin: boolean) => (v: number[]) =>
  valid(v).length === 0 ? Number.NaN : (isMin ? Math.min : Math.max)(...valid(v));

type Reduction = (
  x: NDArray | ReturnType<typeof fromArray>,
  o: object,
) => ReturnType<typeof fromArray>;

const OPS: [string, Reduction, Fold, (d: DType) => DType][] = [
  [
    'nansum',
    nansum,
    (v) => valid(v).reduce((a, b) => a + b, 0),
    (d) => (d === 'int32' ? 'int64' : d),
  ],
  [
    'nanprod',
    nanprod,
    (v) => valid(v).reduce((a, b) => a * b, 1),
    (d) => (d === 'int32' ? 'int64' : d),
  ],
  ['nanmean', nanmean, nanMean, (d) => (d === 'int32' ? 'float64' : d)],
  [
    'nanvar',
    (x, o) => nanvar(x, { ...o, correction: 1 }),
    nanVar(1),
    (d) => (d === 'int32' ? 'float64' : d),
  ],
  ['nanstd', nanstd, (v) => Math.sqrt(nanVar(0)(v)), (d) => (d === 'int32' ? 'float64' : d)],
  ['nanmin', nanmin, extreme(true), (d) => d],
  ['nanmax', nanmax, extreme(false), (d) => d],
];

describe.each(['float64', 'float32', 'int32'] as DType[])('%s', (dtype) => {
  const table = cases(7, dtype.length + (dtype === 'int32' ? 5 : 0));
  test.each(OPS)('%s', async (_name, op, fold, outOf) => {
    for (const c of table) {
      const dense = withNaNs(c.shape, dtype, c.seed);
      const x = fromArray(dense, { chunks: c.chunks });
      const opts = { axis: c.axis, keepdims: c.keepdims, splitEvery: c.splitEvery };
      const y = op(x, opts);
      const out = outOf(dtype);
      expect(y.dtype).toBe(out);
      const rtol = dtype === 'float32' ? 1e-5 : 1e-9;
      expectArray(await compute(y, SYNC), denseReduce(dense, c.axes, c.keepdims, out, fold), rtol);
    }
  });

  test('nanargmin / nanargmax, or a ValueError cause on an all-NaN slice', async () => {
    for (const c of cases(8, 31, true)) {
      const dense = withNaNs(c.shape, dtype, c.seed);
      const x = fromArray(dense, { chunks: c.chunks });
      const axis = typeof c.axis === 'number' ? c.axis : undefined;
      const axes = axis === undefined ? c.shape.map((_, ax) => ax) : [axis];
      for (const [op, isMin] of [
        [nanargmin, true],
        [nanargmax, false],
      ] as const) {
        const fill = isMin ? Infinity : -Infinity;
        const fold: Fold = (v, f) => {
          if (valid(v).length === 0) return -1;
          const w = v.map((e) => (Number.isNaN(e) ? fill : e));
          let k = 0;
          for (let i = 1; i < w.length; i++) if (isMin ? w[i]! < w[k]! : w[i]! > w[k]!) k = i;
          return axis === undefined ? f[k]! : k;
        };
        const want = denseReduce(dense, axes, c.keepdims, 'int32', fold);
        const y = op(x, { axis, keepdims: c.keepdims, splitEvery: c.splitEvery });
        if (Array.from(want.data as NumberArray).includes(-1)) {
          const err = await compute(y, SYNC).then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(isTesseraError(err, 'TaskError')).toBe(true);
          const cause = (err as Error).cause;
          expect(isTesseraError(cause, 'ValueError')).toBe(true);
          expect((cause as Error).message).toMatch(/^nanarg(min|max): All-NaN slice encountered/);
        } else expectArray(await compute(y, SYNC), want);
      }
    }
  });
});

describe('edges and errors', () => {
  test('an all-NaN slice: nanmin/nanmax/nanmean NaN, nansum 0, nanvar NaN', async () => {
    const x = fromArray(
      [
        [Number.NaN, Number.NaN],
        [1, 2],
      ],
      { chunks: 1 },
    );
    const got = await compute(
      nanmin(x, { axis: 1 }),
      nanmax(x, { axis: 1 }),
      nanmean(x, { axis: 1 }),
      nansum(x, { axis: 1 }),
      nanvar(x, { axis: 1 }),
      SYNC,
    );
    expect(got.map((g) => Array.from(g.data as NumberArray))).toEqual([
      [Number.NaN, 1],
      [Number.NaN, 2],
      [Number.NaN, 1.5],
      [0, 3],
      [Number.NaN, 0.25],
    ]);
  });

  test('nanargmin over an all-NaN slice fails the compute with a ValueError cause', async () => {
    const x = fromArray(
      [
        [Number.NaN, 1],
        [Number.NaN, Number.NaN],
      ],
      { chunks: 1 },
    );
    const err = await compute(nanargmin(x, { axis: 1 }), SYNC).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isTesseraError((err as Error).cause, 'ValueError')).toBe(true);
    await expect(compute(nanargmax(x, { axis: 0 }), SYNC)).rejects.toThrow(/All-NaN slice/);
    expect(Array.from((await compute(nanargmin(x.get('0:1')), SYNC)).data as NumberArray)).toEqual([
      1,
    ]);
  });

  test('float16 takes the composed path: widened, reduced, rounded back', async () => {
    const x = astype(
      fromArray(
        [
          [1, Number.NaN, 2.5],
          [Number.NaN, Number.NaN, 4],
        ],
        { chunks: 1 },
      ),
      'float16',
    );
    const [m, v] = await compute(nanmean(x, { axis: 1 }), nanvar(x, { axis: 1 }), SYNC);
    expect(m!.dtype).toBe('float16');
    expect(m!.toNested()).toEqual([1.75, 4]);
    expect(v!.toNested()).toEqual([0.5625, 0]);
  });

  test('nanvar past the degrees of freedom is NaN (NumPy), large offsets keep precision', async () => {
    const x = fromArray([1e8 + 1, Number.NaN, 1e8 + 3, 1e8 + 2], { chunks: 1 });
    const [v, w] = await compute(nanvar(x, { correction: 3 }), nanvar(x), SYNC);
    expect(Number.isNaN(v!.data[0])).toBe(true);
    expect(w!.data[0]).toBeCloseTo(2 / 3, 9);
  });

  const x = fromArray([
    [1, 2],
    [3, 4],
  ]);
  test.each([
    [() => nansum(x, { axis: 3 }), 'ValueError', ['nansum: axis 3']],
    [
      () => nanmean(x, { keepdims: 'yes' as unknown as boolean }),
      'ValueError',
      ['nanmean: keepdims'],
    ],
    [() => nanvar(x, { correction: -1 }), 'ValueError', ['nanvar: correction -1']],
    [() => nanmin(x, { splitEvery: 1 }), 'ValueError', ['nanmin: splitEvery 1']],
    [
      () => nanargmax(x, { axis: [0, 1] as unknown as number }),
      'ValueError',
      ['nanargmax: axis (0, 1) must be a single integer'],
    ],
    [
      () => nanmax(fromArray(new Float64Array(0), { shape: [0, 2] }), { axis: 0 }),
      'ValueError',
      ['nanmax: zero-size'],
    ],
  ] as const)('%#', (f, tag, fragments) => {
    expectThrow(f, tag, fragments);
  });
});
