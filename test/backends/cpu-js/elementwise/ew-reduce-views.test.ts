// 'ew-reduce-views' against its unpacked steps, bit for bit: each partial by 'ew-reduce',
// combined in order by 'reduce-combine', on random views, operands and reductions; and
// packPartials refuses steps that do not share what it packs.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { NumberArray } from '../../../../src/array/dtype.ts';
import { NDArray } from '../../../../src/array/ndarray.ts';
import type { EwReduceParams } from '../../../../src/backends/cpu-js/elementwise/ew-reduce.ts';
import {
  type PartialStep,
  packPartials,
  type ReduceViewsShared,
} from '../../../../src/backends/cpu-js/elementwise/ew-reduce-views.ts';
import type { InputView } from '../../../../src/backends/cpu-js/elementwise/ew-view.ts';
import type { Expr } from '../../../../src/backends/cpu-js/elementwise/expr.ts';
import type { MonoidOp } from '../../../../src/backends/cpu-js/reduce/reduce-monoid.ts';
import { builtinKernels } from '../../../../src/backends/cpu-js/registry.ts';
import { createFnResolver } from '../../../../src/kernels/resolve.ts';
import { runTask } from '../../../../src/kernels/run-task.ts';
import type { Chunk } from '../../../../src/kernels/types.ts';

const resolver = createFnResolver({ inline: true });
const run = (kernel: string, inputs: Chunk[], params: unknown): Chunk =>
  runTask({ id: 0, key: 'k', kernel, params, inputs }, builtinKernels, resolver) as Chunk;

/** Values whose sums depend on the order they are added in. */
function block(rows: number, cols: number, seed: number): NDArray {
  const data = new Float64Array(rows * cols);
  for (let i = 0; i < data.length; i++) data[i] = Math.sin(i * 1.7 + seed) * 10 ** ((i % 7) - 3);
  return new NDArray(data, [rows, cols], 'float64');
}

function expectSame(a: Chunk, b: Chunk): void {
  if (Array.isArray(a) || Array.isArray(b)) {
    expect(Array.isArray(a) && Array.isArray(b)).toBe(true);
    for (const [i, x] of (a as Chunk[]).entries()) expectSame(x, (b as Chunk[])[i]!);
    return;
  }
  expect(a.shape).toEqual(b.shape);
  for (let i = 0; i < a.size; i++) expect(Object.is(a.data[i], b.data[i])).toBe(true);
}

const TWO: Expr = { op: 'add', args: [{ in: 0 }, { in: 1 }], dtype: 'float64' } as Expr;

const arbView = (rows: number, cols: number) =>
  fc
    .record({
      r0: fc.nat(rows - 1),
      c0: fc.nat(cols - 1),
      step: fc.constantFrom(1, 2),
      nr: fc.integer({ min: 1, max: 80 }),
      nc: fc.integer({ min: 1, max: 80 }),
    })
    .map(({ r0, c0, step, nr, nc }) => ({
      start: [r0, c0],
      step: [1, step],
      count: [Math.min(nr, rows - r0), Math.min(nc, Math.floor((cols - 1 - c0) / step) + 1)],
    }));

/** The packed kernel over `steps` equals running each step and combining (same order). */
function expectPackedLikeSteps(
  steps: Parameters<typeof packPartials>[0],
  inputs: Chunk[],
  shared: ReduceViewsShared,
): void {
  const packed = packPartials(steps, shared);
  expect(packed).toBeDefined();
  const parts = steps.map((s) =>
    run(
      'ew-reduce',
      s.inputs.map((i) => inputs[i]!),
      s.params,
    ),
  );
  expectSame(run('ew-reduce-views', inputs, packed), run('reduce-combine', parts, shared.combine));
}

