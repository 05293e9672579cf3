// Tests of normalizeChunks and autoChunks: spec tables with expected throws, 'auto' sizes
// checked against Dask 2022.12's normalize_chunks, and properties over random specs.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { DType } from '../../src/array/dtype.ts';
import { itemsize } from '../../src/array/dtype.ts';
import { autoChunks } from '../../src/chunking/auto.ts';
import { normalizeChunks, regularChunks } from '../../src/chunking/normalize.ts';
import type { AxisChunkSpec, ChunkSpec, Chunks, Size } from '../../src/chunking/types.ts';
import { configure, resetConfig } from '../../src/config.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { cutChunks } from '../helpers/reference.ts';

type Spec = ChunkSpec | Chunks | undefined;
const rep = (v: number, n: number): number[] => new Array<number>(n).fill(v);

describe('normalizeChunks: specs', () => {
  test.each([
    ['one size', 3, [10], {}, [[3, 3, 3, 1]]],
    ['whole axes', -1, [3, 5], {}, [[3], [5]]],
    ['per axis', [-1, 2], [3, 5], {}, [[3], [2, 2, 1]]],
    ['clipped', 20, [5], {}, [[5]]],
    ['empty axis', 5, [0, 4], {}, [[0], [4]]],
    ['auto with an empty axis', 'auto', [0, 10], {}, [[0], [10]]],
    ['record', { 1: 2 }, [3, 4], {}, [[3], [2, 2]]],
    ['record, negative key', { '-1': 2 }, [3, 4], {}, [[3], [2, 2]]],
    [
      'record keeps previous',
      { 1: 2 },
      [3, 4],
      { previousChunks: [[1, 2], [4]] },
      [
        [1, 2],
        [2, 2],
      ],
    ],
    [
      'null keeps previous',
      [null, 2],
      [3, 4],
      { previousChunks: [[1, 2], [4]] },
      [
        [1, 2],
        [2, 2],
      ],
    ],
    ['null without previous', [null, 2], [3, 4], {}, [[3], [2, 2]]],
    ['explicit', [[1, 2], [4]], [3, 4], {}, [[1, 2], [4]]],
    [
      'explicit and sizes mixed',
      [[1, 2], 3],
      [3, 4],
      {},
      [
        [1, 2],
        [3, 1],
      ],
    ],
    ['1-D flat list is explicit', [5, 5], [10], {}, [[5, 5]]],
    ['explicit with empty chunks', [[5, 0, 5]], [10], {}, [[5, 0, 5]]],
    ['explicit on an empty axis', [[]], [0], {}, [[0]]],
    ['0-d', 5, [], {}, []],
    ['0-d explicit', [], [], {}, []],
    [
      'unknown explicit',
      [[null, null], 2],
      [null, 4],
      {},
      [
        [null, null],
        [2, 2],
      ],
    ],
    [
      'unknown keeps previous',
      3,
      [null, 4],
      { previousChunks: [[null, null], [4]] },
      [
        [null, null],
        [3, 1],
      ],
    ],
    ['auto keeps previous on unknown', 'auto', [null], { previousChunks: [[null]] }, [[null]]],
    ['undefined is auto', undefined, [100, 100], { limitBytes: 1e6 }, [[100], [100]]],
  ] as [string, Spec, Size[], object, Chunks][])('%s', (_, spec, shape, opts, expected) => {
    expect(normalizeChunks(spec, shape, opts)).toEqual(expected);
  });

  test('the sum message names the function', () => {
    expect(() => normalizeChunks([3, 3], [7], { fn: 'rechunk' })).toThrow(
      'rechunk: chunks (3, 3) sum to 6, not 7, on axis 0',
    );
  });

  test.each([
    [0, [5], {}, 'ChunkError', ['normalizeChunks:', 'chunk size 0', 'axis 0']],
    [-2, [5], {}, 'ChunkError', ['chunk size -2']],
    [2.5, [5], {}, 'ChunkError', ['chunk size 2.5']],
    [[1, 2, 3], [4, 4], {}, 'ChunkError', ['(1, 2, 3)', '3 axes', '(4, 4)']],
    [{ 2: 3 }, [4, 4], {}, 'ChunkError', ["key '2'", '(4, 4)']],
    ['big', [4], {}, 'ChunkError', ["'big'"]],
    [[[1.5, 2.5]], [4], {}, 'ChunkError', ['bad size 1.5', 'axis 0']],
    [[[-1, 5]], [4], {}, 'ChunkError', ['bad size -1']],
    [[[null, 3]], [7], {}, 'ChunkError', ['bad size null']],
    [[[]], [3], {}, 'ChunkError', ['sum to 0, not 3']],
    [3, [null], {}, 'ChunkError', ['axis 0', 'unknown size', 'computeChunkSizes']],
    ['auto', [4, null], {}, 'ChunkError', ['axis 1', 'computeChunkSizes']],
    [[null], [null], {}, 'ChunkError', ['computeChunkSizes']],
    [3, [-1], {}, 'ShapeError', ['(-1,)', 'bad size -1']],
    [3, [4], { previousChunks: [[4], [4]] }, 'ChunkError', ['previous chunks', '2 axes']],
    ['auto', [10], { limitBytes: 0 }, 'ValueError', ['limitBytes 0']],
    [3, [4], { fn: 'fromArray' }, 'none', []],
    [0, [4], { fn: 'fromArray' }, 'ChunkError', ['fromArray: chunk size 0']],
  ] as [Spec, Size[], object, string, string[]][])(
    'normalizeChunks(%j, %j, %j) throws %s',
    (spec, shape, opts, tag, fragments) => {
      if (tag === 'none') expect(() => normalizeChunks(spec, shape, opts)).not.toThrow();
      else expectThrow(() => normalizeChunks(spec, shape, opts), tag, fragments);
    },
  );

  test('auto reads config.chunkBytes', () => {
    configure({ chunkBytes: 8000 });
    try {
      expect(normalizeChunks('auto', [1000])).toEqual([rep(1000, 1)]);
      expect(normalizeChunks('auto', [2000])[0]![0]).toBe(1000);
    } finally {
      resetConfig();
    }
  });
});

