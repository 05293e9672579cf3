// sort, argsort, the unique family, searchsorted and nonzero against NumPy (fixtures) on
// random chunkings (several blocks along the sorted axis exercise the merge tree), NaN
// and stability rules in JS, graph shape of the merge tree, and bad input.

import { afterAll, describe, expect, it } from 'vitest';
import { type NumberArray, typedArrayCtor } from '../../src/array/dtype.ts';
import type { LazyArray } from '../../src/array/lazy-array.ts';
import { NDArray } from '../../src/array/ndarray.ts';
import { materializeTasks } from '../../src/graph/materialize.ts';
import {
  argsort,
  astype,
  compute,
  computeChunkSizes,
  DTypeError,
  fromArray,
  nonzero,
  ShapeError,
  searchsorted,
  sort,
  takeAlongAxis,
  uniqueAll,
  uniqueCounts,
  uniqueInverse,
  uniqueValues,
  ValueError,
} from '../../src/index.ts';
import { shutdownDefaultPool } from '../../src/workers/pool.ts';
import { expectArray, randomAxisChunks, rng } from '../helpers/reference.ts';
import { decode, FIXTURES, type FixtureArray } from './array-api-fixtures.ts';

/** The stored elements as plain numbers (what Array.from(data) gave before int64). */
const raw = (a: NDArray): number[] => Array.from(a.data as NumberArray);
const SYNC = { scheduler: 'sync' } as const;
const t16 = (v: number[]) => astype(fromArray(v, { chunks: 3 }), 'float16');
afterAll(() => shutdownDefaultPool());

function lazy(a: FixtureArray, r: () => number): LazyArray {
  const data = new (typedArrayCtor(a.dtype))(a.data.length);
  (data as NumberArray).set(a.data);
  return fromArray(new NDArray(data, a.shape, a.dtype), {
    chunks: a.shape.map((n) => randomAxisChunks(n, r)),
  });
}

const sorting = FIXTURES.sorting as { x: never; axis: number; sort: never; argsort: never }[];

describe('sort and argsort (NumPy, stable)', () => {
  it.each(
    sorting.map((c, i) => [`${decode(c.x).dtype} ${decode(c.x).shape} axis ${c.axis}`, i] as const),
  )('%s', async (_l, i) => {
    const c = sorting[i]!;
    const r = rng(i + 11);
    const x = lazy(decode(c.x), r);
    const splitEvery = 2 + (i % 3);
    const [s, a] = await compute(
      sort(x, { axis: c.axis, splitEvery }),
      argsort(x, { axis: c.axis, splitEvery }),
      SYNC,
    );
    expectArray(s, decode(c.sort), 0);
    expectArray(a, { ...decode(c.argsort), dtype: 'int32' }, 0);
    expect(s.shape).toEqual(x.shape);
  });

  it('descending keeps ties in order, NaN last in both orders', async () => {
    const x = fromArray([2, Number.NaN, 1, 2, 3, 1, Number.NaN, 3], { chunks: 3 });
    const [d, ad, a] = await compute(
      sort(x, { descending: true }),
      argsort(x, { descending: true }),
      argsort(x),
      SYNC,
    );
    expectArray(d, { shape: [8], data: [3, 3, 2, 2, 1, 1, Number.NaN, Number.NaN] });
    expectArray(ad, { shape: [8], data: [4, 7, 0, 3, 2, 5, 1, 6] });
    expectArray(a, { shape: [8], data: [2, 5, 0, 3, 4, 7, 1, 6] });
  });

  it('float16 sorts through float32 and keeps its dtype; integers descend', async () => {
    const h = t16([1.5, -2, 0.25, 8]);
    const [s, a, d] = await compute(
      sort(h),
      argsort(h),
      sort(fromArray(new Int16Array([3, -1, 7, 0]), { chunks: 2 }), { descending: true }),
      SYNC,
    );
    expect([s.dtype, s.toNested()]).toEqual(['float16', [-2, 0.25, 1.5, 8]]);
    expect(raw(a)).toEqual([1, 2, 0, 3]);
    expect([d.dtype, raw(d)]).toEqual(['int16', [7, 3, 0, -1]]);
  });

  it('the merge tree: blocks sorted in parallel, log(fan-in) merge levels, chunks restored', () => {
    const x = fromArray(new Float64Array(64 * 8), { shape: [8, 64], chunks: [4, 8] });
    const y = sort(x, { axis: 1, splitEvery: 2 });
    expect(y.chunks).toEqual(x.chunks);
    const ops = (l: LazyArray['layer'], seen = new Set<string>()): string[] => {
      if (seen.has(l.name)) return [];
      seen.add(l.name);
      return [l.op, ...l.deps.flatMap((d) => ops(d, seen))];
    };
    const names = ops(y.layer);
    expect(names.filter((o) => o === 'sort-merge')).toHaveLength(3); // 8 → 4 → 2 → 1 runs
    expect(materializeTasks([y.layer]).count).toBeGreaterThan(0);
  });

  it('takeAlongAxis with argsort rebuilds sort; broadcasting indices', async () => {
    const r = rng(3);
    const c = sorting[5]!;
    const x = lazy(decode(c.x), r);
    const got = await compute(
      takeAlongAxis(x, argsort(x, { axis: c.axis }), { axis: c.axis }),
      SYNC,
    );
    expectArray(got, decode(c.sort), 0);
    const m = fromArray(
      [
        [1, 2, 3],
        [4, 5, 6],
      ],
      { chunks: [1, 2] },
    );
    const idx = fromArray(new Int32Array([1, -1, 0]), { shape: [1, 3] });
    const t = await compute(takeAlongAxis(m, idx, { axis: 0 }), SYNC);
    expect(t.toNested()).toEqual([[4, 5, 3]]);
    // an index out of range is found when the block runs (its values are data)
    const bad = takeAlongAxis(m, fromArray(new Int32Array([2, 0, 0]), { shape: [1, 3] }), {
      axis: 0,
    });
    await expect(compute(bad, SYNC)).rejects.toThrow(/index 2 is out of bounds for size 2/);
  });
});

