// histogram, histogram2d and bincount: numpy fixtures (numpy-histogram.py) on several
// chunkings, a dense bincount reference, the tree's task counts, errors.

import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, test } from 'vitest';
import type { DType } from '../../src/array/dtype.ts';
import { materializeTasks } from '../../src/graph/materialize.ts';
import {
  arange,
  bincount,
  compute,
  computeChunkSizes,
  fromArray,
  histogram,
  histogram2d,
  shutdown,
} from '../../src/index.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { expectArray, randomAxisChunks, rng } from '../helpers/reference.ts';

afterAll(() => shutdown());
const SYNC = { scheduler: 'sync' } as const;

interface HistCase {
  shape: number[];
  dtype: DType;
  bins: number | number[];
  range: [number, number] | null;
  weighted: boolean;
  density: boolean;
  hist: (number | null)[];
  edges: number[];
  edgeDtype: string;
}
interface Hist2dCase {
  dtype: DType;
  bins: number | number[] | number[][];
  range: [[number, number], [number, number]] | null;
  weighted: boolean;
  hist: number[];
  shape: number[];
  xedges: number[];
  yedges: number[];
}

const fixtures = JSON.parse(
  readFileSync(new URL('../fixtures/numpy-histogram.json', import.meta.url), 'utf8'),
) as { cases: HistCase[]; cases2d: Hist2dCase[] };

function values(n: number, dtype: DType) {
  const v = Array.from({ length: n }, (_, i) => ((i * 37) % 101) / 7 - 5);
  if (dtype === 'float32') return Float32Array.from(v);
  if (dtype === 'int32') return Int32Array.from(v, Math.trunc);
  return Float64Array.from(v); // float64, or float16 values rounded by fromArray's dtype
}
const weights = (n: number) => Float64Array.from({ length: n }, (_, i) => (i % 5) / 4);

describe('histogram matches numpy', () => {
  const label = (c: HistCase) =>
    `${JSON.stringify(c.bins)} ${JSON.stringify(c.range)} [${c.shape}] ${c.dtype}${c.weighted ? ' weighted' : ''}${c.density ? ' density' : ''}`;
  test.each(fixtures.cases.map((c, i) => [label(c), c, i] as const))('%s', async (_, c, i) => {
    const r = rng(i + 1);
    const n = c.shape.reduce((a, b) => a * b, 1);
    const base = fromArray(values(n, c.dtype), { shape: c.shape, dtype: c.dtype });
    for (let rep = 0; rep < 2; rep++) {
      const chunks = c.shape.map((s) => randomAxisChunks(s, r));
      const x = base.rechunk(chunks);
      // weights chunked differently: aligned to x's chunks
      const w = c.weighted ? fromArray(weights(n), { shape: c.shape }) : undefined;
      const [hist, edges] = histogram(x, {
        bins: c.bins,
        ...(c.range ? { range: c.range } : {}),
        ...(w ? { weights: w } : {}),
        density: c.density,
      });
      expect(hist.shape).toEqual([c.hist.length]);
      expect(edges.shape).toEqual([c.edges.length]);
      const [h, e] = await compute(hist, edges, SYNC);
      const want = c.hist.map((v) => v ?? Number.NaN);
      expectArray(h, { dtype: 'float64', shape: [want.length], data: want }, 1e-12);
      expectArray(
        e,
        { dtype: c.edgeDtype as DType, shape: [c.edges.length], data: c.edges },
        1e-15,
      );
    }
  });

  test.each(
    fixtures.cases2d.map(
      (c, i) => [JSON.stringify([c.bins, c.range, c.dtype, c.weighted]), c, i] as const,
    ),
  )('2d %s', async (_, c, i) => {
    const r = rng(50 + i);
    const xs = values(150, c.dtype);
    const ys = xs.map((_, k) => xs[(k * 7) % 150]!);
    const x = fromArray(xs, { dtype: c.dtype }).rechunk([randomAxisChunks(150, r)]);
    const y = fromArray(ys, { dtype: c.dtype }).rechunk([randomAxisChunks(150, r)]);
    const opts = {
      bins: c.bins as [number[], number[]],
      ...(c.range ? { range: c.range } : {}),
      ...(c.weighted ? { weights: fromArray(weights(150)) } : {}),
    };
    const [hist, xe, ye] = histogram2d(x, y, opts);
    expect(hist.shape).toEqual(c.shape);
    const [h, a, b] = await compute(hist, xe, ye, SYNC);
    expectArray(h, { dtype: 'float64', shape: c.shape, data: c.hist }, 1e-12);
    expectArray(a, { shape: [c.xedges.length], data: c.xedges }, 1e-15);
    expectArray(b, { shape: [c.yedges.length], data: c.yedges }, 1e-15);
  });

  test('the counts are summed by a tree: one partial per block, fan-in splitEvery', () => {
    const x = arange(64, { chunks: 4, dtype: 'float64' });
    const [hist] = histogram(x, { bins: 4, range: [0, 64] });
    const table = materializeTasks([hist.layer]);
    const ops = new Map<string, number>();
    for (let t = 0; t < table.count; t++) {
      const op = table.layers[table.layerOf[t]!]!.op;
      ops.set(op, (ops.get(op) ?? 0) + 1);
    }
    expect(ops.get('histogram-partial')).toBe(16);
    expect(ops.get('histogram-combine')).toBe(4 + 1);
  });
});

