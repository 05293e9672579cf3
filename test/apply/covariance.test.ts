// cov / corrcoef against NumPy fixtures (make-quantiles.py) on random chunkings and dtypes,
// average against a dense reference; the contraction stays chunked along time; errors.

import { afterAll, describe, expect, test } from 'vitest';
import { average } from '../../src/apply/average.ts';
import { corrcoef, cov } from '../../src/apply/covariance.ts';
import type { NumberArray } from '../../src/array/dtype.ts';
import { materializeTasks } from '../../src/graph/materialize.ts';
import { compute, fromArray, ndarray, shutdown } from '../../src/index.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { at, expectArray, randomAxisChunks, randomDense, rng } from '../helpers/reference.ts';
import { fixtures, input, nums } from './stats-fixtures.ts';

afterAll(() => shutdown());
const SYNC = { scheduler: 'sync' } as const;

describe('cov and corrcoef against NumPy', () => {
  test.each(fixtures.cov.map((c, i) => [i, c] as const))('case %i', async (i, c) => {
    const x = input(c.shape, c.dtype, c.x, rng(300 + i));
    const y =
      c.kind === 'cov'
        ? cov(x, {
            rowvar: c.rowvar,
            bias: c.bias ?? false,
            ...(c.ddof == null ? {} : { ddof: c.ddof }),
          })
        : corrcoef(x, { rowvar: c.rowvar });
    expectArray(
      await compute(y, SYNC),
      { dtype: 'float64', shape: c.outShape, data: nums(c.out) },
      1e-9,
    );
  });

  test.each(fixtures.covWeighted.map((c, i) => [i, c] as const))(
    'y, fweights and aweights: case %i',
    async (i, c) => {
      const r = rng(700 + i);
      const x = input(c.shape, 'float64', c.x, r);
      const y = c.y === null || c.yShape === null ? undefined : input(c.yShape, 'float64', c.y, r);
      // weights as data (checked) on even cases, as chunked lazy arrays on odd ones
      const asW = (w: number[] | null) =>
        w === null ? undefined : i % 2 === 0 ? w : fromArray(w, { chunks: 4 });
      const fw = asW(c.fweights);
      const aw = asW(c.aweights);
      const got = cov(x, {
        rowvar: c.rowvar,
        bias: c.bias,
        ...(c.ddof === null ? {} : { ddof: c.ddof }),
        ...(y === undefined ? {} : { y }),
        ...(fw === undefined ? {} : { fweights: fw }),
        ...(aw === undefined ? {} : { aweights: aw }),
      });
      expectArray(
        await compute(got, SYNC),
        { dtype: 'float64', shape: c.outShape, data: nums(c.out) },
        1e-9,
      );
    },
  );

  test('corrcoef with y is corrcoef of the stacked variables', async () => {
    const a = randomDense([3, 20], 'float64', 1);
    const b = randomDense([2, 20], 'float64', 2);
    const both = ndarray(Float64Array.from([...a.data, ...b.data]), [5, 20]);
    const got = await compute(corrcoef(fromArray(a, { chunks: [3, 7] }), { y: b }), SYNC);
    expectArray(got, await compute(corrcoef(both), SYNC), 1e-12);
  });

  test('bad weights and y fail when the expression is built, naming cov', () => {
    const x = fromArray(randomDense([2, 5]));
    expectThrow(() => cov(x, { fweights: [1, 2, 1.5, 1, 1] }), 'ValueError', [
      'cov: fweights must be integers',
    ]);
    expectThrow(() => cov(x, { aweights: [1, -2, 1, 1, 1] }), 'ValueError', [
      'cov: aweights cannot be negative',
    ]);
    expectThrow(() => cov(x, { fweights: [1, 2, 3] }), 'ShapeError', [
      'cov: fweights has 3 values for 5 observations',
    ]);
    expectThrow(() => cov(x, { aweights: [[1, 2, 3, 4, 5]] }), 'ShapeError', ['must be 1-d']);
    expectThrow(() => cov(x, { y: randomDense([2, 4]) }), 'ShapeError', [
      'cov: y has 4 observations, x has 5',
    ]);
  });

  test('channel x time chunked along time: per-chunk partial products, no transpose layer', () => {
    const x = fromArray(randomDense([4, 64]), { chunks: [4, 8] });
    const table = materializeTasks([cov(x).layer]);
    const ops = new Set(Array.from(table.layerOf, (l) => table.layers[l]!.op));
    expect([...ops].some((op) => op.includes('transpose') || op.startsWith('rechunk'))).toBe(false);
    expect(cov(x).chunks).toEqual([[4], [4]]);
  });
});

