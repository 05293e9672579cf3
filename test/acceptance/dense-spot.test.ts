// Acceptance (issue 2): spot checks across op families on random shapes and chunkings —
// including 0-d arrays and empty axes — for values, dtype, shape and chunks of the results.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import type { Chunks } from '../../src/chunking/types.ts';
import type { LazyArray, NDArray } from '../../src/index.ts';
import * as t from '../../src/index.ts';
import { denseReduce, folds } from '../apply/reduction-reference.ts';
import { denseFlip, denseFrom, denseTranspose } from '../helpers/layout-reference.ts';
import { at, expectArray, randomAxisChunks, randomDense, rng } from '../helpers/reference.ts';

const SYNC = { scheduler: 'sync' } as const;

/** Shapes of 0..3 axes, sizes 0..7 (empty axes included), with a random chunking. */
const arbCase = fc
  .record({
    shape: fc.array(fc.integer({ min: 0, max: 7 }), { minLength: 0, maxLength: 3 }),
    seed: fc.integer({ min: 1, max: 2 ** 30 }),
  })
  .map(({ shape, seed }) => {
    const r = rng(seed);
    const chunks = shape.map((n) => randomAxisChunks(n, r));
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
    const axes = shape.map((_, ax) => ax).filter(() => r() < 0.5);
    const perm = shape.map((_, ax) => ax).sort(() => r() - 0.5);
    return {
      shape,
      chunks,
      seed,
      axes,
      perm,
      keepdims: r() < 0.5,
      axis: pick(shape.map((_, ax) => ax)),
    };
  });

const lazyOf = (dense: NDArray, chunks: number[][]): LazyArray => t.fromArray(dense, { chunks });

const sumChunks = (c: Chunks): number[] =>
  c.map((a) => a.reduce((s: number, v) => s + (v ?? 0), 0));

