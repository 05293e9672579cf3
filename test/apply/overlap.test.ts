// overlap, trimOverlap and mapOverlap against a dense reference written here from np.pad's
// modes (applied one axis after another, as Dask pads), on random shapes, chunkings, depths
// and boundaries; tasks read only neighbour blocks; rechunk warnings; errors.

import fc from 'fast-check';
import { afterAll, describe, expect, test, vi } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import { cStrides, shapeSize } from '../../src/array/ndarray.ts';
import { materializeTasks, unravel } from '../../src/graph/materialize.ts';
import {
  arange,
  type Boundary,
  compute,
  fromArray,
  mapOverlap,
  type NDArray,
  overlap,
  reshape,
  shutdown,
  trimOverlap,
} from '../../src/index.ts';
import { expectThrow } from '../helpers/expect-throw.ts';
import { arbShapeAndChunks, expectArray, randomDense, withChunks } from '../helpers/reference.ts';

afterAll(() => shutdown());
const SYNC = { scheduler: 'sync' } as const;

type Dense = { shape: number[]; data: Float64Array };

/** np.pad of one axis by (before, after): symmetric, wrap, edge or constant. */
function padAxis(x: Dense, ax: number, before: number, after: number, mode: Boundary): Dense {
  if (mode === 'none') return x;
  const n = x.shape[ax]!;
  const shape = x.shape.map((s, i) => (i === ax ? s + before + after : s));
  const out = new Float64Array(shapeSize(shape));
  const inSt = cStrides(x.shape);
  for (let f = 0; f < out.length; f++) {
    const idx = unravel(f, shape);
    let g = idx[ax]! - before;
    if (g < 0 || g >= n) {
      if (typeof mode === 'number') {
        out[f] = mode;
        continue;
      }
      if (mode === 'periodic') g = ((g % n) + n) % n;
      else if (mode === 'nearest') g = g < 0 ? 0 : n - 1;
      else g = g < 0 ? -1 - g : 2 * n - 1 - g; // symmetric: the edge repeated
    }
    idx[ax] = g;
    out[f] = x.data[idx.reduce((s, v, i) => s + v * inSt[i]!, 0)]!;
  }
  return { shape, data: out };
}

/** The overlapped array: each block's window of the padded array, laid end to end. */
function referenceOverlap(
  x: Dense,
  chunks: readonly number[][],
  depth: readonly [number, number][],
  bounds: readonly Boundary[],
): Dense {
  let padded = x;
  bounds.forEach((b, ax) => {
    padded = padAxis(padded, ax, depth[ax]![0], depth[ax]![1], b);
  });
  const maps = chunks.map((c, ax) => {
    const none = bounds[ax] === 'none';
    const shift = none ? 0 : depth[ax]![0];
    const out: number[] = [];
    let off = 0;
    c.forEach((size, k) => {
      const lo = off - (none && k === 0 ? 0 : depth[ax]![0]);
      const hi = off + size + (none && k === c.length - 1 ? 0 : depth[ax]![1]);
      for (let g = lo; g < hi; g++) out.push(g + shift);
      off += size;
    });
    return out;
  });
  const shape = maps.map((m) => m.length);
  const st = cStrides(padded.shape);
  const data = new Float64Array(shapeSize(shape));
  for (let f = 0; f < data.length; f++) {
    const idx = unravel(f, shape);
    data[f] = padded.data[idx.reduce((s, v, i) => s + maps[i]![v]! * st[i]!, 0)]!;
  }
  return { shape, data };
}

const BOUNDS: Boundary[] = ['reflect', 'periodic', 'nearest', 'none', 0, -7.5];

/** A case: shape, chunks, and per axis a depth (within the axis) and a boundary. */
const arbCase = arbShapeAndChunks(3, 8).chain((c) =>
  fc.record({
    depth: fc.tuple(
      ...c.shape.map((n) =>
        fc.tuple(
          fc.integer({ min: 0, max: Math.min(n, 3) }),
          fc.integer({ min: 0, max: Math.min(n, 3) }),
        ),
      ),
    ),
    bounds: fc.tuple(...c.shape.map(() => fc.constantFrom(...BOUNDS))),
    c: fc.constant(c),
  }),
);

