// Reduction kernels on single blocks: run layouts (the fast paths), every loop against a
// dense reference over any axes (fast-check), merges in any grouping, and the scan kernels.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { DType, NumberArray } from '../../../../src/array/dtype.ts';
import { NDArray } from '../../../../src/array/ndarray.ts';
import { argMerge, argPartial } from '../../../../src/backends/cpu-js/reduce/arg-reduce.ts';
import { aggregate, type ReduceParams } from '../../../../src/backends/cpu-js/reduce/reduce.ts';
import { monoidPartial } from '../../../../src/backends/cpu-js/reduce/reduce-monoid.ts';
import { runLayout } from '../../../../src/backends/cpu-js/reduce/reduce-runs.ts';
import { momentMerge, momentPartial } from '../../../../src/backends/cpu-js/reduce/reduce-stats.ts';
import { addCarry, cumsumBlock, lastSlice } from '../../../../src/backends/cpu-js/reduce/scan.ts';
import { denseReduce, type Fold, folds } from '../../../apply/reduction-reference.ts';
import { expectArray, randomDense } from '../../../helpers/reference.ts';

describe('runLayout', () => {
  test.each([
    // all axes of a contiguous block: one run, no odometer
    [[4, 5, 6], [0, 1, 2], { n: 120, reduced: true, outer: [] }],
    // last axis: rows fold to values
    [[4, 5], [1], { n: 5, reduced: true, outer: [{ size: 4, srcStride: 5, outStride: 1 }] }],
    // first axes: rows accumulate into one output row
    [
      [4, 5, 6],
      [0, 1],
      { n: 6, reduced: false, outer: [{ size: 20, srcStride: 6, outStride: 0 }] },
    ],
    // unit axes vanish and neighbours of the same kind merge
    [
      [3, 1, 2, 5],
      [0, 2],
      { n: 5, reduced: false, outer: [{ size: 6, srcStride: 5, outStride: 0 }] },
    ],
    [
      [2, 3, 4],
      [1],
      {
        n: 4,
        reduced: false,
        outer: [
          { size: 2, srcStride: 12, outStride: 4 },
          { size: 3, srcStride: 4, outStride: 0 },
        ],
      },
    ],
  ])('shape %j over axes %j', (shape, axes, want) => {
    expect(runLayout(shape, axes)).toMatchObject(want);
  });
});

const arbBlock = fc
  .record({
    shape: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 0, maxLength: 4 }),
    mask: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    seed: fc.integer({ min: 1, max: 1e6 }),
  })
  .map(({ shape, mask, seed }) => ({
    shape,
    axes: shape.flatMap((_, ax) => (mask[ax] ? [ax] : [])),
    seed,
  }));

const MONOIDS: [ReduceParams['op'], DType, DType, Fold][] = [
  ['sum', 'float64', 'float64', folds.sum],
  ['sum', 'int8', 'int32', folds.sum],
  ['prod', 'float32', 'float32', folds.prodFloat],
  ['prod', 'int16', 'int32', folds.prodInt32],
  ['mean', 'float64', 'float64', folds.mean],
  ['any', 'uint8', 'bool', folds.any],
  ['all', 'bool', 'bool', folds.all],
];

describe('one block, any axes', () => {
  test.each(MONOIDS)('%s of %s', (op, dtype, out, fold) => {
    fc.assert(
      fc.property(arbBlock, ({ shape, axes, seed }) => {
        const x = randomDense(shape, dtype, seed);
        const p = { op, axes, dtype: out } as ReduceParams;
        const got = aggregate([monoidPartial(x, p as never)], { ...p, keepdims: false });
        const tol = out === 'float32' ? 1e-5 : 1e-9;
        expectArray(got, denseReduce(x, axes, false, out, fold), tol);
      }),
      { numRuns: 60 },
    );
  });

  test.each([
    ['min', folds.min],
    ['max', folds.max],
  ] as const)('%s of non-empty blocks', (op, fold) => {
    fc.assert(
      fc.property(arbBlock, ({ shape, axes, seed }) => {
        const x = randomDense(
          shape.map((n) => Math.max(n, 1)),
          'int32',
          seed,
        );
        const p = { op, axes, dtype: 'int32' } as const;
        const got = aggregate([monoidPartial(x, p)], { ...p, keepdims: true });
        expectArray(got, denseReduce(x, axes, true, 'int32', fold));
      }),
      { numRuns: 60 },
    );
  });
});

