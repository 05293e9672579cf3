// cumsum against a dense reference on random shapes, chunkings, axes and dtypes; the carry
// chain's task counts, unknown sizes along the axis, and build-time errors.

import { describe, expect, test } from 'vitest';
import { cumsum } from '../../src/apply/cumsum.ts';
import { compute } from '../../src/array/compute.ts';
import { type DType, type NumberArray, typedArrayCtor } from '../../src/array/dtype.ts';
import { fromArray } from '../../src/array/from-array.ts';
import { NDArray } from '../../src/array/ndarray.ts';
import { isTesseraError } from '../../src/errors.ts';
import { materializeTasks } from '../../src/graph/materialize.ts';
import {
  expectArray,
  randomAxisChunks,
  randomDense,
  rng,
  withChunks,
} from '../helpers/reference.ts';
import { castTo } from './reduction-reference.ts';

/**
 * Dense inclusive scan along `axis`, each element cast to `dtype` first, stored in `dtype`
 * (int64 and uint64 as float64, exact for these small sums; expectArray compares them so).
 */
function denseCumsum(x: NDArray, axis: number, dtype: DType): NDArray {
  const big = dtype === 'int64' || dtype === 'uint64';
  const out = new (typedArrayCtor(big ? 'float64' : dtype))(x.size) as NumberArray;
  let pre = 1;
  let post = 1;
  for (let ax = 0; ax < axis; ax++) pre *= x.shape[ax]!;
  for (let ax = axis + 1; ax < x.ndim; ax++) post *= x.shape[ax]!;
  const n = x.shape[axis]!;
  const cast =
    dtype.startsWith('float') || big ? (v: number) => v : (v: number) => castTo(v, dtype);
  for (let i = 0; i < pre; i++) {
    for (let q = 0; q < post; q++) {
      let acc = 0;
      for (let k = 0; k < n; k++) {
        const at = (i * n + k) * post + q;
        acc += cast((x.data as NumberArray)[at]!);
        out[at] = acc;
      }
    }
  }
  return new NDArray(out, x.shape, big ? 'float64' : dtype);
}

const DEFAULT: [DType, DType][] = [
  ['float64', 'float64'],
  ['float32', 'float32'],
  ['int16', 'int64'],
  ['int32', 'int64'],
  ['uint8', 'uint64'],
  ['bool', 'int64'],
];

describe.each(DEFAULT)('cumsum of %s gives %s', (dtype, out) => {
  test('random shapes, chunkings and axes', async () => {
    const r = rng(dtype.length * 13);
    for (let k = 0; k < 25; k++) {
      const ndim = 1 + Math.floor(r() * 3);
      const shape = Array.from({ length: ndim }, () => 1 + Math.floor(r() * 7));
      const chunks = shape.map((n) => randomAxisChunks(n, r));
      const axis = Math.floor(r() * ndim) - (r() < 0.5 ? ndim : 0);
      const dense = randomDense(shape, dtype, k + 1);
      const y = cumsum(fromArray(dense, { chunks }), { axis });
      expect(y.dtype).toBe(out);
      expect(y.chunks).toEqual(chunks);
      const ax = (axis + ndim) % ndim;
      const ref = denseCumsum(dense, ax, out);
      expectArray(
        await compute(y),
        { shape: ref.shape, data: ref.data },
        out === 'float32' ? 1e-5 : 1e-9,
      );
    }
  });
});

describe('cumsum', () => {
  test('1-d arrays default to axis 0', async () => {
    const y = cumsum(fromArray([1, 2, 3, 4, 5], { chunks: 2 }));
    expect((await compute(y)).toNested()).toEqual([1, 3, 6, 10, 15]);
  });

  test('the dtype option casts each element first', async () => {
    const dense = new NDArray(new Float64Array([0.5, 1.5, -2.7, 3.9]), [4], 'float64');
    const y = cumsum(fromArray(dense, { chunks: 1 }), { dtype: 'int32' });
    expect(y.dtype).toBe('int32');
    expect((await compute(y)).toNested()).toEqual([0, 1, -1, 2]);
  });

  test('int32 sums pass 2^31 in int64; with dtype int32 they wrap across blocks', async () => {
    const x = fromArray(new Int32Array([2 ** 31 - 1, 1, 1]), { chunks: 1 });
    const [y, w] = await compute(cumsum(x), cumsum(x, { dtype: 'int32' }));
    expect(y.toNested()).toEqual([2n ** 31n - 1n, 2n ** 31n, 2n ** 31n + 1n]);
    expect(w.toNested()).toEqual([2 ** 31 - 1, -(2 ** 31), -(2 ** 31) + 1]);
  });

  test('the carry chain: n scans, n-1 totals, n-1 carries, n adds', () => {
    const y = cumsum(fromArray(randomDense([8, 3]), { chunks: [2, 3] }), { axis: 0 });
    const table = materializeTasks([y.layer]);
    const c: Record<string, number> = {};
    for (let t = 0; t < table.count; t++) {
      if (table.isConstant[t]) continue;
      const op = table.layers[table.layerOf[t]!]!.op;
      c[op] = (c[op] ?? 0) + 1;
    }
    expect(c).toMatchObject({
      'cumsum-block': 4,
      'cumsum-total': 3,
      'cumsum-carry': 3,
      cumsum: 4,
    });
  });

  test('one block along the axis is just the per-block scan', () => {
    const y = cumsum(fromArray(randomDense([4, 6]), { chunks: [2, 6] }), { axis: 1 });
    expect(y.layer.op).toBe('cumsum-block');
  });

  test('unknown chunk sizes along the axis', async () => {
    const dense = randomDense([9, 2], 'float64', 4);
    const known = fromArray(dense, { chunks: [[3, 2, 4], [2]] });
    const unknown = withChunks(known, [[null, null, null], [2]]);
    const y = cumsum(unknown, { axis: 0 });
    expect(y.chunks).toEqual([[null, null, null], [2]]);
    expectArray(await compute(y), denseCumsum(dense, 0, 'float64'));
  });

  test.each([
    [[3, 3], {}, 'ValueError', /^cumsum: axis is required for a 2-d array/],
    [[3], { axis: 1 }, 'ValueError', /^cumsum: axis 1 is out of bounds/],
    [[], {}, 'ShapeError', /^cumsum: x must have at least one axis/],
    [[3], { dtype: 'complex' }, 'DTypeError', /^cumsum: unknown dtype "complex"/],
  ] as const)('cumsum of shape %j with %j is a %s', (shape, opts, tag, text) => {
    const x = fromArray(randomDense([...shape]));
    try {
      cumsum(x, opts as { axis?: number });
      throw new Error(`expected a ${tag}`);
    } catch (e) {
      expect(isTesseraError(e, tag), String(e)).toBe(true);
      expect((e as Error).message).toMatch(text);
    }
  });
});
