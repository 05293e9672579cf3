// Creation functions against dense references: zeros, ones, empty, full, arange, linspace
// and fromFunction, on random shapes and chunkings; validation errors; names; fusion.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { add } from '../../src/apply/elementwise-arith.ts';
import { compute } from '../../src/array/compute.ts';
import {
  arange,
  empty,
  fromFunction,
  full,
  linspace,
  ones,
  zeros,
} from '../../src/array/creation.ts';
import type { DType } from '../../src/array/dtype.ts';
import { shapeSize } from '../../src/array/ndarray.ts';
import { fuseLayers } from '../../src/graph/fuse.ts';
import { materializeTasks, runnableCount } from '../../src/graph/materialize.ts';
import { castRef } from '../apply/elementwise-reference.ts';
import { arbShapeAndChunks, expectArray } from '../helpers/reference.ts';

const tagged = (tag: string, message: RegExp) =>
  expect.objectContaining({ _tag: tag, message: expect.stringMatching(message) });

// full() refuses integer fill values outside the dtype's range, and NaN (issue 10)
const INT_MAX: Partial<Record<DType, [number, number]>> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  int8: [-128, 127],
  uint16: [0, 2 ** 16 - 1],
};
const fits = (v: number, dtype: DType): boolean => {
  const r = INT_MAX[dtype];
  return r === undefined || (Number.isFinite(v) && Math.trunc(v) >= r[0] && Math.trunc(v) <= r[1]);
};