/** Summaries: [first chunk, number of chunks, last chunk] per axis. */
const summary = (c: Chunks) => c.map((a) => [a[0], a.length, a[a.length - 1]]);

describe("'auto' agrees with Dask's normalize_chunks", () => {
  // Expected values printed by dask 2022.12.1 (normalize_chunks with limit, dtype, previous_chunks).
  test.each([
    [
      ['auto', 'auto'],
      [10000, 10000],
      8e6,
      'float64',
      undefined,
      [
        [1000, 10, 1000],
        [1000, 10, 1000],
      ],
    ],
    [['auto'], [1000000], 8e5, 'float64', undefined, [[100000, 10, 100000]]],
    [
      ['auto', 10],
      [1000, 10],
      8000,
      'float64',
      undefined,
      [
        [100, 10, 100],
        [10, 1, 10],
      ],
    ],
    [
      ['auto', 'auto'],
      [1000, 10],
      8000,
      'float64',
      undefined,
      [
        [100, 10, 100],
        [10, 1, 10],
      ],
    ],
    [
      ['auto', 'auto'],
      [100, 100],
      1e6,
      'float64',
      undefined,
      [
        [100, 1, 100],
        [100, 1, 100],
      ],
    ],
    [
      [-1, 'auto'],
      [10000, 10000],
      8e6,
      'float32',
      undefined,
      [
        [10000, 1, 10000],
        [200, 50, 200],
      ],
    ],
    [
      ['auto', 'auto'],
      [10000, 10000],
      8e6,
      'float32',
      undefined,
      [
        [1414, 8, 102],
        [1414, 8, 102],
      ],
    ],
    [
      ['auto', 'auto'],
      [1000, 1000],
      7e3,
      'float64',
      undefined,
      [
        [29, 35, 14],
        [29, 35, 14],
      ],
    ],
    [
      [-1, 'auto'],
      [1000, 1000],
      4000,
      'float64',
      undefined,
      [
        [1000, 1, 1000],
        [1, 1000, 1],
      ],
    ],
    [
      ['auto', 'auto'],
      [100000, 10000],
      32e6,
      'float64',
      [rep(1000, 100), rep(10, 1000)],
      [
        [20000, 5, 20000],
        [200, 50, 200],
      ],
    ],
    [
      ['auto', 'auto'],
      [10000, 10000],
      8e6,
      'float64',
      [[10000], rep(100, 100)],
      [
        [10000, 1, 10000],
        [100, 100, 100],
      ],
    ],
    [
      ['auto', 'auto'],
      [10000, 10000],
      80e6,
      'float64',
      [[10000], rep(100, 100)],
      [
        [10000, 1, 10000],
        [1000, 10, 1000],
      ],
    ],
    [
      ['auto', 'auto'],
      [10000, 10000],
      1e6,
      'float64',
      [[3000, 3000, 3000, 1000], rep(100, 100)],
      [
        [1952, 6, 240],
        [64, 157, 16],
      ],
    ],
    // Dask gives 99 here (a float cube root just under 100); 100 ** 3 elements fit exactly.
    [
      ['auto', 'auto', 'auto'],
      [1000, 1000, 1000],
      8e6,
      'float64',
      undefined,
      [
        [100, 10, 100],
        [100, 10, 100],
        [100, 10, 100],
      ],
    ],
  ] as [ChunkSpec, number[], number, DType, Chunks | undefined, number[][]][])(
    '%j on %j, %d bytes of %s',
    (spec, shape, limitBytes, dtype, previousChunks, expected) => {
      const c = normalizeChunks(spec, shape, { limitBytes, dtype, previousChunks });
      expect(summary(c)).toEqual(expected);
    },
  );

  test('autoChunks echoes fixed axes', () => {
    expect(autoChunks(['auto', 7], [1000, 7], { limitBytes: 8 * 700, itemsize: 8 })).toEqual([
      100, 7,
    ]);
  });
});

