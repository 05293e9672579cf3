// lazyApply against dense references: declared and default shapes/dtypes, several outputs,
// unknown sizes, result coercion, scalars and kwargs, core axes, nesting. Numbers = issue points.

import { describe, expect, test } from 'vitest';
import { add } from '../../src/apply/elementwise-arith.ts';
import { greater } from '../../src/apply/elementwise-logic.ts';
import { mask } from '../../src/apply/indexing.ts';
import { type LazyApplyOptions, lazyApply } from '../../src/apply/lazy-apply.ts';
import { mapBlocks } from '../../src/apply/map-blocks.ts';
import { rechunk } from '../../src/apply/rechunk.ts';
import { sum } from '../../src/apply/reductions.ts';
import { compute } from '../../src/array/compute.ts';
import type { DType, NumberArray } from '../../src/array/dtype.ts';
import { fromArray } from '../../src/array/from-array.ts';
import type { LazyArray } from '../../src/array/lazy-array.ts';
import { NDArray } from '../../src/array/ndarray.ts';
import { computeChunkSizes } from '../../src/array/persist.ts';
import { ShapeError, TaskError } from '../../src/errors.ts';
import { materializeTasks, taskKey } from '../../src/graph/materialize.ts';
import { lazyKernels } from '../fixtures/lazy-kernels.ts';
import { at, expectArray, randomDense } from '../helpers/reference.ts';

/** Runnable tasks of `x`'s graph whose layer op starts with `op`, and their keys. */
function tasksOf(x: LazyArray, op: string): string[] {
  const t = materializeTasks([x.layer]);
  const keys: string[] = [];
  for (let i = 0; i < t.count; i++)
    if (!t.isConstant[i] && t.layers[t.layerOf[i]!]!.op.startsWith(op)) keys.push(taskKey(t, i));
  return keys;
}

const double = (x: NDArray) => (x.data as NumberArray).map((v) => v * 2);

describe('declared and default outputs', () => {
  test.each([
    ['int32', [2], [1]],
    ['float64', [2], [1, 1]],
    ['int32', [3, 2], [2, 1]],
    ['float64', [3, 2], [1, 2]],
  ] as [DType, number[], number[]][])(
    '1: explicit shape and dtype %s %j (input chunks %j)',
    async (dtype, shape, chunks) => {
      const dense = randomDense(shape, 'float64', 7);
      const x = fromArray(dense, { chunks });
      const y = lazyApply(double, x, { shape, dtype });
      expect([y.shape, y.dtype]).toEqual([shape, dtype]);
      const want = Array.from(dense.data as NumberArray, (v) =>
        dtype === 'int32' ? Math.trunc(v * 2) : v * 2,
      );
      expectArray(await compute(y), { dtype, shape, data: want });
    },
  );

  test('1: a result on shared memory of another dtype is cast, not relabelled', async () => {
    const x = fromArray(new Float64Array([1.5, -2.7, 3.2, 300.9]), { chunks: 2 });
    const y = lazyApply((b: NDArray) => b, x, { dtype: 'int32' });
    expectArray(await compute(y), { dtype: 'int32', shape: [4], data: [1, -2, 3, 300] });
    const z = lazyApply((b: NDArray) => b, x, { dtype: 'bool' });
    expectArray(await compute(z), { dtype: 'bool', shape: [4], data: [1, 1, 1, 1] });
  });

  test('2: shape and dtype omitted: broadcast shape, promoted dtype', async () => {
    const a = fromArray(new Int16Array([1, 2]));
    const b = fromArray(new Int32Array([10, 20, 30]), { shape: [3, 1], chunks: [1, 1] });
    const outer = (p: NDArray, q: NDArray) => {
      const out: number[] = [];
      for (const u of q.data as NumberArray) for (const v of p.data as NumberArray) out.push(u + v);
      return out;
    };
    const y = lazyApply(outer, [a, b]);
    expect([y.shape, y.dtype]).toEqual([[3, 2], 'int32']);
    expectArray(await compute(y), {
      dtype: 'int32',
      shape: [3, 2],
      data: [11, 12, 21, 22, 31, 32],
    });
  });

  test('3: several outputs run fn once for all of them', async () => {
    let calls = 0;
    const split = (x: NDArray) => {
      calls++;
      return [x.data.slice(0, 2), x.data.slice(0, 6)];
    };
    const x = fromArray(new Float64Array([1.5, -2, 3, 4, 5, 130]), { chunks: 2 });
    const [a, b] = lazyApply(split, x, {
      shape: [[2], [3, 2]],
      dtype: ['int8', 'int16'],
      inline: true,
    });
    expect([a!.shape, a!.dtype, b!.shape, b!.dtype]).toEqual([[2], 'int8', [3, 2], 'int16']);
    const [ra, rb] = await compute(a!, b!);
    expect(calls).toBe(1);
    expectArray(ra!, { dtype: 'int8', shape: [2], data: [1, -2] });
    expectArray(rb!, { dtype: 'int16', shape: [3, 2], data: [1, -2, 3, 4, 5, 130] });
  });

  test('4: several outputs without dtype get the promoted input dtype', async () => {
    const x = fromArray(new Float32Array([1, 2, 3]));
    const y = fromArray(new Int8Array([4, 5, 6]));
    const pair = (p: NDArray, q: NDArray) => [p.data, q.data];
    const outs = lazyApply(pair, [x, y], { shape: [[3], [3]] });
    expect(outs.map((o) => o.dtype)).toEqual(['float32', 'float32']);
    const [rp, rq] = await compute(outs[0]!, outs[1]!);
    expectArray(rq!, { dtype: 'float32', shape: [3], data: [4, 5, 6] });
    expectArray(rp!, { dtype: 'float32', shape: [3], data: [1, 2, 3] });
  });
});

