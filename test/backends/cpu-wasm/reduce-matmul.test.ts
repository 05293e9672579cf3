// cpu-wasm 'reduce-partial' and 'matmul' against cpu-js on random shapes and edge values:
// sums and products exactly, min/max up to the sign of zero, matmul within a ulp-scaled bound.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DType, NumberArray } from '../../../src/array/dtype.ts';
import { NDArray } from '../../../src/array/ndarray.ts';
import { matmulBlocks } from '../../../src/backends/cpu-js/linalg/matmul.ts';
import { reduceKernels } from '../../../src/backends/cpu-js/reduce/reduce.ts';
import { kernels } from '../../../src/backends/cpu-wasm/kernels.ts';
import type { Chunk, Kernel, KernelContext } from '../../../src/kernels/types.ts';
import { fillRandom, prng } from './random-expr.ts';

const ctx = {} as KernelContext;
const run = (k: Kernel<never> | undefined, inputs: Chunk[], p: unknown): Chunk =>
  (k as unknown as Kernel<unknown>)(inputs, p, ctx);

function block(r: () => number, shape: number[], dtype: DType, plain = false): NDArray {
  const n = shape.reduce((a, b) => a * b, 1);
  const data = plain ? Float64Array.from({ length: n }, () => r() - 0.5) : fillRandom(r, dtype, n);
  if (plain && dtype === 'float32')
    return new NDArray(Float32Array.from(data as Float64Array), shape, dtype);
  return new NDArray(data as NDArray['data'], shape, dtype);
}

describe('cpu-wasm reduce-partial', () => {
  it.each(['float32', 'float64'] as DType[])('agrees with cpu-js on %s', (dtype) => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.constantFrom('sum', 'mean', 'prod', 'min', 'max'),
        fc.boolean(),
        (seed, op, edges) => {
          const r = prng(seed);
          const rows = 1 + Math.floor(r() * 3);
          const n = Math.floor(r() * 20000);
          const axes = r() < 0.5 ? [1] : [0, 1];
          const x = block(r, [rows, n], dtype, !edges);
          const p = { op, axes, dtype: op === 'mean' ? 'float64' : dtype };
          const [want, wantCount] = run(reduceKernels['reduce-partial'], [x], p) as NDArray[];
          const [got, gotCount] = run(kernels['reduce-partial'], [x], p) as NDArray[];
          expect(got!.shape).toEqual(want!.shape);
          expect(got!.dtype).toBe(want!.dtype);
          expect(gotCount!.data[0]).toBe(wantCount!.data[0]);
          // ±0 ties in min/max may resolve differently; everything else is exact
          const tie = op === 'min' || op === 'max';
          const differ: number[] = [];
          for (let i = 0; i < want!.size; i++) {
            const [a, b] = [want!.data[i]!, got!.data[i]!];
            if (!(Object.is(a, b) || (tie && a === b))) differ.push(i);
          }
          expect(differ).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('delegates integer blocks and argmin to cpu-js', () => {
    const x = new NDArray(Int32Array.from([3, 1, 2]), [3], 'int32');
    const sum = run(kernels['reduce-partial'], [x], {
      op: 'sum',
      axes: [0],
      dtype: 'float64',
    }) as NDArray[];
    expect(sum[0]!.data[0]).toBe(6);
    const arg = run(kernels['reduce-partial'], [x], { op: 'argmin', axes: [0] });
    expect(arg).toEqual(run(reduceKernels['reduce-partial'], [x], { op: 'argmin', axes: [0] }));
  });
});

describe('cpu-wasm matmul', () => {
  const shapes = fc.record({
    m: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 150 })),
    k: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 300 })),
    n: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 600 })),
  });
  it.each(['float32', 'float64'] as DType[])(
    'agrees with cpu-js on random shapes (%s)',
    (dtype) => {
      fc.assert(
        fc.property(
          shapes,
          fc.integer(),
          fc.integer({ min: 1, max: 2 }),
          ({ m, k, n }, seed, groups) => {
            const r = prng(seed);
            const inputs: NDArray[] = [];
            for (let g = 0; g < groups; g++)
              inputs.push(block(r, [m, k], dtype, true), block(r, [k, n], dtype, true));
            const p = { dtype, aVec: false, bVec: false };
            const want = matmulBlocks(inputs, p);
            const got = run(kernels.matmul, inputs, p) as NDArray;
            expect(got.shape).toEqual(want.shape);
            expect(got.dtype).toBe(dtype);
            // |error| ≤ k·ε·Σ|a||b| bounds both summation orders; |a|,|b| ≤ 0.5
            const eps = dtype === 'float32' ? 2 ** -23 : 2 ** -52;
            const bound = groups * k * 0.25 * eps * 4;
            let worst = 0;
            for (let i = 0; i < want.size; i++) {
              const e = Math.abs((got.data as NumberArray)[i]! - (want.data as NumberArray)[i]!);
              worst = e > worst || Number.isNaN(e) ? e : worst;
            }
            expect(worst).toBeLessThanOrEqual(bound);
          },
        ),
        { numRuns: 40 },
      );
    },
  );

  it('handles vector operands, the unit axis, and delegates batched blocks', () => {
    const r = prng(5);
    const a = block(r, [7], 'float64', true);
    const b = block(r, [7, 5], 'float64', true);
    for (const p of [
      { dtype: 'float64' as DType, aVec: true, bVec: false },
      { dtype: 'float64' as DType, aVec: true, bVec: false, unitAxis: true },
    ]) {
      const got = run(kernels.matmul, [a, b], p) as NDArray;
      const want = matmulBlocks([a, b], p);
      expect(got.shape).toEqual(want.shape);
      for (let i = 0; i < want.size; i++)
        expect(got.data[i]).toBeCloseTo((want.data as NumberArray)[i]!, 12);
    }
    const batched = block(r, [2, 3, 4], 'float64', true);
    const c = block(r, [2, 4, 3], 'float64', true);
    const p = { dtype: 'float64' as DType, aVec: false, bVec: false };
    expect(run(kernels.matmul, [batched, c], p)).toEqual(matmulBlocks([batched, c], p));
  });
});
