// Elementwise graph building: broadcasting, chunk unification (with its warning), names,
// scalars, eager inputs, dtype promotion tables, errors, unknown sizes and fusion task counts.

import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  add,
  divide,
  floorDivide,
  multiply,
  pow,
  sqrt,
  subtract,
} from '../../src/apply/elementwise-arith.ts';
import { astype, clip, equal, less, where } from '../../src/apply/elementwise-logic.ts';
import { compute } from '../../src/array/compute.ts';
import type { DType, NumberArray } from '../../src/array/dtype.ts';
import { fromArray } from '../../src/array/from-array.ts';
import { LazyArray } from '../../src/array/lazy-array.ts';
import { ndarray } from '../../src/array/ndarray.ts';
import { defineLayer } from '../../src/graph/define-layer.ts';
import { fuseLayers } from '../../src/graph/fuse.ts';
import { materializeTasks, runnableCount } from '../../src/graph/materialize.ts';
import {
  arbShapeAndChunks,
  expectArray,
  randomAxisChunks,
  randomDense,
  rng,
} from '../helpers/reference.ts';
import { broadcastRef } from './elementwise-reference.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

const tagged = (tag: string, message: RegExp) =>
  expect.objectContaining({ _tag: tag, message: expect.stringMatching(message) });

describe('broadcasting and chunks', () => {
  it('[3, 1] with [4] gives [3, 4] with the chunks of both', async () => {
    const a = fromArray([[1], [2], [3]], { chunks: [[2, 1], [1]] });
    const b = fromArray([10, 20, 30, 40], { chunks: [[1, 3]] });
    const y = add(a, b);
    expect(y.shape).toEqual([3, 4]);
    expect(y.chunks).toEqual([
      [2, 1],
      [1, 3],
    ]);
    expect((await compute(y)).toNested()).toEqual([
      [11, 21, 31, 41],
      [12, 22, 32, 42],
      [13, 23, 33, 43],
    ]);
  });

  it('unifies different chunkings to their common refinement', async () => {
    const x = randomDense([7, 5], 'float64', 3);
    const a = fromArray(x, { chunks: [[3, 4], [5]] });
    const b = fromArray(x, {
      chunks: [
        [2, 5],
        [2, 3],
      ],
    });
    const y = subtract(a, multiply(b, 2));
    expect(y.chunks).toEqual([
      [2, 1, 4],
      [2, 3],
    ]);
    const ref = broadcastRef([x, x], (p, q) => p - q * 2);
    expectArray(await compute(y), ref);
  });

  it('property: random shapes, chunkings and broadcast partners match the dense reference', async () => {
    await fc.assert(
      fc.asyncProperty(arbShapeAndChunks(3, 6), fc.integer({ min: 0, max: 3 }), async (c, mode) => {
        const r = rng(c.seed);
        const x = randomDense(c.shape, 'float64', c.seed);
        // the partner: same shape re-chunked, the trailing axes, or size 1 on a random axis
        const nd = c.shape.length;
        const pShape =
          mode === 0
            ? c.shape
            : mode === 1
              ? c.shape.slice(1 + Math.floor(r() * nd))
              : c.shape.map((n, ax) => (ax === c.seed % nd ? 1 : n));
        const p = randomDense(pShape, 'float64', c.seed + 1);
        const pChunks = pShape.map((n) => randomAxisChunks(n, r));
        const y = add(fromArray(x, { chunks: c.chunks }), fromArray(p, { chunks: pChunks }));
        const ref = broadcastRef([x, p], (u, v) => u + v);
        expect(y.shape).toEqual(ref.shape);
        expect(y.chunks.map((ch) => ch.reduce((s, v) => s! + v!, 0))).toEqual(ref.shape);
        expectArray(await compute(y), ref);
      }),
      { numRuns: 40 },
    );
  });

  it('warns when unifying multiplies the block count by 10 or more', () => {
    const spy = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const x = randomDense([20, 20], 'float64', 1);
    const a = fromArray(x, { chunks: [20, 2] });
    const b = fromArray(x, { chunks: [2, 20] });
    const y = add(a, b);
    expect(y.numBlocks).toEqual([10, 10]);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(String(spy.mock.calls[0]![0])).toMatch(
      /^add: aligning inputs with \(1, 10\) and \(10, 1\) blocks gives \(10, 10\) blocks, 10x/,
    );
    expect(spy.mock.calls[0]![1]).toMatchObject({ type: 'PerformanceWarning' });
    spy.mockClear();
    add(fromArray(x, { chunks: [10, 5] }), fromArray(x, { chunks: [5, 10] }));
    expect(spy).not.toHaveBeenCalled();
  });

  it('raises ShapeError for shapes that do not broadcast', () => {
    expect(() => add(fromArray([1, 2, 3]), fromArray([1, 2]))).toThrow(
      tagged('ShapeError', /^add: shapes \(3,\), \(2,\) do not broadcast/),
    );
  });
});

