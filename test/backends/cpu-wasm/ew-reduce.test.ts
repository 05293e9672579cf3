// cpu-wasm 'ew-reduce' (the fused partial of (x*2+1).sum()) against cpu-js: the same values,
// bit for bit but where broadcast blocks reorder a sum (then within 1e-12 relative), over
// sub-block views of sources (as fusion inlines them) and plain blocks.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DType } from '../../../src/array/dtype.ts';
import { NDArray } from '../../../src/array/ndarray.ts';
import { ewReduceKernels } from '../../../src/backends/cpu-js/elementwise/ew-reduce.ts';
import { kernels } from '../../../src/backends/cpu-wasm/kernels.ts';
import type { Chunk, Kernel, KernelContext } from '../../../src/kernels/types.ts';
import { fillRandom, prng, randomExpr } from './random-expr.ts';

const ctx = {} as KernelContext;
const run = (k: Kernel<never> | undefined, inputs: Chunk[], p: unknown): Chunk =>
  (k as unknown as Kernel<unknown>)(inputs, p, ctx);

describe('cpu-wasm ew-reduce', () => {
  it.each(['float32', 'float64'] as DType[])('agrees with cpu-js (%s)', (dtype) => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.constantFrom('sum', 'mean'),
        fc.boolean(),
        (seed, op, viewed) => {
          const r = prng(seed);
          const rows = 1 + Math.floor(r() * 40);
          const cols = 1 + Math.floor(r() * 3000);
          const src = [rows + Math.floor(r() * 5), cols + Math.floor(r() * 50)];
          const x = new NDArray(fillRandom(r, dtype, src[0]! * src[1]!), src, dtype);
          const y = new NDArray(fillRandom(r, dtype, cols), [cols], dtype);
          const start = [
            Math.floor(r() * (src[0]! - rows + 1)),
            Math.floor(r() * (src[1]! - cols + 1)),
          ];
          const view = viewed ? { start, step: [1, 1], count: [rows, cols] } : null;
          const inputs = viewed
            ? [x, y]
            : [new NDArray(fillRandom(r, dtype, rows * cols), [rows, cols], dtype), y];
          const axes = r() < 0.5 ? [1] : [0, 1];
          const expr = randomExpr(r, [dtype, dtype], 3);
          const p = {
            expr,
            dtype: 'op' in expr ? expr.dtype : dtype, // fusion gives the root's dtype
            views: [view, null],
            reduce: { op, axes, dtype: 'float64' },
          };
          const [want, wantCount] = run(ewReduceKernels['ew-reduce'], inputs, p) as NDArray[];
          const [got, gotCount] = run(kernels['ew-reduce'], inputs, p) as NDArray[];
          expect(got!.shape).toEqual(want!.shape);
          expect(gotCount!.data[0]).toBe(wantCount!.data[0]);
          for (let i = 0; i < want!.size; i++) {
            const g = got!.data[i] as number;
            const w = want!.data[i] as number;
            // the same lanes in the same order give the same bits; where an expression's
            // blocks broadcast, the two may add in another order: a few ulps of the sum apart
            // (issue 8 asks reductions to agree within an ulp-scaled tolerance)
            if (!Object.is(g, w) && !(Math.abs(g - w) <= 1e-12 * Math.max(1, Math.abs(w)))) {
              throw new Error(
                `at ${i}: cpu-js ${want!.data[i]}, cpu-wasm ${got!.data[i]}; ${JSON.stringify(p)}`,
              );
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