const asRecord = <T>(xs: readonly T[]): Record<number, T> => Object.fromEntries(xs.entries());

describe('overlap', () => {
  test('matches np.pad windows on random shapes, chunks, depths and boundaries', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    await fc.assert(
      fc.asyncProperty(arbCase, async ({ depth, bounds, c }) => {
        const dense = randomDense(c.shape, 'float64', c.seed);
        const x = fromArray(dense, { chunks: c.chunks });
        const d = asRecord(depth as [number, number][]);
        const b = asRecord(bounds);
        const y = overlap(x, d, b);
        // the input chunks after any rechunk to fit the depth: what trimming gives back
        const base = trimOverlap(y, d, b).chunks as number[][];
        base.forEach((cs, ax) => {
          const need = Math.max(...depth[ax]!);
          if (need > 0) expect(Math.min(...cs)).toBeGreaterThanOrEqual(need);
          expect(cs.reduce((s, v) => s + v, 0)).toBe(c.shape[ax]);
        });
        const ref = referenceOverlap(dense as Dense, base, depth as [number, number][], bounds);
        expectArray(await compute(y, SYNC), { dtype: 'float64', ...ref });
        const back = await compute(trimOverlap(y, d, b), SYNC);
        expectArray(back, dense);
      }),
      { numRuns: 60 },
    );
    warn.mockRestore();
  });

  test("matches Dask's overlap_internal example (8×8, chunks 4, depth {0: 2, 1: 1})", async () => {
    const x = reshape(arange(64, { chunks: 16 }), [8, 8]).rechunk(4);
    const y = overlap(x, { 0: 2, 1: 1 }, 'none');
    expect(y.chunks).toEqual([
      [6, 6],
      [5, 5],
    ]);
    const got = (await compute(y, SYNC)).toNested({ numbers: true }) as number[][];
    expect(got[0]).toEqual([0, 1, 2, 3, 4, 3, 4, 5, 6, 7]);
    expect(got.map((r) => r[0])).toEqual([0, 8, 16, 24, 32, 40, 16, 24, 32, 40, 48, 56]);
  });

  test('edge values of every boundary on a 1-d array', async () => {
    const x = arange(8, { chunks: 4, dtype: 'float64' });
    const cases: [Boundary, number[]][] = [
      ['reflect', [1, 0, 0, 1, 2, 3, 4, 5, 2, 3, 4, 5, 6, 7, 7, 6]],
      ['periodic', [6, 7, 0, 1, 2, 3, 4, 5, 2, 3, 4, 5, 6, 7, 0, 1]],
      ['nearest', [0, 0, 0, 1, 2, 3, 4, 5, 2, 3, 4, 5, 6, 7, 7, 7]],
      ['none', [0, 1, 2, 3, 4, 5, 2, 3, 4, 5, 6, 7]],
      [9, [9, 9, 0, 1, 2, 3, 4, 5, 2, 3, 4, 5, 6, 7, 9, 9]],
    ];
    for (const [b, want] of cases) {
      expect(Array.from((await compute(overlap(x, 2, b), SYNC)).data as NumberArray)).toEqual(want);
    }
  });

  test('each task reads at most 3^ndim neighbour blocks', () => {
    for (const b of ['periodic', 'reflect', 'nearest', 'none', 0] as const) {
      const x = fromArray(randomDense([12, 10, 9]), { chunks: [3, [2, 3, 5], 3] });
      const y = overlap(x, { 0: 2, 1: [1, 2], 2: 3 }, b);
      const table = materializeTasks([y.layer]);
      const grid = x.numBlocks;
      let tasks = 0;
      for (let t = 0; t < table.count; t++) {
        if (table.layers[table.layerOf[t]!]!.op !== 'overlap') continue;
        tasks++;
        const out = unravel(table.blockOf[t]!, grid);
        expect(table.depCount[t]).toBeLessThanOrEqual(27);
        for (let j = 0; j < table.depCount[t]!; j++) {
          const dep = table.deps[table.depStart[t]! + j]!;
          const src = unravel(table.blockOf[dep]!, grid);
          src.forEach((s, ax) => {
            const g = grid[ax]!;
            const dist = Math.min(Math.abs(s - out[ax]!), g - Math.abs(s - out[ax]!));
            expect(dist).toBeLessThanOrEqual(1);
          });
        }
      }
      expect(tasks).toBe(4 * 3 * 3);
    }
  });

  test('a depth of 0 everywhere is the array itself', () => {
    const x = fromArray(randomDense([4, 5]), { chunks: 2 });
    expect(overlap(x, 0, 'reflect')).toBe(x);
    expect(trimOverlap(x, { 1: 0 })).toBe(x);
  });

  test('keeps the dtype (int16 with a constant, bool with nearest)', async () => {
    const i = fromArray(new Int16Array([1, -2, 3, 4, 5]), { chunks: 2 });
    const yi = await compute(overlap(i, 1, -3), SYNC);
    expect(yi.dtype).toBe('int16');
    expect(Array.from(yi.data as NumberArray)).toEqual([-3, 1, -2, 3, -2, 3, 4, 5, 4, 5, -3]);
    const b = fromArray(new Uint8Array([1, 0, 0]), { chunks: 2, dtype: 'bool' });
    const yb = await compute(overlap(b, 1, 'nearest'), SYNC);
    expect(yb.dtype).toBe('bool');
    expect(Array.from(yb.data as NumberArray)).toEqual([1, 1, 0, 0, 0, 0, 0]);
  });

  test('a depth above the smallest chunk rechunks, with a PerformanceWarning naming sizes', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const x = fromArray(randomDense([6]), { chunks: [[1, 1, 3, 1]] });
    const y = overlap(x, 2, 'periodic');
    expect(y.chunks).toEqual([[6, 8]]);
    expect(warn).toHaveBeenCalledTimes(1);
    const [message, opts] = warn.mock.calls[0]!;
    expect(message).toContain('overlap: depth 2 on axis 0');
    expect(message).toContain('(1, 1, 3, 1) to (2, 4)');
    expect(opts).toMatchObject({ type: 'PerformanceWarning' });
    warn.mockRestore();
  });

  test.each([
    [
      () => overlap(arange(5, { chunks: 2 }), 6),
      'ValueError',
      ['overlap:', '(6, 6)', 'axis 0', '(5)'],
    ],
    [() => overlap(arange(5), { 0: -1 }), 'ValueError', ['overlap:', 'depth -1']],
    [() => overlap(arange(5), 1.5), 'ValueError', ['overlap:', 'depth 1.5']],
    [() => overlap(arange(5), { 3: 1 }), 'ValueError', ['overlap:', "axis '3'"]],
    [() => overlap(arange(5), [1, 1]), 'ValueError', ['overlap:', 'one entry for each of the 1']],
    [
      () => overlap(arange(5), 1, 'wrap' as Boundary),
      'ValueError',
      ['overlap:', "boundary 'wrap'", "'reflect'"],
    ],
    [
      () => overlap(withChunks(arange(6, { chunks: 3 }), [[3, null]]), 1),
      'ChunkError',
      ['overlap:', 'axis 0', 'computeChunkSizes'],
    ],
    [
      () => trimOverlap(arange(6, { chunks: 3 }), 2, 'reflect'),
      'ValueError',
      ['trimOverlap:', 'block 0', '3 elements'],
    ],
    [
      () => mapOverlap((b: NDArray) => b, arange(4), { depth: 9, dtype: 'float64' }),
      'ValueError',
      ['mapOverlap:', 'larger than the axis'],
    ],
  ])('error %#', (f, tag, fragments) => {
    expectThrow(f, tag, fragments);
  });

  test('unknown sizes on an axis that is not overlapped are fine', async () => {
    const x = withChunks(fromArray(randomDense([4, 6]), { chunks: [2, 3] }), [
      [2, 2],
      [null, null],
    ]);
    const y = overlap(x, { 0: 1 }, 'nearest');
    expect(y.chunks).toEqual([
      [4, 4],
      [null, null],
    ]);
    expect((await compute(trimOverlap(y, { 0: 1 }, 'nearest'), SYNC)).shape).toEqual([4, 6]);
  });
});