describe('scalars and eager inputs', () => {
  const x = fromArray(new Int32Array([1, 2, 3]));
  it.each([
    ['subtract(2, x)', () => subtract(2, x), [1, 0, -1]],
    ['subtract(x, 2)', () => subtract(x, 2), [-1, 0, 1]],
    ['divide(1, x)', () => divide(1, x), [1, 0.5, 1 / 3]],
    ['pow(2, x)', () => pow(2, x), [2, 4, 8]],
    ['add(nested, x)', () => add([10, 20, 30], x), [11, 22, 33]],
    ['add(TypedArray, x)', () => add(new Float32Array([0.5, 0.5, 0.5]), x), [1.5, 2.5, 3.5]],
    ['add(NDArray, 1)', () => add(ndarray([1, 2, 3], [3], 'int8'), 1), [2, 3, 4]],
    ['add(x, true)', () => add(x, true), [2, 3, 4]],
  ] as [string, () => LazyArray, number[]][])('%s', async (_label, f, expected) => {
    expectArray(await compute(f()), { shape: [3], data: expected });
  });

  it('needs at least one array', () => {
    expect(() => add(1, 2)).toThrow(
      tagged('ValueError', /^add: at least one argument must be an array, got only scalars 1, 2/),
    );
    expect(() => sqrt(4)).toThrow(tagged('ValueError', /^sqrt: at least one argument/));
  });

  it('rejects operands that are not arrays or numbers', () => {
    expect(() => add(x, 'a' as unknown as number)).toThrow(
      tagged('ValueError', /^add: argument 1 'a' is not an array, a number, a BigInt or a boolean/),
    );
  });

  it('rejects integer scalars the integer result cannot hold', () => {
    const u8 = fromArray(new Uint8Array([1, 2]));
    expect(() => add(u8, 300)).toThrow(
      tagged('ValueError', /^add: scalar 300 is out of bounds for dtype 'uint8'/),
    );
    expect(() => subtract(u8, -1)).toThrow(tagged('ValueError', /scalar -1 is out of bounds/));
    expect(() => pow(x, -1)).toThrow(
      tagged('ValueError', /^pow: integers to negative integer powers/),
    );
    // comparisons of integers with any number stay exact
    expect(less(u8, 300).dtype).toBe('bool');
    expect(() => where(equal(u8, 1), u8, -1)).toThrow(tagged('ValueError', /^where: scalar -1/));
  });

  it('a repeated array is one input', () => {
    const y = multiply(x, x);
    expect(y.layer.deps).toHaveLength(1);
  });
});

describe('dtype promotion', () => {
  const arr = (d: DType): LazyArray => fromArray(new Float64Array([1, 2]), { dtype: d });
  it.each([
    ['add', ['uint8', 'int8'], 'int16'],
    ['add', ['uint32', 'int32'], 'int64'],
    ['add', ['int16', 'float32'], 'float32'],
    ['add', ['int32', 'float32'], 'float64'],
    ['add', ['bool', 'bool'], 'bool'],
    ['add', ['bool', 1], 'int32'],
    ['add', ['bool', true], 'bool'],
    ['multiply', ['float32', 2.5], 'float32'],
    ['multiply', ['int8', 2.5], 'float64'],
    ['multiply', ['int8', 2], 'int8'],
    ['divide', ['int16', 'int16'], 'float64'],
    ['divide', ['float32', 'int16'], 'float32'],
    ['divide', ['uint8', 2], 'float64'],
    ['floorDivide', ['bool', 'bool'], 'int8'],
    ['floorDivide', ['int16', 'int16'], 'int16'],
    ['sqrt', ['float32'], 'float32'],
    ['sqrt', ['int8'], 'float64'],
    ['sqrt', ['bool'], 'float64'],
    ['less', ['float32', 'int32'], 'bool'],
  ] as [string, (DType | number | boolean)[], DType][])('%s(%j) is %s', (op, types, expected) => {
    // biome-ignore lint/suspicious/noExplicitAny: unary and binary functions in one table
    const fns: Record<string, (...a: any[]) => LazyArray> = {
      add,
      multiply,
      divide,
      floorDivide,
      sqrt,
      less,
    };
    const args = types.map((t) => (typeof t === 'string' ? arr(t) : t));
    expect(fns[op]!(...args).dtype).toBe(expected);
  });
});