describe('whole arrays by default', () => {
  const colSum = (x: NDArray) => {
    const [r, c] = x.shape as [number, number];
    const out = new Float64Array(c);
    for (let i = 0; i < r; i++)
      for (let j = 0; j < c; j++) out[j] += (x.data as NumberArray)[i * c + j]!;
    return out;
  };
  const dense = randomDense([12, 3], 'float64', 3);
  const x = fromArray(dense, { chunks: [4, 2] });

  test('5: a reduction along axis 0 is global; a naive mapBlocks gives per-chunk answers', async () => {
    const y = lazyApply(colSum, x, { shape: [1, 3] });
    const want = [0, 1, 2].map((j) =>
      [...Array(12).keys()].reduce((s, i) => s + at(dense, [i, j]), 0),
    );
    expectArray(await compute(y), { shape: [1, 3], data: want });
    expect(tasksOf(y, 'lazy-apply')).toHaveLength(1);
    const naive = mapBlocks(colSum, x, { dtype: 'float64', chunks: [1, [2, 1]] });
    const perChunk = (b: number, j: number) =>
      [0, 1, 2, 3].reduce((s, i) => s + at(dense, [4 * b + i, j]), 0);
    const got = await compute(naive);
    expect(got.shape).toEqual([3, 3]);
    expectArray(got, {
      shape: [3, 3],
      data: [0, 1, 2].flatMap((b) => [0, 1, 2].map((j) => perChunk(b, j))),
    });
    expect(got.data.slice(0, 3)).not.toEqual(Float64Array.from(want));
  });

  test('6: fn never runs on placeholder or empty data', async () => {
    const seen: number[][] = [];
    const check = (b: NDArray) => {
      if (b.size !== 36 || b.shape.join() !== '12,3') throw new Error(`placeholder ${b.shape}`);
      seen.push(b.shape);
      return b.data;
    };
    const y = lazyApply(check, x, { inline: true });
    expect(seen).toHaveLength(0);
    await compute(y);
    expect(seen).toEqual([[12, 3]]);
  });

  test('7: the task key contains the function name', () => {
    const y = lazyApply(lazyKernels.sortRows, x, { axis: 1 });
    const keys = tasksOf(y, 'lazy-apply');
    expect(keys).toHaveLength(3);
    for (const k of keys) expect(k).toMatch(/^lazy-apply-sortRows-[0-9a-f]+:\(\d+,0\)$/);
    expect(y.name).toContain('sortRows');
  });
});

