// Array API creation, manipulation, data-type and statistical functions added in issue 12:
// against NumPy fixtures on random chunkings, against JS references, the NumPy aliases, and
// bad input (tagged errors naming the function, at graph-build time).

import { describe, expect, it } from 'vitest';
import { type NumberArray, typedArrayCtor } from '../../src/array/dtype.ts';
import type { LazyArray } from '../../src/array/lazy-array.ts';
import { NDArray } from '../../src/array/ndarray.ts';
import * as t from '../../src/index.ts';
import {
  ChunkError,
  compute,
  DTypeError,
  fromArray,
  ShapeError,
  ValueError,
} from '../../src/index.ts';
import { expectArray, randomAxisChunks, randomDense, rng } from '../helpers/reference.ts';
import { decode, FIXTURES, type FixtureArray } from './array-api-fixtures.ts';

const SYNC = { scheduler: 'sync' } as const;

function lazy(a: FixtureArray, r: () => number): LazyArray {
  const data = new (typedArrayCtor(a.dtype))(a.data.length);
  (data as NumberArray).set(a.data);
  return fromArray(new NDArray(data, a.shape, a.dtype), {
    chunks: a.shape.map((n) => randomAxisChunks(n, r)),
  });
}

type Manip = Record<string, never> & { fn: string };
const manip = (FIXTURES.manip as Manip[]).filter((m) => m.fn !== 'nonzero');

describe('against NumPy', () => {
  it.each(manip.map((m, i) => [`${m.fn} #${i}`, i] as const))('%s', async (_l, i) => {
    const m = manip[i]!;
    const r = rng(i + 31);
    const o = m as unknown as Record<string, unknown>;
    const x = o.x === undefined ? undefined : lazy(decode(o.x as never), r);
    const axis = o.axis === null ? {} : { axis: o.axis as number };
    const y = {
      roll: () => t.roll(x!, o.shift as number, axis as { axis?: number }),
      repeat: () => t.repeat(x!, o.repeats as number, axis as { axis?: number }),
      tile: () => t.tile(x!, o.reps as number[]),
      tril: () => t.tril(x!, { k: o.k as number }),
      triu: () => t.triu(x!, { k: o.k as number }),
      eye: () => t.eye(o.n as number, o.m as number, { k: o.k as number, chunks: 3 }),
      cumulativeProd: () => t.cumulativeProd(x!, { axis: o.axis as number }),
    }[m.fn]!();
    expectArray(await compute(y, SYNC), { ...decode(o.out as never), dtype: undefined }, 1e-12);
  });
});

describe('creation', () => {
  it('the *Like functions keep shape, chunks and dtype (or take new ones)', async () => {
    const x = fromArray(randomDense([5, 4], 'int16'), { chunks: [2, 3] });
    for (const [f, v] of [
      [t.zerosLike, 0],
      [t.onesLike, 1],
      [t.emptyLike, 0],
    ] as const) {
      const y = f(x);
      expect([y.dtype, y.chunks]).toEqual(['int16', x.chunks]);
      expectArray(await compute(y, SYNC), { shape: [5, 4], data: new Array(20).fill(v) });
    }
    const z = t.fullLike(x, 2.5, { dtype: 'float32' });
    expect([z.dtype, z.chunks]).toEqual(['float32', x.chunks]);
    expectArray(await compute(z, SYNC), { shape: [5, 4], data: new Array(20).fill(2.5) });
  });

  it('asarray passes LazyArrays through and wraps eager data', async () => {
    const x = fromArray([1, 2]);
    expect(t.asarray(x)).toBe(x);
    expect(t.asarray(x, { dtype: 'int8' }).dtype).toBe('int8');
    const y = t.asarray(
      [
        [1, 2],
        [3, 4],
      ],
      { dtype: 'float32', chunks: 1 },
    );
    expect([y.dtype, y.numBlocks]).toEqual(['float32', [2, 2]]);
    expectArray(await compute(t.asarray(7), SYNC), { shape: [], data: [7] });
  });

  it("meshgrid 'xy' and 'ij'", async () => {
    const a = fromArray([1, 2, 3], { chunks: 2 });
    const b = fromArray([10, 20]);
    const [X, Y] = t.meshgrid(a, b);
    expect((await compute(X!, SYNC)).toNested()).toEqual([
      [1, 2, 3],
      [1, 2, 3],
    ]);
    expect((await compute(Y!, SYNC)).toNested()).toEqual([
      [10, 10, 10],
      [20, 20, 20],
    ]);
    const [I, J] = t.meshgrid(a, b, { indexing: 'ij' });
    expect(I!.shape).toEqual([3, 2]);
    expect((await compute(J!, SYNC)).toNested()).toEqual([
      [10, 20],
      [10, 20],
      [10, 20],
    ]);
  });
});

