// Fused view kernels against their unfused steps, bit for bit: 'view' and 'ew-view' equal
// slice + permute + 'ew'; 'ew-reduce' equals 'reduce-partial' of the materialized block,
// on random shapes, views (steps, permutations, broadcasts), expressions and reductions.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { DType, NumberArray } from '../../../../src/array/dtype.ts';
import { NDArray } from '../../../../src/array/ndarray.ts';
import { evaluateExpr } from '../../../../src/backends/cpu-js/elementwise/elementwise.ts';
import {
  ewReducePartial,
  forEachTile,
} from '../../../../src/backends/cpu-js/elementwise/ew-reduce.ts';
import {
  evaluateViews,
  type InputView,
} from '../../../../src/backends/cpu-js/elementwise/ew-view.ts';
import type { Expr } from '../../../../src/backends/cpu-js/elementwise/expr.ts';
import { permuteBlock } from '../../../../src/backends/cpu-js/layout/layout.ts';
import { sliceND } from '../../../../src/backends/cpu-js/layout/slice.ts';
import {
  type MonoidOp,
  monoidPartial,
} from '../../../../src/backends/cpu-js/reduce/reduce-monoid.ts';
import type { Chunk } from '../../../../src/kernels/types.ts';
import { randomDense } from '../../../helpers/reference.ts';

/** The block a view reads, copied out (the unfused path). */
function materialize(block: NDArray, view: InputView | null): NDArray {
  if (view === null) return block;
  const sel = sliceND(block, view);
  return view.axes ? permuteBlock(sel, view.axes) : sel;
}

/** Same dtype, shape and values: bit for bit, or within `rtol` for float sums whose order differs. */
function expectSame(a: Chunk, b: Chunk, rtol = 0): void {
  if (Array.isArray(a) || Array.isArray(b)) {
    expect(Array.isArray(a) && Array.isArray(b)).toBe(true);
    for (const [i, x] of (a as Chunk[]).entries()) expectSame(x, (b as Chunk[])[i]!, rtol);
    return;
  }
  expect(a.dtype).toBe(b.dtype);
  expect(a.shape).toEqual(b.shape);
  for (let i = 0; i < a.size; i++) {
    const x = a.data[i] as number;
    const y = b.data[i] as number;
    if (Object.is(x, y) || Math.abs(x - y) <= rtol * Math.max(1, Math.abs(y))) continue;
    expect(`${i}: ${x}`).toBe(`${i}: ${y}`);
  }
}

/** A view of a block of `outer` shape selecting `inner` (after permuting by `axes`). */
const arbCase = fc
  .record({
    inner: fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 3 }),
    big: fc.boolean(),
    pad: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 3, maxLength: 3 }),
    steps: fc.array(fc.constantFrom(1, 1, 2, -1), { minLength: 3, maxLength: 3 }),
    perm: fc.boolean(),
    second: fc.constantFrom('none', 'same', 'row'),
    expr: fc.integer({ min: 0, max: 3 }),
    dtype: fc.constantFrom<DType>('float64', 'float32', 'int32', 'uint8'),
    op: fc.constantFrom<MonoidOp>('sum', 'mean', 'prod', 'min', 'max', 'any', 'all'),
    axesMask: fc.integer({ min: 0, max: 7 }),
    seed: fc.integer({ min: 1, max: 1000 }),
  })
  .map((c) => {
    // some cases cross the 16,384-element tile and the row paths' thresholds
    const count = c.inner.map((n, i) => (c.big && i === 0 ? n * 60 : n));
    const nd = count.length;
    const step = c.steps.slice(0, nd);
    const outer = count.map((n, ax) => n * Math.abs(step[ax]!) + c.pad[ax]!);
    const start = count.map((_, ax) => (step[ax]! > 0 ? c.pad[ax]! : outer[ax]! - 1 - c.pad[ax]!));
    const axes = c.perm && nd > 1 ? count.map((_, i) => nd - 1 - i) : undefined;
    const view: InputView = { start, step, count, ...(axes ? { axes } : {}) };
    const shape = axes ? axes.map((a) => count[a]!) : count;
    const reduceAxes = shape.map((_, ax) => ax).filter((ax) => (c.axesMask >> ax) & 1);
    return { ...c, view, outer, shape, reduceAxes: reduceAxes.length ? reduceAxes : [0] };
  });