describe('unknown sizes', () => {
  const data = new Float64Array([3, 1, 3, 2, 1, 3, 5, 2]);
  const x = fromArray(data, { chunks: 3 });
  const unique = (v: NDArray) => Float64Array.from(new Set(v.data as NumberArray)).sort();

  test('8: shape [null] and [[null], [null]]; elementwise on the result; computeChunkSizes', async () => {
    const u = lazyApply(unique, x, { shape: [null] });
    expect(u.shape).toEqual([null]);
    expectArray(await compute(add(u, 1)), { dtype: 'float64', shape: [4], data: [2, 3, 4, 6] });
    const [vals, counts] = lazyApply(lazyKernels.uniqueCounts, x, {
      shape: [[null], [null]],
      dtype: ['float64', 'int32'],
    });
    expect([vals!.chunks, counts!.chunks]).toEqual([[[null]], [[null]]]);
    const [rv, rc] = await compute(vals!, counts!);
    expectArray(rv!, { dtype: 'float64', shape: [4], data: [1, 2, 3, 5] });
    expectArray(rc!, { dtype: 'int32', shape: [4], data: [2, 2, 3, 1] });
    const sized = await computeChunkSizes(counts!);
    expect([sized.shape, sized.chunks]).toEqual([[4], [[4]]]);
  });

  test('9: an input of unknown length from mask, shape omitted: the output keeps the unknown size', async () => {
    const m = mask(x, greater(x, 2));
    expect(m.chunks).toEqual([[null, null, null]]);
    const y = lazyApply(double, m);
    expect([y.shape, y.chunks]).toEqual([[null], [[null]]]);
    expectArray(await compute(y), { dtype: 'float64', shape: [4], data: [6, 6, 6, 10] });
  });

  test('9: an input of unknown length (several unknown blocks) gives an output of unknown size', async () => {
    // rows whose first entry is positive, per block of 4 rows: chunks [[null, null, null], [3]]
    const rows = randomDense([12, 3], 'float64', 5);
    const keepPositive = (b: NDArray) => {
      const out: number[] = [];
      for (let i = 0; i < b.shape[0]!; i++)
        if ((b.data as NumberArray)[3 * i]! > 0)
          out.push(...(b.data as NumberArray).slice(3 * i, 3 * i + 3));
      return out;
    };
    const kept = lazyApply(keepPositive, fromArray(rows, { chunks: [4, 3] }), {
      axis: 1,
      shape: [null, 3],
    });
    expect(kept.chunks).toEqual([[null, null, null], [3]]);
    const y = lazyApply(double, kept);
    expect([y.shape, y.chunks]).toEqual([
      [null, 3],
      [[null], [3]],
    ]);
    const want: number[] = [];
    for (let i = 0; i < 12; i++)
      if ((rows.data as NumberArray)[3 * i]! > 0)
        want.push(...[0, 1, 2].map((j) => 2 * at(rows, [i, j])));
    expectArray(await compute(y), { shape: [want.length / 3, 3], data: want });
    // known axes in several chunks are rechunked, unknown ones gathered inside the task
    const split = rechunk(kept, { 1: [1, 2] });
    expect(split.chunks).toEqual([
      [null, null, null],
      [1, 2],
    ]);
    expectArray(await compute(lazyApply(double, split)), {
      shape: [want.length / 3, 3],
      data: want,
    });
  });
});