// tall blocks reach the four-rows-at-a-time loops of reductions along leading axes
const arbTall = fc
  .record({
    rows: fc.integer({ min: 0, max: 23 }),
    rest: fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 2 }),
    lead: fc.integer({ min: 1, max: 2 }),
    seed: fc.integer({ min: 1, max: 1e6 }),
  })
  .map(({ rows, rest, lead, seed }) => {
    const shape = [rows, ...rest];
    return { shape, axes: shape.slice(0, Math.min(lead, shape.length - 1)).map((_, i) => i), seed };
  });

describe('tall blocks reduced along leading axes', () => {
  test.each<[ReduceParams['op'], DType, DType, Fold]>([
    ['sum', 'float64', 'float64', folds.sum],
    ['sum', 'float32', 'float32', folds.sum],
    ['mean', 'int32', 'float64', folds.mean],
  ])('%s of %s', (op, dtype, out, fold) => {
    fc.assert(
      fc.property(arbTall, ({ shape, axes, seed }) => {
        const x = randomDense(shape, dtype, seed);
        const p = { op, axes, dtype: out } as ReduceParams;
        const got = aggregate([monoidPartial(x, p as never)], { ...p, keepdims: false });
        expectArray(got, denseReduce(x, axes, false, out, fold), out === 'float32' ? 1e-5 : 1e-9);
      }),
      { numRuns: 60 },
    );
  });

  test('moments of tall blocks equal a two-pass dense reference', () => {
    fc.assert(
      fc.property(arbTall, ({ shape, axes, seed }) => {
        if (shape[0] === 0) return; // the mean of nothing is NaN in the reference, 0 here
        const x = randomDense(shape, 'float64', seed);
        const p = { op: 'var', axes, correction: 0, sqrt: false, dtype: 'float64' } as const;
        const [, mean, m2] = momentPartial(x, p) as NDArray[];
        const wantMean = denseReduce(x, axes, true, 'float64', folds.mean);
        expectArray(mean!, wantMean, 1e-9);
        // M2 = Σ (x - mean)²: the mean is broadcast back over the reduced axes
        const inner =
          x.size /
          Math.max(
            1,
            shape.slice(0, axes.length).reduce((a, b) => a * b, 1),
          );
        const want = new Float64Array(inner);
        for (let i = 0; i < x.size; i++) {
          const d = (x.data as NumberArray)[i]! - (wantMean.data as NumberArray)[i % inner]!;
          want[i % inner] = want[i % inner]! + d * d;
        }
        expectArray(m2!, new NDArray(want, m2!.shape, 'float64'), 1e-9);
      }),
      { numRuns: 60 },
    );
  });
});

/** Split a 1-d array into pieces at `cuts` and merge their partials in one group. */
function pieces(x: Float64Array, cuts: number[]): NDArray[] {
  const edges = [0, ...cuts.filter((c) => c > 0 && c < x.length).sort((a, b) => a - b), x.length];
  return edges
    .slice(1)
    .map((e, i) => new NDArray(x.slice(edges[i]!, e), [e - edges[i]!], 'float64'));
}