/** A 3-point sum along axis 0 of a 2-d block (shipped to threads by its source). */
function sum3(b: NDArray): Float64Array {
  const [r, c] = b.shape as [number, number];
  const out = new Float64Array(r * c);
  for (let i = 0; i < r; i++) {
    for (let j = 0; j < c; j++) {
      let s = 0;
      for (let k = i - 1; k <= i + 1; k++)
        if (k >= 0 && k < r) s += (b.data as NumberArray)[k * c + j]!;
      out[i * c + j] = s;
    }
  }
  return out;
}

/** The same 3-point sum on the whole dense array, with a boundary value past the ends. */
function denseSum3(x: NDArray, edge: (i: number, j: number) => number): Float64Array {
  const [r, c] = x.shape as [number, number];
  const v = (i: number, j: number) =>
    i < 0 || i >= r ? edge(i, j) : (x.data[i * c + j] as number);
  const out = new Float64Array(r * c);
  for (let i = 0; i < r; i++) {
    for (let j = 0; j < c; j++) out[i * c + j] = v(i - 1, j) + v(i, j) + v(i + 1, j);
  }
  return out;
}

describe('mapOverlap', () => {
  test('a stencil sees across chunk boundaries (random chunkings, threads)', async () => {
    await fc.assert(
      fc.asyncProperty(arbShapeAndChunks(2, 9), async (c) => {
        if (c.shape.length !== 2) return;
        const dense = randomDense(c.shape, 'float64', c.seed);
        const x = fromArray(dense, { chunks: c.chunks });
        const [r, cols] = c.shape as [number, number];
        const edges: [Boundary, (i: number, j: number) => number][] = [
          [0, () => 0],
          ['nearest', (i, j) => (dense.data as NumberArray)[(i < 0 ? 0 : r - 1) * cols + j]!],
          ['periodic', (i, j) => (dense.data as NumberArray)[(i < 0 ? r - 1 : 0) * cols + j]!],
        ];
        const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
        for (const [b, edge] of edges) {
          const y = mapOverlap(sum3, x, { depth: { 0: 1 }, boundary: { 0: b }, dtype: 'float64' });
          expect(y.shape).toEqual(c.shape);
          expectArray(await compute(y, SYNC), { shape: c.shape, data: denseSum3(dense, edge) });
        }
        warn.mockRestore();
      }),
      { numRuns: 25 },
    );
    const x = fromArray(randomDense([10, 3]), { chunks: [4, 2] });
    const y = mapOverlap(sum3, x, { depth: { 0: 1 }, boundary: 'none', dtype: 'float64' });
    const want = denseSum3(await compute(x, SYNC), () => 0);
    expectArray(await compute(y, { scheduler: 'threads', workers: 2 }), {
      shape: [10, 3],
      data: want,
    });
  });

  test('trim: false keeps the extended blocks; kwargs reach the kernel', async () => {
    const x = arange(6, { chunks: 3, dtype: 'float64' });
    const y = mapOverlap(
      (b: NDArray, k: { add: number }) =>
        Float64Array.from(b.data as NumberArray, (v) => v + k.add),
      x,
      { depth: 1, boundary: 'reflect', trim: false, dtype: 'float64', kwargs: { add: 10 } },
    );
    expect(y.chunks).toEqual([[5, 5]]);
    expect(Array.from((await compute(y, SYNC)).data as NumberArray)).toEqual([
      10, 10, 11, 12, 13, 12, 13, 14, 15, 15,
    ]);
  });
});