describe('unique family (NumPy)', () => {
  const cases = FIXTURES.unique as Record<string, never>[];
  it.each(cases.map((c, i) => [`${decode(c.x!).dtype} ${decode(c.x!).shape}`, i] as const))(
    '%s',
    async (_l, i) => {
      const c = cases[i]!;
      const x = lazy(decode(c.x!), rng(i + 5));
      const all = uniqueAll(x);
      expect(all.values.shape).toEqual([null]);
      const [v, idx, inv, cnt] = await compute(
        all.values,
        all.indices,
        all.inverseIndices,
        all.counts,
        SYNC,
      );
      expectArray(v, decode(c.values!), 0);
      expectArray(idx, { ...decode(c.indices!), dtype: 'int32' }, 0);
      expectArray(inv, { ...decode(c.inverse!), dtype: 'int32' }, 0);
      expectArray(cnt, { ...decode(c.counts!), dtype: 'int32' }, 0);
      expectArray(await compute(uniqueValues(x), SYNC), decode(c.values!), 0);
    },
  );

  it('NaNs are distinct (the standard), and inverse indices rebuild x', async () => {
    const x = fromArray([Number.NaN, 1, Number.NaN, 1, 0], { chunks: 2 });
    const { values, counts } = uniqueCounts(x);
    const { inverseIndices } = uniqueInverse(x);
    const [v, c, inv] = await compute(values, counts, inverseIndices, SYNC);
    expectArray(v, { shape: [4], data: [0, 1, Number.NaN, Number.NaN] });
    expectArray(c, { shape: [4], data: [1, 2, 1, 1] });
    expectArray(inv, { shape: [5], data: [2, 1, 3, 1, 0] });
    const sized = await computeChunkSizes(values);
    expect(sized.shape).toEqual([4]);
  });
});

