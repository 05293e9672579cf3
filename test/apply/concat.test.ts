// concat and stack against a dense reference: chunks laid end to end, other axes unified,
// dtypes promoted and cast per block, axis=null flattening, unknown sizes and errors.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { concat, stack } from '../../src/apply/concat.ts';
import { compute } from '../../src/array/compute.ts';
import type { DType, NumberArray } from '../../src/array/dtype.ts';
import { fromArray } from '../../src/array/from-array.ts';
import type { LazyArray } from '../../src/array/lazy-array.ts';
import { NDArray } from '../../src/array/ndarray.ts';
import { materializeTasks, runnableCount } from '../../src/graph/materialize.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { denseConcat } from '../helpers/layout-reference.ts';
import {
  expectArray,
  randomAxisChunks,
  randomDense,
  rng,
  withChunks,
} from '../helpers/reference.ts';

const tasks = (x: LazyArray): number => runnableCount(materializeTasks([x.layer]));
const flat = (x: NDArray) => new NDArray(x.data, [x.size], x.dtype);

describe('concat', () => {
  test('random shapes and chunkings along a random axis (fast-check)', async () => {
    const arb = fc.record({
      shape: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 3 }),
      count: fc.integer({ min: 1, max: 3 }),
      seed: fc.integer({ min: 1, max: 2 ** 30 }),
    });
    await fc.assert(
      fc.asyncProperty(arb, async ({ shape, count, seed }) => {
        const r = rng(seed);
        const axis = Math.floor(r() * shape.length);
        const denses = Array.from({ length: count }, (_, k) => {
          const s = shape.map((n, ax) => (ax === axis ? 1 + Math.floor(r() * 4) : n));
          return randomDense(s, 'float64', seed + k);
        });
        const xs = denses.map((d) =>
          fromArray(d, { chunks: d.shape.map((n) => randomAxisChunks(n, r)) }),
        );
        const y = concat(xs, { axis: axis - (r() < 0.5 ? shape.length : 0) });
        expect(y.chunks[axis]).toEqual(xs.flatMap((x) => x.chunks[axis]));
        expectArray(await compute(y), denseConcat(denses, axis, 'float64'));
      }),
      { numRuns: 40 },
    );
  });

  test('aligned inputs: one task per block, no rechunk', () => {
    const a = fromArray(randomDense([4, 6]), { chunks: [2, 3] });
    const b = fromArray(randomDense([2, 6], 'float64', 2), { chunks: [1, 3] });
    const y = concat([a, b]);
    expect(y.chunks).toEqual([
      [2, 2, 1, 1],
      [3, 3],
    ]);
    expect(tasks(y)).toBe(tasks(a) + tasks(b) + 8);
  });

  test('other axes are unified to the common refinement', async () => {
    const da = randomDense([2, 6], 'float64', 1);
    const db = randomDense([3, 6], 'float64', 2);
    const a = fromArray(da, { chunks: [[2], [2, 4]] });
    const b = fromArray(db, {
      chunks: [
        [1, 2],
        [3, 3],
      ],
    });
    const y = concat([a, b], { axis: 0 });
    expect(y.chunks).toEqual([
      [2, 1, 2],
      [2, 1, 3],
    ]);
    expectArray(await compute(y), denseConcat([da, db], 0, 'float64'));
  });

  test.each([
    ['int16', 'uint8', 'int16'],
    ['int32', 'float32', 'float64'],
    ['bool', 'int8', 'int8'],
    ['float32', 'float32', 'float32'],
    ['uint8', 'int8', 'int16'],
  ] as const)('%s with %s promotes to %s', async (d1, d2, out) => {
    const a = randomDense([3, 2], d1 as DType, 1);
    const b = randomDense([2, 2], d2 as DType, 2);
    const y = concat([fromArray(a, { chunks: 2 }), fromArray(b, { chunks: 1 })]);
    expect(y.dtype).toBe(out);
    expectArray(await compute(y), denseConcat([a, b], 0, out));
  });

  test('axis null flattens first', async () => {
    const a = randomDense([2, 3], 'float64', 1);
    const b = randomDense([4], 'float64', 2);
    const y = concat([fromArray(a, { chunks: 1 }), fromArray(b, { chunks: 3 })], { axis: null });
    expect(y.shape).toEqual([10]);
    expectArray(await compute(y), denseConcat([flat(a), b], 0, 'float64'));
  });

  test('eager inputs are accepted; one array of the same dtype is returned as is', async () => {
    const a = randomDense([2, 2], 'float64', 1);
    const y = concat([a, [[1, 2]]]);
    expectArray(
      await compute(y),
      denseConcat([a, new NDArray(new Float64Array([1, 2]), [1, 2], 'float64')], 0, 'float64'),
    );
    const x = fromArray(a);
    expect(concat([x])).toBe(x);
  });

  test('unknown sizes along the axis concatenate', async () => {
    const da = randomDense([3, 2], 'float64', 4);
    const x = fromArray(da, { chunks: [[1, 2], [2]] });
    const u = withChunks(x, [[null, null], [2]]);
    const y = concat([u, fromArray(da, { chunks: 2 })]);
    expect(y.chunks).toEqual([[null, null, 2, 1], [2]]);
    expectArray(await compute(y), denseConcat([da, da], 0, 'float64'));
  });

  test('errors', () => {
    const a = fromArray(randomDense([2, 3]));
    expectThrow(() => concat([]), 'ValueError', /^concat: needs a non-empty list/);
    expectThrow(
      () => concat([a, fromArray(randomDense([2, 4]))]),
      'ShapeError',
      /^concat: sizes on axis 1 differ \(shapes \(2, 3\), \(2, 4\)\)/,
    );
    expectThrow(
      () => concat([a, fromArray(randomDense([3]))]),
      'ShapeError',
      /^concat: all arrays must have the same number of dimensions/,
    );
    expectThrow(
      () => concat([a, a], { axis: 2 }),
      'ValueError',
      /^concat: axis 2 is out of bounds/,
    );
    expectThrow(
      () => concat([fromArray(randomDense([])), fromArray(randomDense([]))]),
      'ValueError',
      /^concat: zero-dimensional/,
    );
  });
});