describe('ew-reduce-views', () => {
  test('equals its partials by ew-reduce, then reduce-combine', () => {
    const [R, C] = [90, 130];
    const blocks = [block(R, C, 1), block(R, C, 2), block(R, C, 3)];
    fc.assert(
      fc.property(
        fc.constantFrom<MonoidOp>('sum', 'mean', 'max', 'prod'),
        fc.boolean(),
        fc.array(fc.tuple(arbView(R, C), fc.nat(2), fc.nat(2), fc.boolean()), {
          minLength: 1,
          maxLength: 6,
        }),
        (op, pair, specs) => {
          const reduce = { op, axes: [0, 1], dtype: 'float64' } as EwReduceParams['reduce'];
          const combine = { op, axes: [0, 1], dtype: 'float64' };
          const expr: Expr = pair ? TWO : { in: 0 };
          const steps: PartialStep[] = specs.map(([v, a, b, whole]) => {
            // the second operand reads the same region of another block, or (whole) the
            // selection copied out as a block of its own, with no view
            const views: (InputView | null)[] = pair ? [v, whole ? null : v] : [v];
            return { params: { expr, views, reduce }, inputs: pair ? [a, b] : [a] };
          });
          const inputs: Chunk[] = [...blocks];
          for (const [k, s] of steps.entries()) {
            if (s.params.views[1] !== null || !pair) continue;
            const v = s.params.views[0]!;
            const copy = run('slice', [blocks[s.inputs[1]!]!], v);
            inputs.push(copy);
            steps[k] = { params: s.params, inputs: [s.inputs[0]!, inputs.length - 1] };
          }
          expectPackedLikeSteps(steps, inputs, { expr, reduce, arity: pair ? 2 : 1, combine });
        },
      ),
      { numRuns: 60 },
    );
  });

  test('partials of one view shape at many starts (one plan, shifted) equal their steps', () => {
    const [R, C] = [90, 130];
    const blocks = [block(R, C, 4), block(R, C, 5), block(30, 40, 6)];
    fc.assert(
      fc.property(
        fc.constantFrom<MonoidOp>('sum', 'mean'),
        fc.constantFrom<Expr>({ in: 0 }, TWO),
        fc.record({
          nr: fc.integer({ min: 1, max: 30 }),
          nc: fc.integer({ min: 1, max: 40 }),
          step: fc.constantFrom(1, 2),
          axes: fc.constantFrom([0, 1], [1], [0]),
        }),
        fc.array(fc.tuple(fc.nat(1000), fc.nat(1000), fc.nat(1), fc.boolean()), {
          minLength: 1,
          maxLength: 8,
        }),
        (op, expr, { nr, nc, step, axes }, starts) => {
          const pair = expr === TWO;
          const reduce = { op, axes, dtype: 'float64' } as EwReduceParams['reduce'];
          const combine = { op, axes, dtype: 'float64' };
          const count = [nr, nc];
          const steps: PartialStep[] = starts.map(([r, c, which, whole]) => {
            const v: InputView = {
              start: [r % (R - nr + 1), c % (C - (nc - 1) * step)],
              step: [1, step],
              count,
            };
            // the second operand: the same region of another block, or a block of the
            // view's shape read whole (no view)
            const views: (InputView | null)[] = pair ? [v, whole && nr <= 30 ? null : v] : [v];
            const second = views[1] === null ? 2 : 1 - which;
            const inputs = pair ? [which, second] : [which];
            return { params: { expr, views, reduce }, inputs };
          });
          const inputs: Chunk[] = [...blocks];
          for (const [k, s] of steps.entries()) {
            if (!pair || s.params.views[1] !== null) continue;
            const whole = run('slice', [blocks[2]!], {
              start: [0, 0],
              step: [1, 1],
              count,
            });
            inputs.push(whole);
            steps[k] = { params: s.params, inputs: [s.inputs[0]!, inputs.length - 1] };
          }
          expectPackedLikeSteps(steps, inputs, { expr, reduce, arity: pair ? 2 : 1, combine });
        },
      ),
      { numRuns: 80 },
    );
  });

  test('tasks sharing one params object (one batch) reuse a plan only over like blocks', () => {
    const reduce = { op: 'sum', axes: [0, 1], dtype: 'float64' } as EwReduceParams['reduce'];
    const shared: ReduceViewsShared = { expr: TWO, reduce, arity: 2, combine: reduce };
    const view = (r: number, c: number): InputView => ({
      start: [r, c],
      step: [1, 1],
      count: [20, 30],
    });
    const steps = (r: number): PartialStep[] =>
      [0, 7, 13].map((c) => ({
        params: { expr: TWO, views: [view(r, c), view(c, r)], reduce },
        inputs: [0, 1],
      }));
    // the same packed partials over blocks of other data, then of other shapes and dtypes
    for (const [seed, rows, cols, dtype] of [
      [1, 60, 70, 'float64'],
      [2, 60, 70, 'float64'],
      [3, 50, 90, 'float64'],
      [4, 60, 70, 'float32'],
    ] as const) {
      const blocks = [block(rows, cols, seed), block(rows, cols, seed + 10)].map((b) =>
        dtype === 'float64'
          ? b
          : new NDArray(Float32Array.from(b.data as NumberArray), b.shape, dtype),
      );
      const packed = packPartials(steps(seed), shared);
      const parts = steps(seed).map((s) =>
        run(
          'ew-reduce',
          s.inputs.map((i) => blocks[i]!),
          s.params,
        ),
      );
      expectSame(run('ew-reduce-views', blocks, packed), run('reduce-combine', parts, reduce));
    }
  });

  const expr: Expr = { in: 0 };
  const reduce = { op: 'sum', axes: [0, 1], dtype: 'float64' } as EwReduceParams['reduce'];
  const shared: ReduceViewsShared = { expr, reduce, arity: 1, combine: reduce };
  const view = { start: [0, 0], step: [1, 1], count: [2, 2] };
  test.each<[string, PartialStep]>([
    [
      'another expression object',
      { params: { expr: { in: 0 }, views: [view], reduce }, inputs: [0] },
    ],
    ['another reduction', { params: { expr, views: [view], reduce: { ...reduce } }, inputs: [0] }],
    ['a dtype', { params: { expr, dtype: 'float32', views: [view], reduce }, inputs: [0] }],
    [
      'a permuted view',
      { params: { expr, views: [{ ...view, axes: [1, 0] }], reduce }, inputs: [0] },
    ],
    ['two operands', { params: { expr, views: [view, view], reduce }, inputs: [0, 1] }],
  ])('packPartials refuses a step with %s', (_, step) => {
    const ok: PartialStep = { params: { expr, views: [view], reduce }, inputs: [0] };
    expect(packPartials([ok], shared)).toBeDefined();
    expect(packPartials([ok, step], shared)).toBeUndefined();
  });
});
