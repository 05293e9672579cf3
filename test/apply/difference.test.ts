// diff and gradient against dense references written here from NumPy's definitions
// (np.diff n times; np.gradient with unit spacing, edge_order 1), on random shapes,
// chunkings and axes; dtypes; graph shape; errors.

import fc from 'fast-check';
import { afterAll, describe, expect, test, vi } from 'vitest';
import type { NumberArray, TypedArray } from '../../src/array/dtype.ts';
import { cStrides, shapeSize } from '../../src/array/ndarray.ts';
import { materializeTasks, unravel } from '../../src/graph/materialize.ts';
import { compute, diff, fromArray, gradient, type NDArray, shutdown } from '../../src/index.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { arbShapeAndChunks, expectArray, randomDense, withChunks } from '../helpers/reference.ts';

afterAll(() => shutdown());
const SYNC = { scheduler: 'sync' } as const;

type Dense = { shape: number[]; data: ArrayLike<number> | TypedArray };

/** out[..., i, ...] = f(line, i) along `axis`, for an output of length m along it. */
function alongAxis(
  x: Dense,
  axis: number,
  m: number,
  f: (get: (i: number) => number, i: number) => number,
): { shape: number[]; data: Float64Array } {
  const shape = x.shape.map((s, ax) => (ax === axis ? m : s));
  const st = cStrides(x.shape);
  const data = new Float64Array(shapeSize(shape));
  for (let o = 0; o < data.length; o++) {
    const idx = unravel(o, shape);
    const get = (i: number) =>
      x.data[idx.reduce((s, v, ax) => s + (ax === axis ? i : v) * st[ax]!, 0)] as number;
    data[o] = f(get, idx[axis]!);
  }
  return { shape, data };
}

function refDiff(x: Dense, axis: number, n: number): Dense {
  let y: Dense = x;
  for (let k = 0; k < n; k++) {
    const len = y.shape[axis]!;
    y = alongAxis(y, axis, Math.max(0, len - 1), (get, i) => get(i + 1) - get(i));
  }
  return y;
}

function refGradient(x: Dense, axis: number): Dense {
  const n = x.shape[axis]!;
  return alongAxis(x, axis, n, (get, i) => {
    if (i === 0) return get(1) - get(0);
    if (i === n - 1) return get(n - 1) - get(n - 2);
    return (get(i + 1) - get(i - 1)) / 2;
  });
}

describe('diff', () => {
  test('matches np.diff on random shapes, chunkings, axes and n', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    await fc.assert(
      fc.asyncProperty(
        arbShapeAndChunks(3, 9),
        fc.nat(2),
        fc.integer({ min: 1, max: 4 }),
        async (c, axisPick, n) => {
          const axis = axisPick % c.shape.length;
          const dense = randomDense(c.shape, 'float64', c.seed);
          const x = fromArray(dense, { chunks: c.chunks });
          const y = diff(x, { axis, n });
          const want = refDiff(dense, axis, n);
          expect(y.shape).toEqual(want.shape);
          expectArray(await compute(y, SYNC), { dtype: 'float64', ...want });
        },
      ),
      { numRuns: 60 },
    );
    warn.mockRestore();
  });

  test('default axis is the last; integers wrap as NumPy; bool is not-equal', async () => {
    const x = fromArray(new Uint8Array([1, 5, 2, 0, 9, 4]), { chunks: 2, shape: [2, 3] });
    const u = await compute(diff(x), SYNC);
    expect(u.dtype).toBe('uint8');
    expect(u.shape).toEqual([2, 2]);
    expect(Array.from(u.data as NumberArray)).toEqual([4, 253, 9, 251]);
    const b = fromArray(new Uint8Array([1, 1, 0, 1, 1]), { chunks: 2, dtype: 'bool' });
    const db = await compute(diff(b), SYNC);
    expect(db.dtype).toBe('bool');
    expect(Array.from(db.data as NumberArray)).toEqual([0, 1, 1, 0]);
  });

  test('n at least the axis length gives an empty axis; n = 0 is x', async () => {
    const x = fromArray(randomDense([3, 4]), { chunks: 2 });
    expect(diff(x, { axis: 0, n: 0 })).toBe(x);
    const y = diff(x, { axis: 0, n: 5 });
    expect(y.shape).toEqual([0, 4]);
    expect((await compute(y, SYNC)).shape).toEqual([0, 4]);
  });

  test('each block reads itself and the next block only', () => {
    const x = fromArray(randomDense([12, 6]), { chunks: [3, 3] });
    const table = materializeTasks([diff(x, { axis: 0 }).layer]);
    const overlapTasks = [...Array(table.count).keys()].filter(
      (t) => table.layers[table.layerOf[t]!]!.op === 'overlap',
    );
    expect(overlapTasks.length).toBe(8);
    expect(Math.max(...overlapTasks.map((t) => table.depCount[t]!))).toBe(2);
  });

  test.each([
    [() => diff(fromArray([1, 2]), { n: -1 }), 'ValueError', ['diff:', 'n -1']],
    [() => diff(fromArray([1, 2]), { axis: 2 }), 'ValueError', ['diff:', 'axis 2']],
    [
      () => diff(withChunks(fromArray([1, 2, 3, 4], { chunks: 2 }), [[2, null]])),
      'ChunkError',
      ['diff:', 'computeChunkSizes'],
    ],
  ])('error %#', (f, tag, fragments) => expectThrow(f, tag, fragments));
});

describe('gradient', () => {
  test('matches np.gradient on random shapes, chunkings and axes', async () => {
    await fc.assert(
      fc.asyncProperty(arbShapeAndChunks(3, 9), fc.nat(2), async (c, axisPick) => {
        const axis = axisPick % c.shape.length;
        if (c.shape[axis]! < 2) return;
        const dense = randomDense(c.shape, 'float64', c.seed);
        const x = fromArray(dense, { chunks: c.chunks });
        const y = gradient(x, { axis });
        expect(y.chunks).toEqual(x.chunks);
        expectArray(await compute(y, SYNC), { dtype: 'float64', ...refGradient(dense, axis) });
      }),
      { numRuns: 60 },
    );
  });

  test('every axis by default; ints give float64, float32 stays float32', async () => {
    const dense = randomDense([4, 5], 'int32', 3);
    const x = fromArray(dense, { chunks: [3, 2] });
    const gs = gradient(x);
    expect(gs.length).toBe(2);
    for (const [axis, g] of gs.entries()) {
      const got: NDArray = await compute(g, SYNC);
      expectArray(got, { dtype: 'float64', ...refGradient(dense, axis) });
    }
    const f = fromArray(new Float32Array([1, 2.5, 4, 8]), { chunks: 1 });
    const gf = await compute(gradient(f, { axis: -1 }), SYNC);
    expect(gf.dtype).toBe('float32');
    expect(Array.from(gf.data as NumberArray)).toEqual([1.5, 1.5, 2.75, 4]);
  });

  test.each([
    [
      () => gradient(fromArray([1]), { axis: 0 }),
      'ValueError',
      ['gradient:', 'axis 0', 'at least 2'],
    ],
    [
      () => gradient(fromArray(new Uint8Array([1, 0]), { dtype: 'bool' })),
      'DTypeError',
      ['gradient:', "'bool'"],
    ],
    [() => gradient(fromArray([1, 2]), { axis: [0, 0] }), 'ValueError', ['gradient:', 'repeated']],
  ])('error %#', (f, tag, fragments) => expectThrow(f, tag, fragments));
});