describe('zeros, ones, empty, full', () => {
  it('property: values, dtype, shape and chunks on random shapes and chunkings', async () => {
    const dtypes: DType[] = ['float64', 'float32', 'int32', 'int8', 'uint16', 'bool'];
    await fc.assert(
      fc.asyncProperty(
        arbShapeAndChunks(3, 7),
        fc.constantFrom(...dtypes),
        fc.constantFrom(-3.5, 0, 1, 300, Number.NaN),
        async ({ shape, chunks }, dtype, value) => {
          const n = shapeSize(shape);
          const cases = [
            [zeros(shape, { chunks, dtype }), 0],
            [ones(shape, { chunks, dtype }), 1],
            [empty(shape, { chunks, dtype }), 0],
            ...(fits(value, dtype)
              ? [[full(shape, value, { chunks, dtype }), value] as const]
              : []),
          ] as const;
          for (const [x, v] of cases) {
            expect(x.chunks).toEqual(chunks);
            expect(x.dtype).toBe(dtype);
            const data = new Array<number>(n).fill(castRef(v, dtype));
            expectArray(await compute(x), { dtype, shape, data });
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it.each([
    [7, 'int32'],
    [-7, 'int32'],
    [7.5, 'float64'],
    [3e9, 'float64'],
    [true, 'bool'],
  ] as [number | boolean, DType][])('full(…, %s) infers %s', (v, d) => {
    expect(full([2], v).dtype).toBe(d);
  });

  it('accepts a number as a 1-D shape, and empty and 0-d shapes', async () => {
    expect(zeros(4).shape).toEqual([4]);
    expect((await compute(ones([0, 3]))).shape).toEqual([0, 3]);
    const s = await compute(full([], 2.5));
    expect(s.shape).toEqual([]);
    expect(s.data[0]).toBe(2.5);
  });

  it('auto chunks aim at config.chunkBytes', () => {
    const x = zeros([50000, 1000]);
    expect(x.numBlocks[0]).toBeGreaterThan(1);
  });

  it.each([
    ['zeros', () => zeros([3, -1])],
    ['ones', () => ones([2.5])],
    ['full', () => full([Number.NaN], 1)],
    ['empty', () => empty('a' as unknown as number)],
  ])('%s rejects a bad shape', (fn, f) => {
    expect(f).toThrow(tagged('ShapeError', new RegExp(`^${fn}: shape`)));
  });

  it('rejects bad dtypes and fill values', () => {
    expect(() => zeros([2], { dtype: 'int128' as DType })).toThrow(
      tagged('DTypeError', /^zeros: /),
    );
    expect(() => full([2], 'x' as unknown as number)).toThrow(
      tagged('ValueError', /^full: fill value 'x'/),
    );
  });

  it('names are deterministic and depend on every parameter', () => {
    expect(zeros([4, 4], { chunks: 2 }).name).toBe(zeros([4, 4], { chunks: 2 }).name);
    const names = [
      zeros([4, 4], { chunks: 2 }),
      zeros([4, 4], { chunks: 4 }),
      zeros([4, 4], { chunks: 2, dtype: 'int8' }),
      ones([4, 4], { chunks: 2 }),
      full([4, 4], 2, { chunks: 2 }),
      full([4, 4], 3, { chunks: 2 }),
      full([4, 4], -0, { chunks: 2, dtype: 'float64' }),
      full([4, 4], 0, { chunks: 2, dtype: 'float64' }),
    ].map((x) => x.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('creation fuses into the elementwise op that consumes it', () => {
    const y = add(ones([8, 8], { chunks: 4 }), 1);
    expect(runnableCount(materializeTasks(fuseLayers([y.layer])))).toBe(4);
  });
});

describe('arange', () => {
  it.each([
    [[5], [0, 1, 2, 3, 4], 'int64'],
    [[2, 5], [2, 3, 4], 'int64'],
    [[1, 2, 0.25], [1, 1.25, 1.5, 1.75], 'float64'],
    [[10, 0, -3], [10, 7, 4, 1], 'int64'],
    [[0], [], 'int64'],
    [[5, 1], [], 'int64'],
    [
      [0, 1, 0.1],
      [
        0, 0.1, 0.2, 0.30000000000000004, 0.4, 0.5, 0.6000000000000001, 0.7000000000000001, 0.8,
        0.9,
      ],
      'float64',
    ],
    [[-1.5, 1], [-1.5, -0.5, 0.5], 'float64'],
  ] as [number[], number[], DType][])('arange(%j)', async (args, expected, dtype) => {
    const [a, b, c] = args;
    const x = arange(a!, b, c, { chunks: 2 });
    expect(x.dtype).toBe(dtype);
    expectArray(await compute(x), { dtype, shape: [expected.length], data: expected }, 0);
  });

  it('integer arguments give int64, as NumPy (np.arange(5).dtype is int64), past 2^32 too', async () => {
    const x = arange(2 ** 40, 2 ** 40 + 3);
    expect(x.dtype).toBe('int64');
    expect((await compute(x)).toNested()).toEqual([2n ** 40n, 2n ** 40n + 1n, 2n ** 40n + 2n]);
  });

  it('takes options after any argument, and a dtype', async () => {
    expect(arange(6, { chunks: 4 }).chunks).toEqual([[4, 2]]);
    expect(arange(1, 7, { chunks: 4 }).chunks).toEqual([[4, 2]]);
    const f = arange(3, { dtype: 'float32' });
    expect(f.dtype).toBe('float32');
    expect((await compute(f)).toArray()).toEqual([0, 1, 2]);
  });

  it('rejects a zero step and non-finite arguments', () => {
    expect(() => arange(0, 5, 0)).toThrow(tagged('ValueError', /^arange: step 0/));
    expect(() => arange(Infinity)).toThrow(
      tagged('ValueError', /^arange: arguments must be finite numbers, got Infinity/),
    );
  });

  it('property: values do not depend on the chunking', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 9 }),
        async (n, c) => {
          const x = await compute(arange(-3, n - 3, 1, { chunks: c }));
          expect(x.toArray()).toEqual(Array.from({ length: n }, (_, i) => i - 3));
        },
      ),
      { numRuns: 20 },
    );
  });
});

describe('linspace', () => {
  it.each([
    [0, 1, 5, {}, [0, 0.25, 0.5, 0.75, 1]],
    [2, 3, 5, { endpoint: false }, [2, 2.2, 2.4, 2.6, 2.8]],
    [0, 10, 4, { dtype: 'int32' }, [0, 3, 6, 10]],
    [-1, 0, 3, { dtype: 'int8' }, [-1, -1, 0]],
    [3, 7, 1, {}, [3]],
    [3, 7, 0, {}, []],
    [5, 5, 3, {}, [5, 5, 5]],
    [1, -1, 5, { chunks: 2 }, [1, 0.5, 0, -0.5, -1]],
  ] as [number, number, number, object, number[]][])(
    'linspace(%d, %d, %d, %j)',
    async (a, b, n, opts, expected) => {
      const x = linspace(a, b, n, { chunks: 2, ...opts });
      expectArray(await compute(x), { shape: [n], data: expected }, 1e-15);
    },
  );

  it('ends exactly at stop whatever the rounding', async () => {
    const x = await compute(linspace(0.1, 0.7, 7, { chunks: 3 }));
    expect(x.data[6]).toBe(0.7);
  });

  it('rejects a bad num', () => {
    expect(() => linspace(0, 1, -1)).toThrow(tagged('ValueError', /^linspace: num -1/));
    expect(() => linspace(0, 1, 2.5)).toThrow(tagged('ValueError', /^linspace: num 2.5/));
  });
});

describe('fromFunction', () => {
  it('evaluates fn at global indices, whatever the chunking', async () => {
    for (const chunks of [[1, 3], [2, 2], -1]) {
      const x = fromFunction((i, j) => 10 * i + j, { shape: [3, 4], chunks: chunks as number[] });
      expect((await compute(x)).toNested()).toEqual([
        [0, 1, 2, 3],
        [10, 11, 12, 13],
        [20, 21, 22, 23],
      ]);
    }
  });

  it('stores booleans as bool and honours the dtype', async () => {
    const x = fromFunction((i) => i % 2 === 0, { shape: [4], dtype: 'bool' });
    expect((await compute(x)).toNested()).toEqual([true, false, true, false]);
    const y = fromFunction((i) => i * 100, { shape: [3], dtype: 'int8' });
    expect((await compute(y)).toArray()).toEqual([0, 100, -56]);
  });

  it('rejects closures unless inline, and a missing shape', async () => {
    const k = 3;
    expect(() => fromFunction((i) => i * k, { shape: [2] })).toThrow(tagged('KernelError', /'k'/));
    const y = fromFunction((i) => i * k, { shape: [2], inline: true });
    expect((await compute(y)).toArray()).toEqual([0, 3]);
    expect(() => fromFunction((i) => i, undefined as unknown as { shape: number[] })).toThrow(
      tagged('ValueError', /^fromFunction: options \{ shape \} are required/),
    );
  });

  it('has a deterministic name for the same function source', () => {
    const a = fromFunction((i) => i + 1, { shape: [3] });
    const b = fromFunction((i) => i + 1, { shape: [3] });
    const c = fromFunction((i) => i + 2, { shape: [3] });
    expect(a.name).toBe(b.name);
    expect(a.name).not.toBe(c.name);
  });
});
