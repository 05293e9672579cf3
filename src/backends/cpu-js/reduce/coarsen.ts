// 'coarsen-block': one block reduced over non-overlapping windows (dask.array.chunk.coarsen):
// each coarsened axis viewed as (n / factor, factor), the factor axes reduced by the
// reduction kernels ('reduce-partial' then 'reduce-aggregate') of the task's backend.

import { NDArray } from '../../../array/ndarray.ts';
import { arrayBlock } from '../../../kernels/array-block.ts';
import type { Chunk, Kernel, KernelContext } from '../../../kernels/types.ts';
import type { AggregateParams, ReduceParams } from './reduce.ts';

/**
 * Params of 'coarsen-block': a factor per axis (1 = kept) and the reduction's params, whose
 * `axes` are the factor axes of the split view (see coarsenAxes).
 */
export interface CoarsenParams {
  readonly factors: readonly number[];
  readonly reduce: ReduceParams;
}

/**
 * The factor axes of the split view of a block coarsened by `factors`.
 * @example
 * coarsenAxes([2, 1, 3]); // [1, 4]
 */
export function coarsenAxes(factors: readonly number[]): number[] {
  const axes: number[] = [];
  let at = 0;
  for (const f of factors) {
    at++;
    if (f !== 1) axes.push(at++);
  }
  return axes;
}

function coarsenBlock(inputs: Chunk[], p: CoarsenParams, ctx: KernelContext): Chunk {
  const x = arrayBlock(inputs[0], 'coarsen-block');
  const shape = x.shape.flatMap((n, ax) => {
    const f = p.factors[ax]!;
    return f === 1 ? [n] : [n / f, f];
  });
  // a C-ordered block viewed with each axis split in two is the same data
  const view = new NDArray(x.data, shape, x.dtype);
  const part = ctx.run('reduce-partial', [view], p.reduce);
  const agg: AggregateParams = { ...p.reduce, keepdims: false };
  return ctx.run('reduce-aggregate', [part], agg);
}

/** Coarsen kernels, registered in backends/cpu-js/registry. */
export const coarsenKernels: Record<string, Kernel<never>> = {
  'coarsen-block': coarsenBlock as Kernel<never>,
};
