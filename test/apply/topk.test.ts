// topk and argtopk against a dense sort on random shapes, chunkings, dtypes, axes and k
// (negative too); the tree's task counts; errors.

import { afterAll, describe, expect, test } from 'vitest';
import type { DType, TypedArray } from '../../src/array/dtype.ts';
import { cStrides, shapeSize } from '../../src/array/ndarray.ts';
import { materializeTasks } from '../../src/graph/materialize.ts';
import { arange, argtopk, compute, fromArray, shutdown, topk } from '../../src/index.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { expectArray, randomAxisChunks, randomDense, rng } from '../helpers/reference.ts';

afterAll(() => shutdown());
const SYNC = { scheduler: 'sync' } as const;

/** Dense top-k along `axis`: per lane, indices sorted by value (NaN largest), ties by index. */
function reference(
  x: { shape: number[]; data: ArrayLike<number> | TypedArray },
  k: number,
  axis: number,
) {
  const n = x.shape[axis]!;
  const st = cStrides(x.shape);
  const m = Math.abs(k);
  const outShape = x.shape.map((s, ax) => (ax === axis ? m : s));
  const values = new Array<number>(shapeSize(outShape));
  const indices = new Array<number>(values.length);
  const ost = cStrides(outShape);
  const lanes = shapeSize(x.shape) / n;
  const others = x.shape.map((_, ax) => ax).filter((ax) => ax !== axis);
  for (let l = 0; l < lanes; l++) {
    let base = 0;
    let obase = 0;
    let rest = l;
    for (let j = others.length - 1; j >= 0; j--) {
      const ax = others[j]!;
      const i = rest % x.shape[ax]!;
      rest = Math.floor(rest / x.shape[ax]!);
      base += i * st[ax]!;
      obase += i * ost[ax]!;
    }
    const key = (v: number) => (Number.isNaN(v) ? Number.POSITIVE_INFINITY : v);
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => {
      const va = key(x.data[base + a * st[axis]!] as number);
      const vb = key(x.data[base + b * st[axis]!] as number);
      if (va !== vb) return k > 0 ? vb - va : va - vb;
      return a - b;
    });
    for (let j = 0; j < m; j++) {
      values[obase + j * ost[axis]!] = x.data[base + order[j]! * st[axis]!] as number;
      indices[obase + j * ost[axis]!] = order[j]!;
    }
  }
  return { shape: outShape, values, indices };
}

const DTYPES: DType[] = ['float64', 'float32', 'int32', 'uint8', 'int16'];

describe('topk and argtopk match a dense sort', () => {
  test.each(Array.from({ length: 20 }, (_, i) => i))('case %i', async (i) => {
    const r = rng(300 + i);
    const ndim = 1 + Math.floor(r() * 3);
    const shape = Array.from({ length: ndim }, () => 1 + Math.floor(r() * 9));
    const dtype = DTYPES[i % DTYPES.length]!;
    const dense = randomDense(shape, dtype, 5 + i);
    const axis = Math.floor(r() * ndim);
    const n = shape[axis]!;
    const k = (1 + Math.floor(r() * n)) * (r() < 0.5 ? -1 : 1);
    const x = fromArray(dense).rechunk(shape.map((s) => randomAxisChunks(s, r)));
    const opts = { axis: axis - (r() < 0.5 ? ndim : 0), splitEvery: 2 + Math.floor(r() * 3) };
    const want = reference(dense, k, axis);
    const v = topk(x, k, opts);
    const a = argtopk(x, k, opts);
    expect(v.shape).toEqual(want.shape);
    expect(a.dtype).toBe('int32');
    const [gv, ga] = await compute(v, a, SYNC);
    expectArray(gv, { dtype, shape: want.shape, data: want.values });
    expectArray(ga, { dtype: 'int32', shape: want.shape, data: want.indices });
  });

  test('NaN is the largest value, as NumPy sorts it', async () => {
    const x = fromArray([3, Number.NaN, 1, 7], { chunks: 2 });
    expect((await compute(topk(x, 2), SYNC)).toNested()).toEqual([Number.NaN, 7]);
    expect((await compute(argtopk(x, -2), SYNC)).toNested()).toEqual([2, 0]);
  });

  test('a tree: one partial per block, merges of splitEvery, one aggregate', () => {
    const x = arange(80, { chunks: 5, dtype: 'float64' });
    const table = materializeTasks([topk(x, 3, { splitEvery: 4 }).layer]);
    const ops = new Map<string, number>();
    for (let t = 0; t < table.count; t++) {
      const op = table.layers[table.layerOf[t]!]!.op;
      ops.set(op, (ops.get(op) ?? 0) + 1);
    }
    expect(ops.get('topk-partial')).toBe(16);
    expect(ops.get('topk-combine')).toBe(4);
    expect(ops.get('topk-aggregate')).toBe(1);
  });

  test.each([
    [() => topk(arange(5), 6), 'ValueError', ['topk:', '|k| = 6 is larger than axis 0 (5)']],
    [() => argtopk(arange(5), -6), 'ValueError', ['argtopk:', 'larger than axis 0 (5)']],
    [() => topk(arange(5), 0), 'ValueError', ['topk:', 'k 0']],
    [() => topk(arange(5), 1.5), 'ValueError', ['topk:', 'k 1.5']],
    [() => topk(arange(5), 1, { axis: 1 }), 'ValueError', ['topk:']],
    [
      () => topk(arange(6).mask(arange(6).greater(2)), 1),
      'ChunkError',
      ['topk:', 'computeChunkSizes'],
    ],
  ])('error %#', (f, tag, fragments) => expectThrow(f, tag, fragments));
});