describe('average', () => {
  test('weights along one axis and of the full shape, against a dense reference', async () => {
    const r = rng(5);
    for (let k = 0; k < 8; k++) {
      const shape = [1 + Math.floor(r() * 5), 1 + Math.floor(r() * 5), 1 + Math.floor(r() * 4)];
      const axis = Math.floor(r() * 3);
      const dense = randomDense(shape, k % 2 ? 'float32' : 'int32', 10 + k);
      const x = fromArray(dense, { chunks: shape.map((n) => randomAxisChunks(n, r)) });
      const w1 = Array.from({ length: shape[axis]! }, (_, i) => 1 + ((i * 3) % 5));
      const wFull = randomDense(shape, 'float64', 40 + k);
      for (let i = 0; i < wFull.data.length; i++)
        (wFull.data as NumberArray)[i] = Math.abs((wFull.data as NumberArray)[i]!) + 0.5;
      const [avg, scl] = average(x, { axis, weights: w1, returned: true });
      const full = average(x, { axis, weights: fromArray(wFull, { chunks: 2 }) });
      const got = await compute(avg, scl, full, SYNC);
      const kept = shape.filter((_, ax) => ax !== axis);
      const want1 = new Float64Array(kept[0]! * kept[1]!);
      const wantS = new Float64Array(want1.length);
      const wantF = new Float64Array(want1.length);
      for (let o = 0; o < want1.length; o++) {
        let sw = 0;
        let s = 0;
        let swf = 0;
        let sf = 0;
        for (let j = 0; j < shape[axis]!; j++) {
          const idx = [Math.floor(o / kept[1]!), o % kept[1]!];
          idx.splice(axis, 0, j);
          const v = at(dense, idx);
          sw += w1[j]!;
          s += v * w1[j]!;
          swf += at(wFull, idx);
          sf += v * at(wFull, idx);
        }
        want1[o] = s / sw;
        wantS[o] = sw;
        wantF[o] = sf / swf;
      }
      const dtype = 'float64'; // list weights are float64: float32 data promotes, as NumPy's int64 weights
      expectArray(got[0]!, { dtype, shape: kept, data: want1 }, 1e-6);
      expectArray(got[1]!, { shape: kept, data: wantS }, 1e-6);
      expectArray(got[2]!, { dtype: 'float64', shape: kept, data: wantF }, 1e-6);
    }
  });

  test('no weights is the mean; returned gives the count', async () => {
    const x = fromArray(
      [
        [1, 2],
        [3, 5],
      ],
      { chunks: 1 },
    );
    const [a, n] = average(x, { axis: 0, returned: true });
    const [ga, gn] = await compute(a, n, SYNC);
    expect(Array.from(ga!.data as NumberArray)).toEqual([2, 3.5]);
    expect(Array.from(gn!.data as NumberArray)).toEqual([2, 2]);
    expect((await compute(average(x, { keepdims: true }), SYNC)).shape).toEqual([1, 1]);
  });
});

describe('errors at build time', () => {
  const x = fromArray([
    [1, 2, 3],
    [4, 5, 6],
  ]);
  test.each([
    [
      () => average(x, { axis: 1, weights: [1, -1, 0] }),
      'ValueError',
      ['average: weights sum to zero'],
    ],
    [
      () => average(x, { axis: 1, weights: ndarray([0, 0, 0], [3]) }),
      'ValueError',
      ['average: weights sum to zero'],
    ],
    [
      () => average(x, { axis: 1, weights: [1, 2] }),
      'ShapeError',
      ['average: weights of length 2'],
    ],
    [
      () => average(x, { weights: [1, 2, 3] }),
      'ValueError',
      ['average: 1-d weights need a single axis'],
    ],
    [() => average(x, { axis: 5 }), 'ValueError', ['average: axis 5']],
    [
      () => cov(fromArray(new Float64Array(8), { shape: [2, 2, 2] })),
      'ShapeError',
      ['cov: x of shape (2, 2, 2)'],
    ],
    [() => cov(x, { ddof: 0.5 }), 'ValueError', ['cov: ddof 0.5 must be an integer']],
    [() => corrcoef(x, { rowvar: 'no' as unknown as boolean }), 'ValueError', ['corrcoef: rowvar']],
  ] as const)('%#', (f, tag, fragments) => {
    expectThrow(f, tag, fragments);
  });
});
