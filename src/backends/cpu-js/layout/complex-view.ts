// Complex blocks as their parts and back, without copies: a complex block of shape s is the
// float block of shape [...s, 2] (re, im) on the same data, as NumPy's `z.view(float)`.

import { isComplex, realDType } from '../../../array/dtype.ts';
import { NDArray } from '../../../array/ndarray.ts';
import { arrayBlock } from '../../../kernels/array-block.ts';
import type { Chunk, Kernel } from '../../../kernels/types.ts';
import { convertBlock } from './layout.ts';

/**
 * A complex block's parts: float32 (complex64) or float64 (complex128) of shape `[...s, 2]`.
 * @example
 * viewAsRealBlock(ndarray([{ re: 1, im: 2 }])).toNested(); // [[1, 2]]
 */
export function viewAsRealBlock(x: NDArray): NDArray {
  if (!isComplex(x.dtype)) throw new TypeError(`view-as-real: block of dtype '${x.dtype}'`);
  return new NDArray(x.data, [...x.shape, 2], realDType(x.dtype));
}

/**
 * A block of parts (last axis of size 2: re, im) as complex: complex64 from float32, complex128
 * from any other real dtype (converted to float64 first).
 * @example
 * viewAsComplexBlock(ndarray([[1, 2]])).get(0); // { re: 1, im: 2 }
 */
export function viewAsComplexBlock(x: NDArray): NDArray {
  const parts = x.dtype === 'float32' || x.dtype === 'float64' ? x : convertBlock(x, 'float64');
  const dtype = parts.dtype === 'float32' ? 'complex64' : 'complex128';
  return new NDArray(parts.data, x.shape.slice(0, -1), dtype);
}

/** The complex view kernels, registered in backends/cpu-js/registry. */
export const complexViewKernels: Record<string, Kernel<never>> = {
  'view-as-real': ((inputs: Chunk[]) =>
    viewAsRealBlock(arrayBlock(inputs[0], 'view-as-real'))) as Kernel<never>,
  'view-as-complex': ((inputs: Chunk[]) =>
    viewAsComplexBlock(arrayBlock(inputs[0], 'view-as-complex'))) as Kernel<never>,
};