const axisSpec = (n: number): fc.Arbitrary<AxisChunkSpec> =>
  fc.oneof(
    fc.integer({ min: 1, max: 60 }),
    fc.constant(-1),
    fc.constant('auto' as const),
    fc.constant(null),
    fc
      .array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 20 })
      .map((sizes) => cutChunks(sizes, n)),
  );

describe('normalizeChunks: properties', () => {
  test('output sums to the shape, sizes positive (or one [0] on an empty axis)', () => {
    const shape = fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 3 });
    const specFor = (s: number[]): fc.Arbitrary<Spec> =>
      fc.oneof(
        fc.integer({ min: 1, max: 60 }),
        fc.constant(-1),
        fc.constant('auto' as const),
        fc.constant(undefined),
        fc.tuple(...s.map(axisSpec)) as fc.Arbitrary<Spec>,
        fc.dictionary(
          fc.integer({ min: -s.length, max: Math.max(0, s.length - 1) }).map(String),
          fc.integer({ min: 1, max: 9 }),
        ),
      );
    const input = shape.chain((s) =>
      fc.tuple(fc.constant(s), specFor(s), fc.integer({ min: 8, max: 4000 })),
    );
    fc.assert(
      fc.property(input, ([s, spec, limitBytes]) => {
        if (s.length === 0 && typeof spec === 'object' && spec !== null && !Array.isArray(spec)) {
          if (Object.keys(spec).length > 0) return; // no axes to key
        }
        const c = normalizeChunks(spec, s, { limitBytes });
        expect(c.length).toBe(s.length);
        c.forEach((axis, ax) => {
          expect(axis.reduce((a: number, b) => a + b!, 0)).toBe(s[ax]);
          if (s[ax] === 0) expect(axis).toEqual([0]);
          else for (const v of axis) expect(v).toBeGreaterThan(0);
        });
        if (typeof spec === 'number' && spec > 0) {
          c.forEach((axis, ax) => {
            expect(axis).toEqual(regularChunks(s[ax]!, spec));
          });
        }
      }),
    );
  });

  test("'auto' blocks fit limitBytes unless the fixed axes alone exceed it", () => {
    const input = fc.record({
      shape: fc.array(fc.integer({ min: 1, max: 3000 }), { minLength: 1, maxLength: 3 }),
      fixed: fc.array(fc.option(fc.integer({ min: 1, max: 400 })), { minLength: 3, maxLength: 3 }),
      limitBytes: fc.integer({ min: 1, max: 4_000_000 }),
      dtype: fc.constantFrom<DType>('float64', 'float32', 'uint8', 'int16'),
      previous: fc.option(
        fc.array(fc.integer({ min: 1, max: 500 }), { minLength: 3, maxLength: 3 }),
      ),
    });
    fc.assert(
      fc.property(input, ({ shape, fixed, limitBytes, dtype, previous }) => {
        const spec = shape.map((_, ax) => fixed[ax] ?? 'auto');
        const previousChunks = previous
          ? shape.map((n, ax) => regularChunks(n, previous[ax]!))
          : undefined;
        let c: Chunks;
        try {
          c = normalizeChunks(spec, shape, { limitBytes, dtype, previousChunks });
        } catch (e) {
          // tiny limits on big shapes: more blocks than config.maxTasks is refused up front
          const blocks = shape.reduce((p, n) => p * n, 1);
          expect(blocks).toBeGreaterThan(10_000_000);
          expect((e as Error).message).toContain('config.maxTasks');
          return;
        }
        const size = itemsize(dtype);
        const autos = spec.flatMap((s, ax) => (s === 'auto' ? [ax] : []));
        const block = c.reduce((p, a) => p * Math.max(...(a as number[])), size);
        const fixedBytes = c.reduce(
          (p, a, ax) => (autos.includes(ax) ? p : p * Math.max(...(a as number[]))),
          size,
        );
        if (fixedBytes <= limitBytes) expect(block).toBeLessThanOrEqual(limitBytes);
        else for (const ax of autos) expect(c[ax]).toEqual(rep(1, shape[ax]!));
        for (const ax of autos) {
          const a = c[ax] as number[];
          // regular except the last, which is no larger
          expect(a.slice(0, -1).every((v) => v === a[0])).toBe(true);
          expect(a[a.length - 1]!).toBeLessThanOrEqual(a[0]!);
        }
        const wholeAuto = autos.reduce((p, ax) => p * shape[ax]!, fixedBytes);
        if (wholeAuto <= limitBytes) for (const ax of autos) expect(c[ax]).toEqual([shape[ax]]);
      }),
    );
  });

  test('previous chunks keep their aspect ratio when growing', () => {
    const c = normalizeChunks('auto', [100000, 10000], {
      limitBytes: 8 * 1000 * 10 * 16,
      previousChunks: [rep(1000, 100), rep(10, 1000)],
    });
    expect(summary(c)).toEqual([
      [4000, 25, 4000],
      [40, 250, 40],
    ]);
  });
});
