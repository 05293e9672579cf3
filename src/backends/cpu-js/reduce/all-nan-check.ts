// 'all-nan-check': passes an arg-reduction's indices through, or fails the task when any
// slice was all NaN (NumPy's nanargmin/nanargmax raise there; only the data can tell).

import { NDArray } from '../../../array/ndarray.ts';
import { ValueError } from '../../../errors.ts';
import type { Chunk, Kernel } from '../../../kernels/types.ts';

/** Params: the public function that asked (it prefixes the message). */
export interface AllNaNCheckParams {
  readonly fn: string;
}

/** Kernels by name; registered in backends/cpu-js/registry. */
export const allNaNCheckKernels: Record<string, Kernel<never>> = {
  /** inputs [indices, all-NaN mask] of one block; the indices unless the mask has a true. */
  'all-nan-check': ((inputs: Chunk[], p: AllNaNCheckParams) => {
    const [index, mask] = inputs as [NDArray, NDArray];
    if (!(index instanceof NDArray) || !(mask instanceof NDArray)) {
      throw new TypeError('all-nan-check: expected two array blocks');
    }
    for (let i = 0; i < mask.data.length; i++) {
      if (mask.data[i]) throw new ValueError(`${p.fn}: All-NaN slice encountered`);
    }
    return index;
  }) as Kernel<never>,
};
