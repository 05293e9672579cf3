// Row-sort kernels for the lazyApply bench, shipped to workers by module reference: the
// plain TypedArray.prototype.sort per row (honest baseline) and a float64 radix sort.

import { allocate, type NumberArray } from '../../src/array/dtype.ts';
import { NDArray } from '../../src/array/ndarray.ts';
import { defineKernels } from '../../src/kernels/define-kernels.ts';
import { RadixScratch, radixSortFloat64 } from './radix-sort-float64.ts';

/** Work buffers of this thread, reused by every call. */
const scratch = new RadixScratch();

/**
 * Sort each row (the last axis) with TypedArray.prototype.sort, into a new array.
 * @example
 * sortRowsNative(ndarray(new Float64Array([3, 1, 2, 0]), [2, 2])).data; // [1, 3, 0, 2]
 */
export function sortRowsNative(b: NDArray): NDArray {
  const n = b.shape[b.shape.length - 1] ?? 1;
  const out = allocate(b.dtype, b.size); // shared memory: no copy back from a worker
  (out as NumberArray).set(b.data as NumberArray);
  if (n > 0) for (let i = 0; i < out.length; i += n) out.subarray(i, i + n).sort();
  return new NDArray(out, b.shape, b.dtype);
}

/**
 * Sort each row (the last axis) into a new array: float64 with radixSortFloat64 (same order as
 * TypedArray sort: NaN last, -0 before +0), other dtypes with TypedArray sort.
 * @example
 * sortRowsRadix(ndarray(new Float64Array([3, NaN, 2, -0, 0, -1]), [2, 3])).data;
 * // [2, 3, NaN, -1, -0, 0]
 */
export function sortRowsRadix(b: NDArray): NDArray {
  if (!(b.data instanceof Float64Array)) return sortRowsNative(b);
  const n = b.shape[b.shape.length - 1] ?? 1;
  const out = allocate('float64', b.size) as Float64Array;
  const src = b.data;
  if (n > 0) {
    for (let i = 0; i < src.length; i += n) {
      radixSortFloat64(src.subarray(i, i + n), out.subarray(i, i + n), scratch);
    }
  }
  return new NDArray(out, b.shape, b.dtype);
}

/** The kernels as defineKernels handles: workers import this module to find them. */
export const sortKernels = defineKernels(import.meta.url, { sortRowsNative, sortRowsRadix });