describe('stack', () => {
  test.each([0, 1, 2, -1, -3])('stack along axis %d', async (axis) => {
    const ds = [1, 2, 3].map((s) => randomDense([3, 4], 'int32', s));
    const xs = ds.map((d, k) => fromArray(d, { chunks: [[1, 2], k === 1 ? [4] : [2, 2]] }));
    const y = stack(xs, { axis });
    const ax = axis < 0 ? axis + 3 : axis;
    const expanded = ds.map((d) => {
      const s = [...d.shape];
      s.splice(ax, 0, 1);
      return new NDArray(d.data, s, d.dtype);
    });
    expect(y.chunks[ax]).toEqual([1, 1, 1]);
    expectArray(await compute(y), denseConcat(expanded, ax, 'int32'));
  });

  test('promotes dtypes', async () => {
    const a = randomDense([2], 'uint8', 1);
    const b = randomDense([2], 'float32', 2);
    const y = stack([a, b]);
    expect(y.dtype).toBe('float32');
    expectArray(await compute(y), {
      dtype: 'float32',
      shape: [2, 2],
      data: [...(a.data as NumberArray), ...(b.data as NumberArray)],
    });
  });

  test('errors', () => {
    const a = fromArray(randomDense([2, 3]));
    expectThrow(
      () => stack([a, fromArray(randomDense([3, 2]))]),
      'ShapeError',
      /^stack: all arrays must have the same shape; got shapes \(2, 3\), \(3, 2\)/,
    );
    expectThrow(() => stack([a, a], { axis: 3 }), 'ValueError', /^stack: axis 3 is out of bounds/);
    expectThrow(() => stack([]), 'ValueError', /^stack: needs a non-empty list/);
  });
});
