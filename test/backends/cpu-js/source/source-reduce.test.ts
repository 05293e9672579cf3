// Reductions of generated sources folded tile by tile (sourceReducePartial) against the
// materialized path, bit for bit: the source block built whole, then 'reduce-partial' or
// 'ew-reduce' over it, on random shapes, block placements, dtypes, axes and expressions.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { compute } from '../../../../src/array/compute.ts';
import type { DType } from '../../../../src/array/dtype.ts';
import { NDArray } from '../../../../src/array/ndarray.ts';
import { random } from '../../../../src/array/random.ts';
import { ewReducePartial } from '../../../../src/backends/cpu-js/elementwise/ew-reduce.ts';
import type { Expr } from '../../../../src/backends/cpu-js/elementwise/expr.ts';
import {
  type MonoidOp,
  monoidPartial,
} from '../../../../src/backends/cpu-js/reduce/reduce-monoid.ts';
import type { FusedParams } from '../../../../src/backends/cpu-js/registry.ts';
import {
  arangeBlock,
  fullBlock,
  linspaceBlock,
} from '../../../../src/backends/cpu-js/source/creation.ts';
import { normalBlock, uniformBlock } from '../../../../src/backends/cpu-js/source/random.ts';
import { sourceReducePartial } from '../../../../src/backends/cpu-js/source/source-reduce.ts';
import { arange, full, linspace } from '../../../../src/index.ts';
import type { Chunk } from '../../../../src/kernels/types.ts';

type Step = FusedParams['steps'][number];

/** Same dtype, shape and values, bit for bit (NaN and -0 included). */
function expectSame(a: Chunk, b: Chunk): void {
  if (Array.isArray(a) || Array.isArray(b)) {
    expect(Array.isArray(a) && Array.isArray(b)).toBe(true);
    for (const [i, x] of (a as Chunk[]).entries()) expectSame(x, (b as Chunk[])[i]!);
    return;
  }
  expect(a.dtype).toBe(b.dtype);
  expect(a.shape).toEqual(b.shape);
  for (let i = 0; i < a.size; i++) {
    if (!Object.is(a.data[i], b.data[i])) expect(`${i}: ${a.data[i]}`).toBe(`${i}: ${b.data[i]}`);
  }
}

/** A source step and its block built whole (the materialized path). */
function source(kind: string, shape: number[], pad: number[], dtype: DType, seed: number) {
  const offset = shape.map((_, i) => pad[i]!);
  const arrayShape = shape.map((n, i) => n + 2 * pad[i]!);
  const base = { seed: [0, seed] as [number, number], arrayShape, offset, shape, dtype };
  const flat = shape.reduce((a, b) => a * b, 1);
  switch (kind) {
    case 'uniform': {
      const params = { ...base, low: -1, high: 3 };
      return {
        step: { kernel: 'random-uniform', params, inputs: [] },
        block: uniformBlock(params),
      };
    }
    case 'normal': {
      const params = { ...base, mean: 1, std: 2 };
      return { step: { kernel: 'random-normal', params, inputs: [] }, block: normalBlock(params) };
    }
    case 'full': {
      const params = { shape, value: seed % 2 === 0 ? 0.1 * seed : -seed, dtype };
      return { step: { kernel: 'full', params, inputs: [] }, block: fullBlock(params) };
    }
    case 'arange': {
      const params = { start: -7, step: 0.3, offset: pad[0]!, count: flat, dtype };
      return { step: { kernel: 'arange', params, inputs: [] }, block: arangeBlock(params) };
    }
    default: {
      const params = {
        start: -2,
        stop: 5,
        num: flat + 2 * pad[0]!,
        endpoint: seed % 2 === 0,
        offset: pad[0]!,
        count: flat,
        dtype,
      };
      return { step: { kernel: 'linspace', params, inputs: [] }, block: linspaceBlock(params) };
    }
  }
}

const EXPRS: ((dtype: DType) => Expr)[] = [
  (dtype) => ({ op: 'multiply', args: [{ in: 0 }, { const: 2 }], dtype }),
  (dtype) => ({
    op: 'add',
    args: [{ op: 'multiply', args: [{ in: 0 }, { in: 1 }], dtype }, { const: 1 }],
    dtype,
  }),
];

const arbCase = fc
  .record({
    kind: fc.constantFrom('uniform', 'normal', 'full', 'arange', 'linspace'),
    dims: fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 3 }),
    // a first axis long enough for blocks of several 16,384-element tiles, or not
    scale: fc.constantFrom(1, 40, 900, 2500),
    pad: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 3, maxLength: 3 }),
    float32: fc.boolean(),
    intDtype: fc.constantFrom<DType>('int32', 'uint8', 'bool', 'float64'),
    op: fc.constantFrom<MonoidOp>('sum', 'mean', 'prod', 'min', 'max', 'any', 'all'),
    axesMask: fc.integer({ min: 1, max: 7 }),
    expr: fc.integer({ min: -1, max: 1 }),
    seed: fc.integer({ min: 1, max: 1000 }),
  })
  .map((c) => {
    const random = c.kind === 'uniform' || c.kind === 'normal';
    const dtype: DType =
      random || c.kind === 'linspace'
        ? c.float32
          ? 'float32'
          : 'float64'
        : c.float32
          ? 'float32'
          : c.intDtype;
    // creation ranges are one-dimensional
    const dims = random || c.kind === 'full' ? c.dims : [c.dims.reduce((a, b) => a * b, 1)];
    const shape = dims.map((n, i) => (i === 0 ? n * c.scale : n));
    let axes = shape.map((_, i) => i).filter((i) => (c.axesMask >> i) & 1);
    if (axes.length === 0) axes = [0];
    return { ...c, dtype, shape, axes };
  });