describe('merges', () => {
  test('moments merged from any split equal the one-block moments', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e3, max: 1e3, noNaN: true }), { minLength: 1, maxLength: 40 }),
        fc.array(fc.nat(40), { maxLength: 5 }),
        (values, cuts) => {
          const x = Float64Array.from(values, (v) => v + 1e6);
          const p = { op: 'var', axes: [0], correction: 0, sqrt: false, dtype: 'float64' } as const;
          const whole = momentPartial(new NDArray(x, [x.length], 'float64'), p) as NDArray[];
          const merged = momentMerge(pieces(x, cuts).map((b) => momentPartial(b, p))) as NDArray[];
          expect(merged[0]!.data[0]).toBe(x.length);
          expect(merged[1]!.data[0]).toBeCloseTo((whole[1]!.data as NumberArray)[0]!, 6);
          const m2 = whole[2]!.data[0] as number;
          expect(Math.abs((merged[2]!.data as NumberArray)[0]! - m2)).toBeLessThanOrEqual(
            1e-9 * Math.max(1, m2) * x.length,
          );
        },
      ),
      { numRuns: 100 },
    );
  });

  test('relative arg indices shift by the counts before them; ties keep the first', () => {
    const x = Float64Array.from([2, 0, 5, 0, 7, 0, 7]);
    for (const cuts of [[], [1], [2, 4], [1, 3, 5], [6]]) {
      for (const op of ['argmin', 'argmax'] as const) {
        const p = { op, axes: [0] };
        const merged = argMerge(
          pieces(x, cuts).map((b) => argPartial(b, p)),
          p,
        ) as NDArray[];
        expect(merged[1]!.data[0], `${op} cut at ${cuts}`).toBe(op === 'argmin' ? 1 : 4);
      }
    }
  });
});

describe('scan kernels', () => {
  test.each<[DType, 'sum' | 'prod']>([
    ['float64', 'sum'],
    ['float64', 'prod'],
    ['float32', 'sum'],
    ['int32', 'sum'],
  ])('cumsumBlock of %s (%s) along every axis equals a running dense scan', (dtype, op) => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 3 }),
        fc.nat(),
        fc.integer({ min: 1, max: 1e6 }),
        (shape, a, seed) => {
          const axis = a % shape.length;
          const x = randomDense(shape, dtype, seed);
          const post = shape.slice(axis + 1).reduce((p, v) => p * v, 1);
          const n = shape[axis]!;
          const want = new Float64Array(x.size);
          for (let i = 0; i < x.size; i++) {
            const k = Math.floor(i / post) % n;
            const v = Number(x.data[i]!);
            want[i] = k === 0 ? v : op === 'prod' ? want[i - post]! * v : want[i - post]! + v;
          }
          const got = cumsumBlock(x, axis, dtype === 'float32' ? 'float32' : 'float64', op);
          expectArray(
            new NDArray(Float64Array.from(got.data as NumberArray), got.shape, 'float64'),
            new NDArray(want, shape, 'float64'),
            dtype === 'float32' ? 1e-5 : 1e-9,
          );
          const carry = lastSlice(got, axis);
          const added = addCarry(got, carry, axis, op);
          for (let i = 0; i < x.size; i++) {
            const c = carry.data[Math.floor(i / (post * n)) * post + (i % post)] as number;
            const w =
              op === 'prod' ? (got.data as NumberArray)[i]! * c : (got.data as NumberArray)[i]! + c;
            expect(added.data[i]).toBeCloseTo(dtype === 'float32' ? Math.fround(w) : w, 9);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  test('cumsumBlock, lastSlice and addCarry along the middle axis', () => {
    const x = new NDArray(
      Float64Array.from({ length: 12 }, (_, i) => i),
      [2, 3, 2],
      'float64',
    );
    const s = cumsumBlock(x, 1, 'float64');
    expect(s.toNested()).toEqual([
      [
        [0, 1],
        [2, 4],
        [6, 9],
      ],
      [
        [6, 7],
        [14, 16],
        [24, 27],
      ],
    ]);
    const last = lastSlice(s, 1);
    expect(last.shape).toEqual([2, 1, 2]);
    expect(last.toArray()).toEqual([6, 9, 24, 27]);
    expect(addCarry(s, last, 1).toArray().slice(0, 6)).toEqual([6, 10, 8, 13, 12, 18]);
  });
});