function exprOf(k: number, dtype: DType, two: boolean): Expr {
  const x: Expr = { in: 0 };
  const y: Expr = two ? { in: 1 } : { const: 3 };
  switch (k) {
    case 0:
      return x;
    case 1:
      return {
        op: 'add',
        args: [{ op: 'multiply', args: [x, { const: 2 }], dtype }, { const: 1 }],
        dtype,
      };
    case 2:
      return { op: 'subtract', args: [x, y], dtype };
    default:
      return { op: 'multiply', args: [{ op: 'add', args: [x, y], dtype }, x], dtype };
  }
}

function setup(c: ReturnType<typeof arbCase extends fc.Arbitrary<infer T> ? () => T : never>) {
  const a = randomDense(c.outer, c.dtype, c.seed);
  const inputs: NDArray[] = [a];
  const views: (InputView | null)[] = [c.view];
  if (c.second !== 'none') {
    // a second input: the same shape, or one row that broadcasts along the leading axes
    const shape = c.second === 'same' ? c.shape : [c.shape[c.shape.length - 1]!];
    inputs.push(randomDense(shape, c.dtype, c.seed + 1));
    views.push(null);
  }
  const expr = exprOf(c.expr, c.dtype, c.second !== 'none');
  const dtype = c.expr === 0 ? undefined : c.dtype;
  return { inputs, views, expr, dtype };
}

describe('fused view kernels equal their unfused steps', () => {
  test('ew-view: slice + permute + ew', () => {
    fc.assert(
      fc.property(arbCase, (c) => {
        const { inputs, views, expr, dtype } = setup(c);
        const fused = evaluateViews(inputs, { expr, ...(dtype ? { dtype } : {}), views });
        const blocks = inputs.map((b, k) => materialize(b, views[k]!));
        const plain = evaluateExpr(blocks, { expr, dtype: dtype ?? c.dtype });
        expectSame(fused, plain);
      }),
      { numRuns: 80 },
    );
  });

  // this compares the plumbing of every path: products of random floats are not exact, so a
  // permuted view may add them in another order (1e-12 relative); the order of fused sums
  // is pinned bit for bit below
  test('ew-reduce: reduce-partial of the evaluated block', () => {
    fc.assert(
      fc.property(arbCase, (c) => {
        const { inputs, views, expr, dtype } = setup(c);
        const reduce = {
          op: c.op,
          axes: c.reduceAxes,
          dtype: c.op === 'mean' ? 'float64' : c.dtype,
        } as const;
        const fused = ewReducePartial(inputs, { expr, ...(dtype ? { dtype } : {}), views, reduce });
        const blocks = inputs.map((b, k) => materialize(b, views[k]!));
        const plain = monoidPartial(
          evaluateExpr(blocks, { expr, dtype: dtype ?? c.dtype }),
          reduce,
        );
        expectSame(fused, plain, 1e-12);
      }),
      { numRuns: 150 },
    );
  });

  test.each([
    // long rows folded in four lanes across tiles; rows cut from one run; accumulate rows
    [
      [300, 70],
      [0, 1],
    ],
    [
      [5, 4099],
      [0, 1],
    ],
    [[40, 1000], [0]],
    [
      [7, 3, 1001],
      [0, 2],
    ],
    [[2, 9, 2000], [1]],
  ])('sum and prod of %j over %j: every path, bit for bit', (shape, axes) => {
    const x = randomDense(shape, 'float64', 7);
    const expr: Expr = {
      op: 'multiply',
      args: [{ in: 0 }, { const: 1.0000001 }],
      dtype: 'float64',
    };
    for (const op of ['sum', 'prod', 'max'] as const) {
      const reduce = { op, axes, dtype: 'float64' } as const;
      const fused = ewReducePartial([x], { expr, dtype: 'float64', views: [null], reduce });
      expectSame(fused, monoidPartial(evaluateExpr([x], { expr, dtype: 'float64' }), reduce));
    }
  });
});

test.each([
  // rows too short for the row loops (a transposed view): tiles cut runs at odd positions
  [
    [3, 6000],
    [0, 1],
  ],
  [
    [7, 3001],
    [0, 1],
  ],
  [[3, 6000], [0]],
  [[3, 6000], [1]],
])('short transposed rows of %j over %j go through tiles, bit for bit', (count, axes) => {
  const x = randomDense([count[0]!, 2 * count[1]!], 'float64', 3);
  const view: InputView = { start: [0, 1], step: [1, 2], count, axes: [1, 0] };
  // values near 1, so that long products neither vanish nor overflow
  const expr: Expr = {
    op: 'add',
    args: [{ op: 'multiply', args: [{ in: 0 }, { const: 0.001 }], dtype: 'float64' }, { const: 1 }],
    dtype: 'float64',
  };
  for (const op of ['sum', 'mean', 'prod', 'min'] as const) {
    const reduce = { op, axes, dtype: 'float64' } as const;
    const fused = ewReducePartial([x], { expr, dtype: 'float64', views: [view], reduce });
    const block = materialize(x, view);
    expectSame(fused, monoidPartial(evaluateExpr([block], { expr, dtype: 'float64' }), reduce));
  }
});

