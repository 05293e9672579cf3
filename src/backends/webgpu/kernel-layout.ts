// Transpose (any axis permutation) on the GPU: the elementwise shader reading its input
// through permuted strides, so every dtype (packed bytes included) is covered.

import { cStrides } from '../../array/ndarray.ts';
import { ValueError } from '../../errors.ts';
import { runEwLayout } from './kernel-ew.ts';
import type { GpuRuntime, GpuTensor } from './runtime.ts';

/** Params of 'transpose': out axis i is input axis axes[i]. */
export interface TransposeParams {
  readonly axes: readonly number[];
}

/**
 * Permute the axes of `x`.
 * @example
 * const t = await transpose(rt, x, { axes: [1, 0] }); // a matrix transposed
 */
export async function transpose(
  rt: GpuRuntime,
  x: GpuTensor,
  p: TransposeParams,
): Promise<GpuTensor> {
  const nd = x.shape.length;
  const sorted = [...p.axes].sort((a, b) => a - b);
  if (p.axes.length !== nd || sorted.some((a, i) => a !== i)) {
    throw new ValueError(
      `transpose: axes ${JSON.stringify(p.axes)} are not a permutation of ${nd} axes`,
    );
  }
  const st = cStrides(x.shape);
  const shape = p.axes.map((a) => x.shape[a]!);
  const strides = p.axes.map((a) => st[a]!);
  const layout = {
    shape: shape.length > 0 ? shape : [1],
    strides: [shape.length > 0 ? strides : [0]],
    modes: ['g' as const],
  };
  return runEwLayout(rt, [x], { expr: { in: 0 }, dtype: x.dtype }, shape, layout);
}
