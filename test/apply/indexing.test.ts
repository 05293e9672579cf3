// Public indexing (getIndex / mask / setIndex) against dense NumPy-style references:
// integer arrays with basic items, text vs item syntax, masks of unknown length, set, errors.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { getIndex, mask, setIndex } from '../../src/apply/indexing.ts';
import { compute } from '../../src/array/compute.ts';
import { type NumberArray, typedArrayCtor } from '../../src/array/dtype.ts';
import { fromArray } from '../../src/array/from-array.ts';
import { NDArray, ndarray } from '../../src/array/ndarray.ts';
import type { IndexItem } from '../../src/chunking/parse-index.ts';
import { config, configure } from '../../src/config.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import {
  arbShapeAndChunks,
  expectArray,
  randomAxisChunks,
  randomDense,
  rng,
  withChunks,
} from '../helpers/reference.ts';
import { denseGet, denseSet, indexText, randomIndex } from './indexing-reference.ts';

function denseMask(x: NDArray, m: NDArray): NDArray {
  const vals: number[] = [];
  for (let i = 0; i < x.size; i++) if (m.data[i]) vals.push((x.data as NumberArray)[i]!);
  const out = new (typedArrayCtor(x.dtype))(vals.length);
  (out as NumberArray).set(vals);
  return new NDArray(out, [vals.length], x.dtype);
}

function denseWhere(m: NDArray, v: NDArray, x: NDArray): NDArray {
  const out = new (typedArrayCtor(x.dtype))(x.size);
  const full = denseSet(x, ['...'], v);
  for (let i = 0; i < x.size; i++) out[i] = m.data[i] ? full.data[i]! : x.data[i]!;
  return new NDArray(out, x.shape, x.dtype);
}

describe('getIndex', () => {
  test('random indices with at most one integer array match NumPy semantics', async () => {
    await fc.assert(
      fc.asyncProperty(arbShapeAndChunks(3, 8), async ({ shape, chunks, seed }) => {
        const dense = randomDense(shape, 'float64', seed);
        const x = fromArray(dense, { chunks });
        const index = randomIndex(shape, rng(seed + 5), false);
        const expected = denseGet(dense, index);
        const y = getIndex(x, index);
        expect(y.shape).toEqual(expected.shape);
        expect(getIndex(x, indexText(index)).name).toBe(y.name);
        expectArray(await compute(y), expected);
      }),
      { numRuns: 150 },
    );
  });

  test.each<[string, number[], IndexItem[]]>([
    ['array then slice', [6, 5], [[4, 0, 4, -1], { step: -2 }]],
    ['int next to array stays in place', [4, 6, 3], [{}, [5, 1], 2]],
    ['split advanced indices put the array first', [4, 6, 3], [[3, 0], {}, 1]],
    ['new axis between splits', [5, 4], [[1, 1], null, 2]],
    ['array after ellipsis', [3, 4, 5], ['...', [4, 0]]],
    ['empty array', [3, 4], [{}, []]],
  ])('%s', async (_, shape, index) => {
    const dense = randomDense(shape, 'int32', 6);
    const x = fromArray(dense, { chunks: 2 });
    const expected = denseGet(dense, index);
    const y = getIndex(x, index);
    expect(y.shape).toEqual(expected.shape);
    expectArray(await compute(y), expected);
  });

  test('single items and NDArray / Int32Array index arrays', async () => {
    const dense = randomDense([5, 4], 'int32', 7);
    const x = fromArray(dense, { chunks: 2 });
    expectArray(await compute(getIndex(x, -2)), denseGet(dense, [-2]));
    expectArray(await compute(getIndex(x, { step: -2 })), denseGet(dense, [{ step: -2 }]));
    expectArray(await compute(getIndex(x, null)), denseGet(dense, [null]));
    expectArray(await compute(getIndex(x, Int32Array.from([4, 0]))), denseGet(dense, [[4, 0]]));
    const nd = ndarray([3, 1, 3], [3], 'int16');
    expectArray(await compute(getIndex(x, ['...', nd])), denseGet(dense, ['...', [3, 1, 3]]));
    expect(getIndex(x, '...')).toBe(x);
  });

  test.each<[string, Parameters<typeof getIndex>[1], string, RegExp]>([
    ['two integer arrays', [[0], [1]], 'IndexError', /^get: .*more than one integer array/],
    [
      'array out of bounds',
      [{}, [0, 4]],
      'IndexError',
      /^get: index 4 is out of bounds for axis 1 with size 4/,
    ],
    [
      'text out of bounds',
      '7',
      'IndexError',
      /^get: index 7 is out of bounds for axis 0 with size 5/,
    ],
    ['unparsable text', '1:2:3:4', 'IndexError', /^get: cannot parse "1:2:3:4"/],
    ['float NDArray', ndarray([1, 2]), 'IndexError', /^get: index array of dtype 'float64'/],
  ])('error: %s', (_, index, tag, text) => {
    const x = fromArray(randomDense([5, 4]), { chunks: 2 });
    expectThrow(() => getIndex(x, index), tag, text);
  });
});