test.each([
  // a row that broadcasts along the leading axes cuts runs into rows (rows of one run)
  [[6, 5, 40], [0]],
  [
    [6, 5, 40],
    [0, 1],
  ],
  [[6, 5, 40], [1]],
  [[6, 5, 40], [2]],
  [
    [6, 5, 40],
    [0, 2],
  ],
])('x * row over %j, axes %j: rows cut from runs, bit for bit', (shape, axes) => {
  const x = randomDense(shape, 'float64', 11);
  const row = randomDense([shape[2]!], 'float64', 12);
  const expr: Expr = { op: 'multiply', args: [{ in: 0 }, { in: 1 }], dtype: 'float64' };
  for (const op of ['sum', 'mean'] as const) {
    const reduce = { op, axes, dtype: 'float64' } as const;
    const fused = ewReducePartial([x, row], {
      expr,
      dtype: 'float64',
      views: [null, null],
      reduce,
    });
    expectSame(fused, monoidPartial(evaluateExpr([x, row], { expr, dtype: 'float64' }), reduce));
  }
});

describe('fused sums of rows that continue one run', () => {
  // values whose sums round, so that the order of additions shows in the bits
  const x = new NDArray(
    Float64Array.from({ length: 12 * 30 }, (_, i) => Math.sin(i) / 3),
    [12, 30],
    'float64',
  );
  const view: InputView = { start: [1, 2], step: [1, 1], count: [10, 25] };
  const rowsOf = (r: number) =>
    Array.from({ length: 25 }, (_, c) => x.data[(1 + r) * 30 + 2 + c] as number);

  test('four rows at a time (a column of four first), then rows alone: a fixed order', () => {
    // the documented order, written out for 10 rows of 25 (one run of n = 250)
    const lane = [0, 0, 0, 0];
    for (const g of [0, 4]) {
      const rows = [0, 1, 2, 3].map((u) => rowsOf(g + u));
      for (let c = 0; c < 25; c++) {
        let t = 0;
        for (const row of rows) t += row[c]!;
        lane[c < 24 ? c & 3 : 0]! += t;
      }
    }
    for (const r of [8, 9]) {
      rowsOf(r).forEach((v, c) => {
        const j = r * 25 + c; // position in the run
        lane[j < 248 ? j & 3 : 0]! += v;
      });
    }
    const want = 0 + (lane[0]! + lane[1]! + (lane[2]! + lane[3]!));
    const reduce = { op: 'sum', axes: [0, 1], dtype: 'float64' } as const;
    const [got] = ewReducePartial([x], { expr: { in: 0 }, views: [view], reduce }) as NDArray[];
    expect(Object.is(got!.data[0], want)).toBe(true);
    // the unfused kernel adds in flat order: the same sum within rounding
    const [plain] = monoidPartial(materialize(x, view), reduce) as NDArray[];
    expect(got!.data[0]).toBeCloseTo((plain!.data as NumberArray)[0]!, 12);
  });
});

describe('forEachTile', () => {
  test.each([
    [[10], 4],
    [[3, 5], 4],
    [[3, 5], 100],
    [[2, 3, 7], 5],
    [[4, 1, 6], 3],
    [[], 4],
  ])('%j in tiles of %i: contiguous flat ranges covering the block in order', (shape, limit) => {
    let next = 0;
    forEachTile(shape, limit, (start, tile, flat, size) => {
      expect(flat).toBe(next);
      expect(size).toBeLessThanOrEqual(Math.max(limit, 1));
      expect(tile.reduce((a, b) => a * b, 1)).toBe(size);
      let s = 0;
      for (let ax = 0, acc = 1; ax < shape.length; ax++) {
        acc = shape.slice(ax + 1).reduce((a, b) => a * b, 1);
        s += start[ax]! * acc;
      }
      expect(s).toBe(flat);
      next += size;
    });
    expect(next).toBe(shape.reduce((a, b) => a * b, 1));
  });
});
