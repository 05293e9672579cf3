// The layer that turns an all-NaN slice of nanargmin/nanargmax into a compute-time
// ValueError: one task per output block reads the indices and the all-NaN mask.

import { LazyArray } from '../array/lazy-array.ts';
import type { AllNaNCheckParams } from '../backends/cpu-js/reduce/all-nan-check.ts';
import { defineLayer } from '../graph/define-layer.ts';

/**
 * `index` itself, except that a block whose `allNaN` mask (same chunks) has a true fails.
 * @example
 * allNaNCheck('nanargmin', argmin(filled), all(isnan(x))); // throws at compute on all-NaN
 */
export function allNaNCheck(fn: string, index: LazyArray, allNaN: LazyArray): LazyArray {
  const params: AllNaNCheckParams = { fn };
  const layer = defineLayer({
    op: `${fn}-check`,
    token: [fn],
    deps: [index.layer, allNaN.layer],
    chunks: index.chunks,
    dtype: index.dtype,
    task: (b) => ({
      kernel: 'all-nan-check',
      inputs: [
        [0, b],
        [1, b],
      ],
      params,
    }),
  });
  return new LazyArray(layer);
}