describe('results, arguments and errors', () => {
  const x = fromArray(new Float64Array([1, 2, 3, 4]), { chunks: 2 });

  test.each([
    [
      'a bare TypedArray',
      (v: NDArray) => Int16Array.from(v.data as NumberArray),
      [2, 2],
      [1, 2, 3, 4],
    ],
    [
      'a plain number',
      (v: NDArray) => Array.from(v.data as NumberArray).reduce((s, e) => s + e, 0),
      [],
      [10],
    ],
    ['a number into shape [1, 1]', (v: NDArray) => v.data[3]!, [1, 1], [4]],
    ['nested arrays', (v: NDArray) => [[v.data[0]!, v.data[1]!]], [1, 2], [1, 2]],
  ] as [string, (v: NDArray) => unknown, number[], number[]][])(
    '10: fn may return %s',
    async (_, fn, shape, want) => {
      expectArray(await compute(lazyApply(fn, x, { shape, dtype: 'int32' })), {
        dtype: 'int32',
        shape,
        data: want,
      });
    },
  );

  test('10: a [number, number[]] pair fills two outputs', async () => {
    const stats = (v: NDArray) => [v.data.length, Array.from(v.data as NumberArray, (e) => e * e)];
    const [n, sq] = lazyApply(stats, x, { shape: [[], [4]], dtype: ['int32', 'float64'] });
    const [rn, rs] = await compute(n!, sq!);
    expectArray(rn!, { dtype: 'int32', shape: [], data: [4] });
    expectArray(rs!, { dtype: 'float64', shape: [4], data: [1, 4, 9, 16] });
  });

  test('10: a result contradicting a known declared shape is a ShapeError naming the task', async () => {
    const y = lazyApply((v: NDArray) => v.data.slice(1), x, { shape: [4], name: 'short' });
    const err = (await compute(y).catch((e: unknown) => e)) as ShapeError;
    expect(err).toBeInstanceOf(ShapeError);
    expect(err.key).toBe(tasksOf(y, 'lazy-apply')[0]);
    expect(err.message).toContain(`task ${err.key}`);
    expect(err.message).toMatch(/^lazyApply: .*3 elements.*\[4\]/);
  });

  test('11: scalars and null reach fn in place', async () => {
    const got: unknown[][] = [];
    const f = (...a: unknown[]) => {
      got.push(a);
      return (a[0] as NDArray).data;
    };
    await compute(lazyApply(f, [x, null, 3, true], { inline: true }));
    expect(got).toHaveLength(1);
    expect(got[0]!.slice(1)).toEqual([null, 3, true]);
    expect((got[0]![0] as NDArray).shape).toEqual([4]);
  });

  const selfRef: unknown[] = ['loop'];
  selfRef.push(selfRef);
  test.each([
    ['an object', { a: 1, nested: { b: [2] } }],
    ['a string', 'hann'],
    ['a string array', ['x', 'y']],
    ['a number', 0],
    ['a self-referencing array', selfRef],
  ])('12: kwargs (%s) reach fn unchanged on sync', async (_, kwargs) => {
    const got: unknown[] = [];
    const f = (v: NDArray, kw: unknown) => {
      got.push(kw);
      return v.data;
    };
    await compute(lazyApply(f, x, { kwargs, inline: true }), { scheduler: 'sync' });
    expect(got).toHaveLength(1);
    expect(got[0]).toBe(kwargs);
  });

  test('13: an exception in fn surfaces as TaskError with key, kernel and cause', async () => {
    const boom = (_: NDArray): never => {
      throw new RangeError('boom inside');
    };
    const y = lazyApply(boom, x);
    const err = (await compute(y).catch((e: unknown) => e)) as TaskError;
    expect(err).toBeInstanceOf(TaskError);
    expect(err.key).toBe(tasksOf(y, 'lazy-apply')[0]);
    expect(err.key).toContain('boom');
    expect(err.kernel).toBe('lazy-apply:boom');
    expect(err.cause).toBeInstanceOf(RangeError);
    expect((err.cause as Error).stack).toContain('boom inside');
  });

  test('16: asHost is a no-op on CPU inputs', async () => {
    const y = lazyApply(double, x, { asHost: true });
    expect(y.device).toBe('cpu');
    expectArray(await compute(y), { shape: [4], data: [2, 4, 6, 8] });
  });

  test('17: eager inputs, and nesting in other lazy expressions', async () => {
    const nd = new NDArray(new Float64Array([3, 1, 2, 6, 5, 4]), [2, 3], 'float64');
    const a = lazyApply(double, nd);
    const b = lazyApply(double, new Int32Array([1, 2, 3]));
    expect([a.shape, b.shape, b.dtype]).toEqual([[2, 3], [3], 'int32']);
    // lazyApply output → rechunk → lazyApply → elementwise → lazyApply → reduction
    const c = lazyApply(lazyKernels.sortRows, rechunk(a, [1, 3]), { axis: 1 });
    expectArray(await compute(c), { shape: [2, 3], data: [2, 4, 6, 8, 10, 12] });
    const total = sum(lazyApply(double, add(c, b)));
    expectArray(await compute(total), { shape: [], data: [2 * (42 + 2 * 12)] });
  });

  test('7: names are deterministic and follow every parameter', () => {
    const f = (v: NDArray, _s: unknown, kw?: unknown) => (kw === undefined ? v.data : v.data);
    const name = (args: readonly [LazyArray, number], opts: Omit<LazyApplyOptions, 'shape'> = {}) =>
      lazyApply(f, args, opts).name;
    expect(name([x, 1])).toBe(name([x, 1]));
    expect(name([x, 1])).not.toBe(name([x, 2]));
    expect(name([x, 1], { kwargs: { k: 1 } })).toBe(name([x, 1], { kwargs: { k: 1 } }));
    expect(name([x, 1], { kwargs: { k: 1 } })).not.toBe(name([x, 1], { kwargs: { k: 2 } }));
    expect(name([x, 1], { dtype: 'int32' })).not.toBe(name([x, 1]));
    expect(name([x, 1], { name: 'smooth' })).toMatch(/^lazy-apply-smooth-/);
  });

  test('0-d inputs and outputs', async () => {
    const zero = new NDArray(new Float64Array([2.5]), [], 'float64');
    const y = lazyApply((v: NDArray, k: number) => (v.data as NumberArray)[0]! * k, [zero, 4]);
    expect([y.shape, y.chunks]).toEqual([[], []]);
    expectArray(await compute(y), { dtype: 'float64', shape: [], data: [10] });
  });
});
