// The take-along-axis kernel: out[..., j, ...] = x[..., idx[..., j, ...], ...] along one axis,
// the block of x holding that whole axis; negative indices wrap, others out of range throw.
// x may have any dtype (int64 too; complex elements are (re, im) pairs of slots); indices any
// integer dtype, int64 and uint64 included.

import {
  allocate,
  isBigIntArray,
  isComplex,
  type NumberArray,
  type TypedArray,
} from '../../../array/dtype.ts';
import { NDArray } from '../../../array/ndarray.ts';
import { IndexError } from '../../../errors.ts';
import type { Chunk, Kernel } from '../../../kernels/types.ts';

/**
 * Gather `x` along `axis` at `idx` (same shape as x except along the axis).
 * @example
 * takeAlongBlock(ndarray([10, 20, 30]), ndarray(new Int32Array([2, 0])), 0); // [30, 10]
 */
export function takeAlongBlock(x: NDArray, idx: NDArray, axis: number): NDArray {
  let pre = 1;
  let post = 1;
  for (let ax = 0; ax < axis; ax++) pre *= x.shape[ax]!;
  for (let ax = axis + 1; ax < x.ndim; ax++) post *= x.shape[ax]!;
  const n = x.shape[axis]!;
  const m = idx.shape[axis]!;
  const out = allocate(x.dtype, pre * m * post);
  // int64 indices (NumPy's default integer) as numbers, once: exact for every valid index
  const ix: NumberArray = isBigIntArray(idx.data) ? Float64Array.from(idx.data, Number) : idx.data;
  if (isComplex(x.dtype)) {
    takePairs(out, x.data, ix, idx, [pre, m, post, n]);
    return new NDArray(out, idx.shape, x.dtype);
  }
  for (let i = 0; i < pre; i++) {
    for (let j = 0; j < m; j++) {
      for (let q = 0; q < post; q++) {
        const at = (i * m + j) * post + q;
        let k = ix[at]!;
        if (k < 0) k += n;
        if (k < 0 || k >= n) {
          throw new IndexError(
            `takeAlongAxis: index ${idx.data[at]} is out of bounds for size ${n}`,
          );
        }
        out[at] = x.data[(i * n + k) * post + q]!;
      }
    }
  }
  return new NDArray(out, idx.shape, x.dtype);
}

const outOfBounds = (idx: NDArray, at: number, n: number): IndexError =>
  new IndexError(`takeAlongAxis: index ${idx.data[at]} is out of bounds for size ${n}`);

/** takeAlongBlock's loop for complex data: element e is the slots (2e, 2e + 1). */
function takePairs(
  out: TypedArray,
  src: TypedArray,
  ix: NumberArray,
  idx: NDArray,
  [pre, m, post, n]: readonly [number, number, number, number],
): void {
  for (let i = 0; i < pre; i++) {
    for (let j = 0; j < m; j++) {
      for (let q = 0; q < post; q++) {
        const at = (i * m + j) * post + q;
        let k = ix[at]!;
        if (k < 0) k += n;
        if (k < 0 || k >= n) throw outOfBounds(idx, at, n);
        const from = 2 * ((i * n + k) * post + q);
        out[2 * at] = src[from]!;
        out[2 * at + 1] = src[from + 1]!;
      }
    }
  }
}

/** Kernels by name; registered in backends/cpu-js/registry. */
export const takeAlongKernels: Record<string, Kernel<never>> = {
  'take-along-axis': ((inputs: Chunk[], p: { axis: number }) =>
    takeAlongBlock(inputs[0] as NDArray, inputs[1] as NDArray, p.axis)) as unknown as Kernel<never>,
};
