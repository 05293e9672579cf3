// percentile / quantile / median (and nan forms) against NumPy fixtures (make-quantiles.py)
// for every method, on random chunkings and float32/float64/int32; graph shape; errors.

import { afterAll, describe, expect, test } from 'vitest';
import {
  median,
  nanmedian,
  nanpercentile,
  nanquantile,
  percentile,
  type QuantileMethod,
  quantile,
} from '../../src/apply/percentile.ts';
import type { NumberArray } from '../../src/array/dtype.ts';
import { QUANTILE_METHODS } from '../../src/backends/cpu-js/reduce/quantile-methods.ts';
import { materializeTasks } from '../../src/graph/materialize.ts';
import {
  astype,
  compute,
  fromArray,
  type LazyArray,
  nanargmin,
  shutdown,
} from '../../src/index.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { expectArray, rng, withChunks } from '../helpers/reference.ts';
import { fixtures, input, nums } from './stats-fixtures.ts';

afterAll(() => shutdown());
const SYNC = { scheduler: 'sync' } as const;
const DISCRETE = ['inverted_cdf', 'closest_observation', 'lower', 'higher', 'nearest'];

describe('quantile against NumPy, every method', () => {
  test.each(fixtures.quantile.map((c, i) => [i, c] as const))('case %i', async (i, c) => {
    const r = rng(100 + i);
    const x = input(c.shape, c.dtype, c.x, r);
    const methods = QUANTILE_METHODS as readonly QuantileMethod[];
    const outs = methods.map((method) =>
      quantile(x, c.q, { axis: c.axis, method, keepdims: c.keepdims }),
    );
    const got = await compute(...(outs as [LazyArray, LazyArray]), SYNC);
    methods.forEach((method, k) => {
      const dtype =
        c.dtype === 'int32' ? (DISCRETE.includes(method) ? 'int32' : 'float64') : c.dtype;
      expectArray(
        got[k]!,
        { dtype, shape: c.outShape, data: nums(c.out[method]) },
        c.dtype === 'float32' ? 1e-6 : 1e-12,
      );
    });
  });

  test('percentile is quantile of q / 100; median is the linear 0.5 quantile', async () => {
    const c = fixtures.quantile[3]!;
    const x = input(c.shape, c.dtype, c.x, rng(7));
    const [p, q, m, m2] = await compute(
      percentile(x, [50, 25], { axis: c.axis, method: 'hazen' }),
      quantile(x, [0.5, 0.25], { axis: c.axis, method: 'hazen' }),
      median(x, { axis: c.axis }),
      quantile(x, 0.5, { axis: c.axis }),
      SYNC,
    );
    expectArray(p!, q!);
    expectArray(m!, m2!);
  });
});

describe('NaN', () => {
  test.each(fixtures.nan.map((c, i) => [i, c] as const))('case %i', async (i, c) => {
    const x = input(c.shape, c.dtype, c.x, rng(200 + i));
    const methods = Object.keys(c.nan) as QuantileMethod[];
    const outs = [
      quantile(x, c.q, { axis: c.axis }),
      ...methods.map((method) => nanquantile(x, c.q, { axis: c.axis, method })),
    ] as [LazyArray, LazyArray];
    const got = await compute(...outs, SYNC);
    const rtol = c.dtype === 'float32' ? 1e-6 : 1e-12;
    const shape = got[0]!.shape;
    expectArray(got[0]!, { dtype: c.dtype, shape, data: nums(c.plain) }, rtol);
    methods.forEach((m, k) => {
      expectArray(got[k + 1]!, { dtype: c.dtype, shape, data: nums(c.nan[m]!) }, rtol);
    });
  });

  test('nanpercentile and nanmedian', async () => {
    const x = fromArray(
      [
        [1, Number.NaN, 3, 10],
        [Number.NaN, Number.NaN, Number.NaN, 2],
      ],
      {
        chunks: [1, 2],
      },
    );
    const [p, m] = await compute(nanpercentile(x, 50, { axis: 1 }), nanmedian(x), SYNC);
    expect(Array.from(p!.data as NumberArray)).toEqual([3, 2]);
    expect(m!.data[0]).toBe(2.5);
  });
});