describe('manipulation and linear algebra', () => {
  it('unstack and broadcastArrays', async () => {
    const x = fromArray(
      [
        [1, 2, 3],
        [4, 5, 6],
      ],
      { chunks: [1, 2] },
    );
    const cols = t.unstack(x, { axis: 1 });
    expect(cols).toHaveLength(3);
    expect((await compute(cols[2]!, SYNC)).toNested()).toEqual([3, 6]);
    const [p, q] = t.broadcastArrays(fromArray([[1], [2]]), fromArray([5, 6, 7]));
    expect((await compute(p!, SYNC)).toNested()).toEqual([
      [1, 1, 1],
      [2, 2, 2],
    ]);
    expect(q!.shape).toEqual([2, 3]);
  });

  it('vecdot and matrixTranspose against loops', async () => {
    const r = rng(2);
    const a = randomDense([3, 4, 5], 'float64', 8);
    const b = randomDense([4, 5], 'float64', 9);
    const la = fromArray(a, { chunks: [2, 3, 2] });
    const lb = fromArray(b, { chunks: [randomAxisChunks(4, r), randomAxisChunks(5, r)] });
    const want: number[] = [];
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 4; j++) {
        let s = 0;
        for (let k = 0; k < 5; k++)
          s += (a.data as NumberArray)[(i * 4 + j) * 5 + k]! * (b.data as NumberArray)[j * 5 + k]!;
        want.push(s);
      }
    }
    expectArray(await compute(t.vecdot(la, lb), SYNC), { shape: [3, 4], data: want }, 1e-12);
    const tr = await compute(t.matrixTranspose(la), SYNC);
    expect(tr.shape).toEqual([3, 5, 4]);
    expect(tr.get(1, 3, 2)).toBe(a.data[(1 * 4 + 2) * 5 + 3]);
  });

  it('cumulativeSum with includeInitial, countNonzero, diff with prepend/append', async () => {
    const x = fromArray(
      [
        [1, 0, 2],
        [0, 3, 4],
      ],
      { chunks: [1, 2] },
    );
    expect(
      (await compute(t.cumulativeSum(x, { axis: 1, includeInitial: true }), SYNC)).toNested(),
    ).toEqual([
      [0, 1, 1, 3],
      [0, 0, 3, 7],
    ]);
    expect(
      (await compute(t.cumulativeProd(x, { axis: 0, includeInitial: true }), SYNC)).toNested(),
    ).toEqual([
      [1, 1, 1],
      [1, 0, 2],
      [0, 0, 8],
    ]);
    const c = t.countNonzero(x, { axis: 0 });
    expect(c.dtype).toBe('int64'); // the default integer dtype
    expect((await compute(c, SYNC)).toNested()).toEqual([1n, 1n, 2n]);
    expect((await compute(t.countNonzero(x), SYNC)).item()).toBe(4n);
    const d = t.diff(fromArray([1, 4, 9], { chunks: 2 }), { prepend: 0, append: fromArray([20]) });
    expect((await compute(d, SYNC)).toNested()).toEqual([1, 3, 5, 11]);
  });
});

describe('data types', () => {
  it('finfo, iinfo, canCast, isdtype', () => {
    expect(t.finfo('float32').eps).toBe(2 ** -23);
    expect(t.finfo('float64').max).toBe(Number.MAX_VALUE);
    expect(t.finfo(fromArray(new Float32Array(1))).smallestNormal).toBe(2 ** -126);
    expect(t.iinfo('uint16')).toEqual({ bits: 16, min: 0, max: 65535, dtype: 'uint16' });
    expect(t.iinfo('int32').bits).toBe(32);
    expect([
      t.canCast('uint8', 'int16'),
      t.canCast('int32', 'float32'),
      t.canCast('int32', 'float64'),
    ]).toEqual([true, false, true]);
    expect([
      t.canCast('float64', 'int32'),
      t.canCast('bool', 'int8'),
      t.canCast('int8', 'uint8'),
    ]).toEqual([false, true, false]);
    expect(t.isdtype('int16', 'integral')).toBe(true);
    expect(t.isdtype('uint8', 'signed integer')).toBe(false);
    expect(t.isdtype('float32', ['bool', 'real floating'])).toBe(true);
    expect(t.isdtype('bool', 'numeric')).toBe(false);
    expect(t.isdtype('int8', 'int8')).toBe(true);
  });
});