describe('searchsorted and nonzero (NumPy)', () => {
  const search = FIXTURES.search as { x1: never; x2: never; side: 'left' | 'right'; out: never }[];
  it.each(search.map((c, i) => [`n=${decode(c.x1).shape[0]} ${c.side}`, i] as const))(
    '%s',
    async (_l, i) => {
      const c = search[i]!;
      const r = rng(i + 21);
      const got = await compute(
        searchsorted(lazy(decode(c.x1), r), lazy(decode(c.x2), r), { side: c.side }),
        SYNC,
      );
      expectArray(got, { ...decode(c.out), dtype: 'int32' }, 0);
    },
  );

  it('searchsorted through a sorter, NaN last', async () => {
    const x1 = fromArray([3, Number.NaN, 1, 2], { chunks: 2 });
    const got = await compute(
      searchsorted(x1, fromArray([2, Number.NaN, 0]), { sorter: argsort(x1) }),
      SYNC,
    );
    expect(raw(got)).toEqual([1, 3, 0]);
  });

  it('nonzero gives C-order coordinates on a multi-block grid', async () => {
    const c = (FIXTURES.manip as { fn: string; x: never; out: never[] }[]).find(
      (m) => m.fn === 'nonzero',
    )!;
    const x = lazy(decode(c.x), rng(9));
    const coords = nonzero(x);
    expect(coords.map((a) => a.shape)).toEqual([[null], [null], [null]]);
    const got = await compute(coords[0]!, coords[1]!, coords[2]!, SYNC);
    for (const [k, g] of got.entries()) expectArray(g, { ...decode(c.out[k]!), dtype: 'int32' }, 0);
  });
});

describe('bad input', () => {
  it.each([
    [
      'sort of bool',
      () => sort(fromArray([true, false])),
      DTypeError,
      /^sort: needs a real numeric array, got dtype 'bool'/,
    ],
    [
      'argsort of 0-d',
      () => argsort(fromArray(3)),
      ShapeError,
      /^argsort: x must have at least one axis/,
    ],
    [
      'sort axis',
      () => sort(fromArray([1, 2]), { axis: 1 }),
      ValueError,
      /^sort: axis 1 is out of bounds/,
    ],
    [
      'sort splitEvery',
      () => sort(fromArray([1, 2]), { splitEvery: 1 }),
      ValueError,
      /^sort: splitEvery 1/,
    ],
    [
      'nonzero of 0-d',
      () => nonzero(fromArray(3)),
      ValueError,
      /^nonzero: x must have at least one axis/,
    ],
    [
      'searchsorted 2-d',
      () => searchsorted(fromArray([[1]]), fromArray([1])),
      ShapeError,
      /^searchsorted: x1 must be 1-D/,
    ],
    [
      'searchsorted side',
      () => searchsorted(fromArray([1]), fromArray([1]), { side: 'middle' as 'left' }),
      ValueError,
      /^searchsorted: side 'middle' is not 'left' or 'right'/,
    ],
    [
      'takeAlongAxis float indices',
      () => takeAlongAxis(fromArray([1, 2]), fromArray([0.5])),
      DTypeError,
      /^takeAlongAxis: indices must be integers/,
    ],
    [
      'takeAlongAxis ndim',
      () => takeAlongAxis(fromArray([[1, 2]]), fromArray(new Int32Array([0]))),
      ShapeError,
      /^takeAlongAxis: x has 2 axes and indices 1/,
    ],
  ])('%s', (_l, build, tag, message) => {
    expect(build).toThrow(tag);
    expect(build).toThrow(message);
  });
});

describe('on worker threads', () => {
  it('sort merges, argsort tuples and unique merges cross the thread boundary', async () => {
    const x = fromArray([5, 3, 9, 1, 3, 7, 2, 8], { chunks: 3 });
    const opts = { scheduler: 'threads', workers: 2 } as const;
    const [s, a, u] = await compute(sort(x, { splitEvery: 2 }), argsort(x), uniqueValues(x), opts);
    expect(raw(s)).toEqual([1, 2, 3, 3, 5, 7, 8, 9]);
    expect(raw(a)).toEqual([3, 6, 1, 4, 0, 5, 7, 2]);
    expect(raw(u)).toEqual([1, 2, 3, 5, 7, 8, 9]);
  });
});