describe('graph', () => {
  test('axes whole in their chunk: one task per block, no rechunk', () => {
    const x = fromArray(new Float64Array(60), { shape: [6, 10], chunks: [2, 10] });
    const p = percentile(x, 50, { axis: 1 });
    expect(p.chunks).toEqual([[2, 2, 2]]);
    const table = materializeTasks([p.layer]);
    const ops = Array.from(table.layerOf, (l) => table.layers[l]!.op);
    expect(ops.filter((op) => op === 'percentile')).toHaveLength(3);
    expect(ops.some((op) => op.startsWith('rechunk'))).toBe(false);
  });

  test('a chunked reduced axis is rechunked whole; the others keep their chunks', async () => {
    const x = fromArray(
      Float64Array.from({ length: 60 }, (_, i) => (i * 7) % 11),
      {
        shape: [6, 10],
        chunks: [3, 4],
      },
    );
    const p = quantile(x, [0.5, 0.9], { axis: 0, keepdims: true });
    expect(p.chunks).toEqual([[2], [1], [4, 4, 2]]);
    expect(p.layer.deps[0]!.chunks).toEqual([[6], [4, 4, 2]]);
    const dense = await compute(
      quantile(fromArray((await compute(x, SYNC)).data, { shape: [6, 10] }), [0.5, 0.9], {
        axis: 0,
        keepdims: true,
      }),
      SYNC,
    );
    expectArray(await compute(p, SYNC), dense);
  });

  test('float16 is selected as float32 and rounded back', async () => {
    const x = astype(
      fromArray(
        [
          [1, 2.5, 7, 4],
          [3, 5, 0, Number.NaN],
        ],
        { chunks: 2 },
      ),
      'float16',
    );
    const r = await compute(quantile(x, 0.3, { axis: 1 }), SYNC);
    expect(r.dtype).toBe('float16');
    expect(r.toNested()).toEqual([2.349609375, Number.NaN]);
  });

  test('an empty slice gives NaN', async () => {
    const r = await compute(
      median(fromArray(new Float64Array(0), { shape: [2, 0] }), { axis: 1 }),
      SYNC,
    );
    expect(r.shape).toEqual([2]);
    expect(Array.from(r.data as NumberArray).every(Number.isNaN)).toBe(true);
  });
});

describe('threads', () => {
  test('the quantile, sketch and all-NaN kernels run on worker threads', async () => {
    const x = fromArray(
      Float64Array.from({ length: 400 }, (_, i) => (i * 37) % 101),
      {
        shape: [4, 100],
        chunks: [2, 25],
      },
    );
    const opts = { axis: 1 } as const;
    const [a, b, c] = await compute(
      median(x, opts),
      quantile(x, 0.5, { ...opts, approximate: true }),
      nanargmin(x, opts),
      { scheduler: 'threads', workers: 1 },
    );
    const [ea, eb, ec] = await compute(median(x, opts), median(x, opts), nanargmin(x, opts), SYNC);
    expectArray(a!, ea!);
    expectArray(b!, eb!);
    expectArray(c!, ec!);
  });
});

describe('errors at build time', () => {
  const x = fromArray([
    [1, 2],
    [3, 4],
  ]);
  test.each([
    [() => percentile(x, 120), 'ValueError', ['percentile: q must be in [0, 100], got 120']],
    [() => percentile(x, [10, -1]), 'ValueError', ['percentile: q must be in [0, 100], got -1']],
    [() => quantile(x, 1.5), 'ValueError', ['quantile: q must be in [0, 1], got 1.5']],
    [() => quantile(x, Number.NaN), 'ValueError', ['quantile: q must be in [0, 1]']],
    [
      () => nanquantile(x, []),
      'ValueError',
      ['nanquantile: q () must be a number or a non-empty list'],
    ],
    [
      () => percentile(x, 50, { method: 'cubic' as QuantileMethod }),
      'ValueError',
      ["percentile: method 'cubic' must be one of", "'linear'"],
    ],
    [() => median(x, { axis: 2 }), 'ValueError', ['median: axis 2 is out of bounds']],
    [() => nanpercentile(x, 5, { axis: [0, 0] }), 'ValueError', ['nanpercentile:']],
    [
      () => quantile(x, 0.5, { keepdims: 1 as unknown as boolean }),
      'ValueError',
      ['quantile: keepdims'],
    ],
    [
      () => median(withChunks(fromArray([1, 2, 3, 4], { chunks: 2 }), [[null, null]])),
      'ChunkError',
      ['median: axis 0 has unknown chunk sizes', 'computeChunkSizes', 'approximate: true'],
    ],
  ] as const)('%#', (f, tag, fragments) => {
    expectThrow(f, tag, fragments);
  });
});