describe('sourceReducePartial', () => {
  test('equals reduce-partial (or ew-reduce) of the materialized source, bit for bit', () => {
    fc.assert(
      fc.property(arbCase, (c) => {
        const a = source(c.kind, c.shape, c.pad, c.dtype, c.seed);
        const b = source(c.kind, c.shape, c.pad, c.dtype, c.seed + 1);
        const reduce = { op: c.op, axes: c.axes, dtype: c.op === 'mean' ? 'float64' : c.dtype };
        if (c.expr < 0) {
          const steps: Step[] = [
            a.step,
            { kernel: 'reduce-partial', params: reduce, inputs: [-1] },
          ];
          const got = sourceReducePartial(steps);
          const want = monoidPartial(a.block, reduce);
          if (got === undefined) {
            // only short runs over a block too large for scratch stay materialized
            expect(a.block.size).toBeGreaterThan(2 ** 20);
            return;
          }
          expectSame(got, want);
          return;
        }
        const ew = { expr: EXPRS[c.expr]!(c.dtype), dtype: c.dtype, reduce };
        const two = c.expr === 1;
        const params = { ...ew, views: two ? [null, null] : [null] };
        const steps: Step[] = two
          ? [a.step, b.step, { kernel: 'ew-reduce', params, inputs: [-1, -2] }]
          : [a.step, { kernel: 'ew-reduce', params, inputs: [-1] }];
        const got = sourceReducePartial(steps);
        const blocks = two ? [a.block, b.block] : [a.block];
        if (got === undefined) {
          expect(a.block.size).toBeGreaterThan(2 ** 20);
          return;
        }
        expectSame(got, ewReducePartial(blocks, params));
      }),
      { numRuns: 150 },
    );
  });

  test('one block smaller than a tile, one of several tiles and a ragged tail', () => {
    for (const n of [1, 7, 16383, 16384, 16385, 3 * 16384 + 11]) {
      for (const op of ['sum', 'min', 'max', 'mean'] as const) {
        const a = source('uniform', [n], [3], 'float64', n);
        const reduce = { op, axes: [0], dtype: 'float64' as DType };
        const got = sourceReducePartial([
          a.step,
          { kernel: 'reduce-partial', params: reduce, inputs: [-1] },
        ]);
        expectSame(got!, monoidPartial(a.block, reduce));
      }
    }
  });

  test('leaves other steps to the fused kernel', () => {
    const a = source('uniform', [10], [0], 'float64', 1);
    const std = { op: 'std', axes: [0], dtype: 'float64', ddof: 0 };
    const views = { expr: { in: 0 }, views: [{ start: [1], step: [2], count: [4] }] };
    const cases: Step[][] = [
      [a.step, { kernel: 'reduce-partial', params: std, inputs: [-1] }],
      [a.step, { kernel: 'ew-reduce', params: { ...views, reduce: std }, inputs: [-1] }],
      [
        { kernel: 'ew', params: {}, inputs: [0] },
        { kernel: 'reduce-partial', params: std, inputs: [-1] },
      ],
      [a.step, { kernel: 'ew', params: {}, inputs: [-1] }],
    ];
    for (const steps of cases) expect(sourceReducePartial(steps)).toBeUndefined();
  });

  test.each([
    ['uniform sum', () => random.uniform([70000], { seed: 3, chunks: 30000 }).sum()],
    [
      'normal * 2 max',
      () =>
        random
          .normal([300, 90], { seed: 4, chunks: [200, 50] })
          .mul(2)
          .max(),
    ],
    [
      'uniform mean axis 1',
      () => random.uniform([200, 150], { seed: 5, chunks: [64, 100] }).mean({ axis: 1 }),
    ],
    ['full min', () => full([50000], 1.5, { chunks: 20000 }).min()],
    ['arange sum', () => arange(0, 90000, 1, { chunks: 40000 }).sum()],
    ['linspace max', () => linspace(0, 1, 50001, { chunks: 20000 }).max()],
  ])('%s: fused graph equals the unoptimized one on sync and threads', async (_, build) => {
    const fused = await compute(build(), { scheduler: 'sync' });
    const plain = await compute(build(), { scheduler: 'sync', optimize: false });
    const threads = await compute(build(), { scheduler: 'threads', workers: 2 });
    expect(fused.shape).toEqual(plain.shape);
    const sample = new NDArray(plain.data, plain.shape, plain.dtype);
    expectSame(fused, sample);
    expectSame(threads, sample);
  });
});