describe('mask', () => {
  test('random masks: unknown length before compute, C-order values after', async () => {
    await fc.assert(
      fc.asyncProperty(arbShapeAndChunks(3, 7), async ({ shape, chunks, seed }) => {
        const dense = randomDense(shape, 'uint16', seed);
        const m = randomDense(shape, 'bool', seed + 1);
        const r = rng(seed + 2);
        const mc = shape.map((n) => randomAxisChunks(n, r));
        const x = fromArray(dense, { chunks });
        const y = mask(x, fromArray(m, { chunks: mc }));
        expect(y.shape).toEqual([null]);
        expect(y.chunks[0]!.every((c) => c === null)).toBe(true);
        expect(y.chunks[0]).toHaveLength(chunks[0]!.length);
        expectArray(await compute(y), denseMask(dense, m));
      }),
      { numRuns: 80 },
    );
  });

  test.each<[string, number]>([
    ['one band task per block row', 128 * 2 ** 20],
    ['row bands rechunked first (bands over chunkBytes)', 64],
  ])('random 4-d masks, several dtypes, sparse and empty: %s', async (_, chunkBytes) => {
    const saved = config.chunkBytes;
    configure({ chunkBytes });
    try {
      await fc.assert(
        fc.asyncProperty(
          arbShapeAndChunks(4, 6),
          fc.constantFrom('float64', 'int32', 'uint8', 'float32'),
          fc.constantFrom(0, 0.1, 0.5, 1),
          async ({ shape, chunks, seed }, dtype, density) => {
            const dense = randomDense(shape, dtype, seed);
            const r = rng(seed + 3);
            const m = new NDArray(
              Uint8Array.from({ length: dense.size }, () => (r() < density ? 1 : 0)),
              shape,
              'bool',
            );
            const y = mask(fromArray(dense, { chunks }), fromArray(m, { chunks }));
            expectArray(await compute(y), denseMask(dense, m));
          },
        ),
        { numRuns: 60 },
      );
    } finally {
      configure({ chunkBytes: saved });
    }
  });

  test('zero-size axes give an empty selection', async () => {
    const dense = randomDense([3, 0, 4], 'float64', 5);
    const m = randomDense([3, 0, 4], 'bool', 6);
    const y = mask(fromArray(dense, { chunks: [2, 1, 3] }), fromArray(m, { chunks: [2, 1, 3] }));
    expectArray(await compute(y), denseMask(dense, m));
  });

  test('x.get(boolLazyArray) is mask', async () => {
    const dense = randomDense([4, 6], 'float64', 3);
    const m = randomDense([4, 6], 'bool', 4);
    const x = fromArray(dense, { chunks: [2, 3] });
    const y = getIndex(x, fromArray(m, { chunks: 3 }));
    expect(y.shape).toEqual([null]);
    expectArray(await compute(y), denseMask(dense, m));
  });

  test.each<[string, () => unknown, string, RegExp]>([
    [
      'not bool',
      () => mask(fromArray(randomDense([4])), fromArray(randomDense([4]))),
      'DTypeError',
      /^mask: mask has dtype 'float64'; a bool array is needed/,
    ],
    [
      'shape mismatch',
      () => mask(fromArray(randomDense([4])), fromArray(randomDense([5], 'bool'))),
      'ShapeError',
      /^mask: mask shape \(5,\) does not match array shape \(4,\)/,
    ],
    [
      'get with an int lazy array',
      () => getIndex(fromArray(randomDense([4])), fromArray(randomDense([4], 'int32'))),
      'DTypeError',
      /^get: mask has dtype 'int32'/,
    ],
  ])('error: %s', (_, f, tag, text) => {
    expectThrow(f, tag, text);
  });
});