describe('bincount', () => {
  test.each([1, 2, 3, 4, 5, 6])('matches a dense count (seed %i)', async (seed) => {
    const r = rng(seed);
    const n = 1 + Math.floor(r() * 40);
    const dtype: DType = (['int32', 'uint8', 'int16'] as const)[seed % 3]!;
    const v = Array.from({ length: n }, () => Math.floor(r() * 12));
    const w = Array.from({ length: n }, () => r() - 0.3);
    const x = fromArray(v, { dtype }).rechunk([randomAxisChunks(n, r)]);
    const weighted = seed % 2 === 0;
    const top = Math.max(...v);
    const want = new Array<number>(top + 1).fill(0);
    v.forEach((k, i) => {
      want[k]! += weighted ? w[i]! : 1;
    });
    const opts = weighted ? { weights: fromArray(w) } : {};
    const unknown = bincount(x, opts);
    expect(unknown.shape).toEqual([null]);
    expectArray(
      await compute(unknown, SYNC),
      { dtype: 'float64', shape: [top + 1], data: want },
      1e-12,
    );
    const known = bincount(x, { ...opts, minlength: 15 });
    expect(known.shape).toEqual([15]);
    const padded = [...want, ...new Array<number>(15 - want.length).fill(0)];
    expectArray(await compute(known, SYNC), { dtype: 'float64', shape: [15], data: padded }, 1e-12);
    expect((await computeChunkSizes(unknown, SYNC)).shape).toEqual([top + 1]);
  });

  test('negative values and values past minlength fail the compute with ValueError', async () => {
    const neg = bincount(fromArray(new Int32Array([0, -3, 2]), { chunks: 2 }));
    await expect(compute(neg, SYNC)).rejects.toThrow(/bincount: x holds a negative value \(-3\)/);
    const past = bincount(fromArray(new Int32Array([0, 7, 2])), { minlength: 5 });
    await expect(compute(past, SYNC)).rejects.toThrow(/bincount: x holds 7, not below minlength 5/);
  });
});

describe('counting errors', () => {
  const x = arange(10, { dtype: 'float64' });
  test.each([
    [
      () => histogram(x, { bins: [0, 2, 1] }),
      'ValueError',
      ['histogram:', 'increase monotonically', 'edge 2 (1)'],
    ],
    [() => histogram(x, { bins: 0, range: [0, 1] }), 'ValueError', ['histogram:', 'bins 0']],
    [
      () => histogram(x, { bins: 3, range: [2, 1] }),
      'ValueError',
      ['histogram:', 'max must be larger than min'],
    ],
    [
      () => histogram(x, { bins: 3, range: [0, Number.POSITIVE_INFINITY] }),
      'ValueError',
      ['histogram:', 'not finite'],
    ],
    [() => histogram(x, { bins: [0, Number.NaN] }), 'ValueError', ['histogram:', 'not finite']],
    [
      () => histogram(x, { weights: arange(9) }),
      'ShapeError',
      ['histogram:', 'weights of shape (9,)'],
    ],
    [() => histogram2d(x, x, { bins: 3 }), 'ValueError', ['histogram2d:', 'need range']],
    [
      () => histogram2d(x, arange(3), { bins: 3 }),
      'ShapeError',
      ['histogram2d:', 'y of shape (3,)'],
    ],
    [() => bincount(x), 'DTypeError', ['bincount:', "'float64'"]],
    [() => bincount(arange(4).reshape([2, 2])), 'ShapeError', ['bincount:', 'one-dimensional']],
    [() => bincount(arange(4), { minlength: -1 }), 'ValueError', ['bincount:', 'minlength -1']],
  ])('error %#', (f, tag, fragments) => expectThrow(f, tag, fragments));
});