describe('names', () => {
  const x = fromArray([1, 2, 3, 4], { chunks: 2 });
  it('the same expression built twice has the same name', () => {
    expect(add(multiply(x, 2), 1).name).toBe(add(multiply(x, 2), 1).name);
    expect(add(x, 1).name).toMatch(/^add-[0-9a-f]{16}$/);
  });
  it('different scalars, ops, operand orders or dtypes give different names', () => {
    const names = [
      add(x, 1),
      add(x, 2),
      add(x, -0),
      add(x, 0),
      add(x, Number.NaN),
      subtract(x, 1),
      subtract(1, x),
      astype(x, 'float32'),
      astype(x, 'int32'),
    ].map((y) => y.name);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('clip, where, astype', () => {
  it('clip matches minimum(maximum(x, lo), hi), NaN propagating', async () => {
    const x = fromArray([-2, 0.5, 3, Number.NaN], { chunks: 3 });
    expectArray(await compute(clip(x, 0, 1)), { shape: [4], data: [0, 0.5, 1, Number.NaN] });
    expectArray(await compute(clip(x, null, 1)), { shape: [4], data: [-2, 0.5, 1, Number.NaN] });
    expect(clip(x)).toBe(x);
    const lo = fromArray([[0], [1]]);
    expectArray(await compute(clip(x, lo, 2)), {
      shape: [2, 4],
      data: [0, 0.5, 2, Number.NaN, 1, 1, 2, Number.NaN],
    });
  });

  it('clip clamps integer scalar bounds to the dtype instead of wrapping', async () => {
    const i8 = fromArray(new Int8Array([-128, 0, 127]));
    const y = clip(i8, -1000, 1000);
    expect(y.dtype).toBe('int8');
    expect((await compute(y)).toArray()).toEqual([-128, 0, 127]);
    expect((await compute(clip(i8, 0, 300))).toArray()).toEqual([0, 0, 127]);
  });

  it('where broadcasts condition and branches and promotes the branches', async () => {
    const c = fromArray([[true], [false]]);
    const y = where(c, fromArray(new Int8Array([1, 2, 3])), fromArray(new Float32Array([0.5])));
    expect(y.dtype).toBe('float32');
    expect((await compute(y)).toNested()).toEqual([
      [1, 2, 3],
      [0.5, 0.5, 0.5],
    ]);
  });

  it('astype returns the array itself for its own dtype and rejects unknown dtypes', () => {
    const x = fromArray([1.5]);
    expect(astype(x, 'float64')).toBe(x);
    expect(() => astype(x, 'int128' as DType)).toThrow(
      tagged('DTypeError', /^astype: unknown dtype "int128"/),
    );
  });
});

describe('graph shape', () => {
  it('x * 2 + 1 fuses to one task per block', () => {
    const x = fromArray(randomDense([8, 6], 'float64', 2), { chunks: [4, 3] });
    const y = add(multiply(x, 2), 1);
    // unfused: 4 getters + 4 multiply + 4 add; fused: one task per block
    expect(runnableCount(materializeTasks([y.layer]))).toBe(12);
    const fused = materializeTasks(fuseLayers([y.layer]));
    expect(runnableCount(fused)).toBe(4);
  });

  it('a broadcast row is read by every block of its column without copies', () => {
    const x = fromArray(randomDense([8, 6], 'float64', 2), { chunks: [4, 3] });
    const row = fromArray(randomDense([6], 'float64', 3), { chunks: 3 });
    const y = add(x, row);
    const refs = [0, 1].map((i) => y.layer.task([i, 1]).inputs[1]);
    expect(refs).toEqual([
      [1, [1]],
      [1, [1]],
    ]);
  });
});

describe('fusion', () => {
  const chains: [string, (x: LazyArray, y: LazyArray) => LazyArray][] = [
    ['(x * x > 0) in int8', (x) => less(0, multiply(x, x))],
    ['floorDivide(x * 3, y) + 1', (x, y) => add(floorDivide(multiply(x, 3), y), 1)],
    ['sqrt(x * 0.1 + y)', (x, y) => sqrt(add(multiply(x, 0.1), y))],
    [
      'where(x < y, x - y, astype(y, int8))',
      (x, y) => where(less(x, y), subtract(x, y), astype(y, 'int8')),
    ],
  ];
  it.each(
    chains.flatMap(([label, f]) =>
      (['int8', 'float32', 'uint16'] as DType[]).map((d) => [label, d, f] as const),
    ),
  )('%s on %s: fused equals unfused bit for bit', async (_label, d, f) => {
    const x = fromArray(randomDense([9, 7], d, 5), { chunks: [4, 3] });
    const y = fromArray(randomDense([7], d, 6), { chunks: 3 });
    const z = f(x, y);
    const fused = await compute(z);
    const plain = await compute(z, { optimize: false });
    expect(fused.dtype).toBe(plain.dtype);
    expect(Array.from(fused.data as NumberArray)).toEqual(Array.from(plain.data as NumberArray));
  });
});

describe('unknown sizes', () => {
  const x = fromArray([1, 2, 3, 4, 5], { chunks: [[2, 3]] });
  const unknown = new LazyArray(
    defineLayer({
      op: 'unknown',
      deps: [x.layer],
      chunks: [[null, null]],
      dtype: 'float64',
      fusable: true,
      task: (b) => ({ kernel: 'passthrough', inputs: [[0, b]] }),
    }),
  );
  it('keeps working when inputs share the chunking', async () => {
    const y = add(multiply(unknown, unknown), fromArray([100]));
    expect(y.shape).toEqual([null]);
    expect(y.chunks).toEqual([[null, null]]);
    expect((await compute(y)).toArray()).toEqual([101, 104, 109, 116, 125]);
  });
  it('raises ChunkError naming computeChunkSizes when chunkings differ', () => {
    expect(() => add(unknown, x)).toThrow(tagged('ChunkError', /computeChunkSizes/));
  });
});