describe('setIndex', () => {
  test('random basic indices with scalar and array values (broadcast) match NumPy', async () => {
    await fc.assert(
      fc.asyncProperty(arbShapeAndChunks(3, 7), async ({ shape, chunks, seed }) => {
        const r = rng(seed + 3);
        const dense = randomDense(shape, 'int32', seed);
        const x = fromArray(dense, { chunks });
        const index = randomIndex(shape, r);
        const sel = denseGet(dense, index).shape;
        const scalar = Math.floor(r() * 1000);
        const ys = setIndex(x, index, scalar);
        expect(ys.chunks).toEqual(x.chunks);
        expectArray(await compute(ys), denseSet(dense, index, scalar));
        // an array value of a trailing part of the selection's shape, some axes of size 1
        const drop = Math.floor(r() * (sel.length + 1));
        const vShape = sel.slice(drop).map((n) => (r() < 0.3 ? 1 : n));
        const v = randomDense(vShape, 'float64', seed + 4);
        const vc = vShape.map((n) => randomAxisChunks(n, r));
        const ya = setIndex(x, index, fromArray(v, { chunks: vc }));
        expectArray(await compute(ya), denseSet(dense, index, v));
      }),
      { numRuns: 120 },
    );
  });

  test('steps, text syntax and untouched blocks', async () => {
    const dense = randomDense([6, 8], 'float64', 9);
    const x = fromArray(dense, { chunks: [3, 4] });
    const y = setIndex(x, '1:3, ::-3', 7);
    expectArray(await compute(y), denseSet(dense, [{ start: 1, stop: 3 }, { step: -3 }], 7));
    expect(y.layer.task([1, 0]).kernel).toBe('passthrough');
    expect(y.layer.task([0, 0]).kernel).toBe('set-region');
    expect(y.layer.fusable).toBe(true);
    expect(setIndex(x, '3:3', 1)).toBe(x);
  });

  test('values are cast to the dtype of x', async () => {
    const dense = randomDense([5], 'bool', 2);
    const y = setIndex(fromArray(dense, { chunks: 2 }), { start: 1 }, 3);
    expect(Array.from((await compute(y)).data as NumberArray)).toEqual([dense.data[0], 1, 1, 1, 1]);
    const z = setIndex(
      fromArray(randomDense([3], 'int32')),
      [1],
      fromArray(ndarray(Float64Array.from([2.7]), [])),
    );
    expect((await compute(z)).data[1]).toBe(2);
  });

  test('bool mask with scalar and broadcast array values, as where(m, v, x)', async () => {
    const dense = randomDense([5, 6], 'float32', 3);
    const m = randomDense([5, 6], 'bool', 4);
    const x = fromArray(dense, { chunks: [2, 4] });
    const mm = fromArray(m, { chunks: 3 });
    const ys = setIndex(x, mm, -1);
    expect(ys.chunks).toEqual(x.chunks);
    expectArray(await compute(ys), denseWhere(m, ndarray([-1], [1]), dense));
    const v = randomDense([6], 'float64', 5);
    const ya = setIndex(x, mm, fromArray(v, { chunks: 4 }));
    expectArray(await compute(ya), denseWhere(m, v, dense), 1e-6);
  });

  test('a scalar set on an axis of unknown size passes whole blocks', async () => {
    const dense = randomDense([4, 6], 'float64', 5);
    const x = fromArray(dense, { chunks: [2, 3] });
    const unknown = withChunks(x, [
      [null, null],
      [3, 3],
    ]);
    const y = setIndex(unknown, [{}, 4], 0);
    expectArray(await compute(y), denseSet(dense, [{}, 4], 0));
  });

  test.each<[string, () => unknown, string, RegExp]>([
    [
      'integer array index',
      () => setIndex(fromArray(randomDense([4])), [[0, 1]], 1),
      'IndexError',
      /^set: integer-array index \(0, 1\) is not supported/,
    ],
    [
      'value does not broadcast',
      () => setIndex(fromArray(randomDense([4, 3])), '1:3', fromArray(randomDense([3, 3]))),
      'ShapeError',
      /^set: value of shape \(3, 3\) does not broadcast to the selection's shape \(2, 3\)/,
    ],
    [
      'index out of bounds',
      () => setIndex(fromArray(randomDense([4])), 4, 1),
      'IndexError',
      /^set: index 4 is out of bounds for axis 0 with size 4/,
    ],
    [
      'mask value does not broadcast',
      () =>
        setIndex(
          fromArray(randomDense([4])),
          fromArray(randomDense([4], 'bool')),
          fromArray(randomDense([3])),
        ),
      'ShapeError',
      /^set: value of shape \(3,\) does not broadcast/,
    ],
    [
      'mask not bool',
      () => setIndex(fromArray(randomDense([4])), fromArray(randomDense([4])), 1),
      'DTypeError',
      /^set: mask has dtype 'float64'/,
    ],
  ])('error: %s', (_, f, tag, text) => {
    expectThrow(f, tag, text);
  });
});