describe('NumPy aliases', () => {
  it('are the same functions, and the stacking helpers follow NumPy', async () => {
    expect(t.arccos).toBe(t.acos);
    expect(t.arctan2).toBe(t.atan2);
    expect(t.absolute).toBe(t.abs);
    expect(t.concatenate).toBe(t.concat);
    const a = fromArray([1, 2]);
    const b = fromArray([3, 4]);
    expect((await compute(t.hstack([a, b]), SYNC)).toNested()).toEqual([1, 2, 3, 4]);
    expect((await compute(t.vstack([a, b]), SYNC)).toNested()).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(t.hstack([t.ones([2, 1]), t.zeros([2, 3])]).shape).toEqual([2, 4]);
    const m = fromArray([
      [1, 2],
      [3, 4],
    ]);
    expect((await compute(m.ravel(), SYNC)).toNested()).toEqual([1, 2, 3, 4]);
    expect(t.flatten(m).shape).toEqual([4]);
  });
});

describe('bad input', () => {
  const v = fromArray([1, 2, 3]);
  it.each([
    [
      'tril of 1-d',
      () => t.tril(v),
      ShapeError,
      /^tril: x must have at least two axes, got shape \(3,\)/,
    ],
    [
      'triu k',
      () => t.triu(t.ones([2, 2]), { k: 0.5 }),
      ValueError,
      /^triu: k 0.5 is not an integer/,
    ],
    ['eye shape', () => t.eye(-1), ShapeError, /^eye: /],
    [
      'repeat negative',
      () => t.repeat(v, -1),
      ValueError,
      /^repeat: repeats -1 must be non-negative integers/,
    ],
    [
      'repeat count list',
      () => t.repeat(v, [1, 2], { axis: 0 }),
      ValueError,
      /^repeat: 2 repeats for an axis of size 3/,
    ],
    [
      'tile reps',
      () => t.tile(v, [1.5]),
      ValueError,
      /^tile: reps \(1.5,\) must be an array of non-negative integers/,
    ],
    [
      'roll shifts',
      () => t.roll(t.ones([2, 2]), [1, 2, 3], { axis: [0, 1] }),
      ValueError,
      /^roll: 3 shifts for 2 axes/,
    ],
    ['unstack 0-d', () => t.unstack(fromArray(1)), ShapeError, /^unstack: /],
    [
      'meshgrid 2-d',
      () => t.meshgrid(t.ones([2, 2])),
      ShapeError,
      /^meshgrid: argument 0 has shape \(2, 2\)/,
    ],
    [
      'meshgrid indexing',
      () => t.meshgrid(v, { indexing: 'xx' as 'xy' }),
      ValueError,
      /^meshgrid: indexing 'xx'/,
    ],
    [
      'matrixTranspose 1-d',
      () => t.matrixTranspose(v),
      ShapeError,
      /^matrixTranspose: x must have at least two axes/,
    ],
    [
      'vecdot sizes',
      () => t.vecdot(t.ones([2, 3]), t.ones([2, 1])),
      ShapeError,
      /^vecdot: sizes 3 and 1 along axis -1 differ/,
    ],
    [
      'finfo of an integer',
      () => t.finfo('int8'),
      ValueError,
      /^finfo: 'int8' is not a floating dtype/,
    ],
    [
      'iinfo of a float',
      () => t.iinfo('float32'),
      ValueError,
      /^iinfo: 'float32' is not an integer dtype/,
    ],
    [
      'canCast unknown',
      () => t.canCast('int8', 'int128' as 'int8'),
      DTypeError,
      /^canCast: unknown dtype/,
    ],
    [
      'cumulativeSum 0-d',
      () => t.cumulativeSum(fromArray(1)),
      ShapeError,
      /^cumulativeSum: x must have at least one axis/,
    ],
    [
      'cumulativeProd axis',
      () => t.cumulativeProd(t.ones([2, 2])),
      ValueError,
      /^cumulativeProd: axis is required/,
    ],
    [
      'fullLike value',
      () => t.fullLike(v, 'a' as unknown as number),
      ValueError,
      /^fullLike: fill value 'a' is not a number/,
    ],
    [
      'zerosLike unknown size',
      () => t.zerosLike(t.mask(v, t.greater(v, 1))),
      ChunkError,
      /^zerosLike: x has unknown sizes/,
    ],
  ])('%s', (_l, build, tag, message) => {
    expect(build).toThrow(tag);
    expect(build).toThrow(message);
  });
});