describe('random shapes and chunkings, 0-d and empty arrays included', () => {
  test('elementwise: values, dtype, same chunks', async () => {
    await fc.assert(
      fc.asyncProperty(arbCase, async ({ shape, chunks, seed }) => {
        const dense = randomDense(shape, 'float64', seed);
        const x = lazyOf(dense, chunks);
        const y = x.abs().sqrt().mul(2).sub(x);
        const z = x.astype('int16').add(3);
        const b = x.greater(0).logicalAnd(x.less(5));
        for (const r of [y, z, b]) expect(r.chunks).toEqual(x.chunks);
        expect([y.dtype, z.dtype, b.dtype]).toEqual(['float64', 'int16', 'bool']);
        const [ry, rz, rb] = (await t.compute(y, z, b, SYNC)) as NDArray[];
        const d = Array.from(dense.data as NumberArray);
        expectArray(ry!, {
          dtype: 'float64',
          shape,
          data: d.map((v) => Math.sqrt(Math.abs(v)) * 2 - v),
        });
        expectArray(rz!, { dtype: 'int16', shape, data: d.map((v) => Math.trunc(v) + 3) });
        expectArray(rb!, { dtype: 'bool', shape, data: d.map((v) => (v > 0 && v < 5 ? 1 : 0)) });
      }),
      { numRuns: 60 },
    );
  });

  test('broadcasting against a differently chunked last-axis row', async () => {
    await fc.assert(
      fc.asyncProperty(arbCase, async ({ shape, chunks, seed }) => {
        if (shape.length === 0) return;
        const last = shape[shape.length - 1]!;
        const dense = randomDense(shape, 'float32', seed);
        const row = randomDense([last], 'float32', seed + 1);
        const r = rng(seed + 2);
        const y = lazyOf(dense, chunks).add(lazyOf(row, [randomAxisChunks(last, r)]));
        expect(y.dtype).toBe('float32');
        expect(sumChunks(y.chunks)).toEqual(shape);
        expect(y.chunks.slice(0, -1)).toEqual(chunks.slice(0, -1));
        const out = await y.compute(SYNC);
        const ref = denseFrom(
          shape,
          'float32',
          (idx) => at(dense, idx) + (row.data as NumberArray)[idx[idx.length - 1]!]!,
        );
        expectArray(out, ref);
      }),
      { numRuns: 60 },
    );
  });

  test('reductions over random axes: values, dtype, shape, chunks of kept axes', async () => {
    await fc.assert(
      fc.asyncProperty(arbCase, async ({ shape, chunks, seed, axes, keepdims }) => {
        const dense = randomDense(shape, 'int16', seed);
        const x = lazyOf(dense, chunks);
        const opts = { axis: axes, keepdims };
        const s = x.sum(opts);
        const m = x.mean(opts);
        const expectChunks = chunks.flatMap((c, ax) =>
          axes.includes(ax) ? (keepdims ? [[1]] : []) : [c],
        );
        expect(s.chunks).toEqual(expectChunks);
        expect(m.chunks).toEqual(expectChunks);
        expect([s.dtype, m.dtype]).toEqual(['int64', 'float64']);
        const [rs, rm] = (await t.compute(s, m, SYNC)) as NDArray[];
        expectArray(rs!, denseReduce(dense, axes, keepdims, 'int64', folds.sum));
        expectArray(rm!, denseReduce(dense, axes, keepdims, 'float64', folds.mean));
        // max/std have no identity: an empty reduction raises, unless the output is empty
        // too (then tessera gives an empty result where NumPy 1.24 still raises)
        const size = (axs: number[]) => axs.reduce((n, ax) => n * shape[ax]!, 1);
        const kept = shape.map((_, ax) => ax).filter((ax) => !axes.includes(ax));
        if (size(axes) > 0 || size(kept) === 0) {
          const [rmx, rsd] = (await t.compute(x.max(opts), x.std(opts), SYNC)) as NDArray[];
          expectArray(rmx!, denseReduce(dense, axes, keepdims, 'int16', folds.max));
          expectArray(
            rsd!,
            denseReduce(dense, axes, keepdims, 'float64', (v) => Math.sqrt(folds.variance(0)(v))),
          );
        } else {
          expect(() => x.max(opts)).toThrow(/^max: zero-size array/);
        }
      }),
      { numRuns: 60 },
    );
  });

  test('sum of everything is 0-d (shape [], chunks [])', async () => {
    await fc.assert(
      fc.asyncProperty(arbCase, async ({ shape, chunks, seed }) => {
        const dense = randomDense(shape, 'float64', seed);
        const s = lazyOf(dense, chunks).sum();
        expect(s.shape).toEqual([]);
        expect(s.chunks).toEqual([]);
        const r = await s.compute(SYNC);
        expect(r.shape).toEqual([]);
        expect(r.data[0]).toBeCloseTo(
          Array.from(dense.data as NumberArray).reduce((a, b) => a + b, 0),
          9,
        );
      }),
      { numRuns: 40 },
    );
  });

  test('manipulation: transpose, flip, cumsum, expandDims keep values and move chunks', async () => {
    await fc.assert(
      fc.asyncProperty(arbCase, async ({ shape, chunks, seed, axes, perm, axis }) => {
        const dense = randomDense(shape, 'int32', seed);
        const x = lazyOf(dense, chunks);
        const tr = x.permuteDims(perm);
        const fl = x.flip({ axis: axes });
        const ex = x.expandDims({ axis: 0 });
        expect(tr.chunks).toEqual(perm.map((a) => chunks[a]));
        expect(fl.chunks).toEqual(
          chunks.map((c, ax) => (axes.includes(ax) ? [...c].reverse() : c)),
        );
        expect(ex.chunks).toEqual([[1], ...chunks]);
        const [rt, rf, re] = (await t.compute(tr, fl, ex, SYNC)) as NDArray[];
        expectArray(rt!, denseTranspose(dense, perm));
        expectArray(rf!, denseFlip(dense, axes));
        expectArray(re!, { dtype: 'int32', shape: [1, ...shape], data: dense.data });
        if (shape.length === 0) return;
        const cs = x.cumsum({ axis });
        expect(cs.chunks).toEqual(chunks);
        expect(cs.dtype).toBe('int64');
        const rc = await cs.compute(SYNC);
        const ref = denseFrom(shape, 'int32', (idx) => {
          let s = 0;
          for (let i = 0; i <= idx[axis]!; i++)
            s += at(
              dense,
              idx.map((j, ax) => (ax === axis ? i : j)),
            );
          return s;
        });
        expectArray(rc, { shape: ref.shape, data: ref.data }); // int64 against int32 sums
      }),
      { numRuns: 60 },
    );
  });
});
