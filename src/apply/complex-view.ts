// Lazy complex arrays as their parts and back (one zero-copy task per block): how code written
// for real arrays of (re, im) pairs, such as the fft kernels, takes and gives complex arrays.

import { type DType, isComplex, realDType } from '../array/dtype.ts';
import { LazyArray } from '../array/lazy-array.ts';
import { formatTuple } from '../chunking/format.ts';
import { DTypeError, ShapeError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import { rechunk } from './rechunk.ts';

/**
 * The parts of complex `x` as a float array with a last axis of size 2 (re, im): float32 for
 * complex64, float64 for complex128.
 * @example
 * viewAsReal(fromArray([{ re: 1, im: 2 }])); // [[1, 2]] (float64)
 */
export function viewAsReal(x: LazyArray, fn = 'viewAsReal'): LazyArray {
  if (!isComplex(x.dtype)) throw new DTypeError(`${fn}: needs a complex array, got '${x.dtype}'`);
  const layer = defineLayer({
    op: 'view-as-real',
    deps: [x.layer],
    chunks: [...x.chunks, [2]],
    dtype: realDType(x.dtype),
    task: (b) => ({ kernel: 'view-as-real', inputs: [[0, b.slice(0, -1)]] }),
  });
  return new LazyArray(layer);
}

/**
 * Real `x` whose last axis (size 2) holds (re, im) as a complex array: complex64 for float32
 * parts, complex128 otherwise.
 * @example
 * viewAsComplex(fromArray([[1, 2]])); // [{ re: 1, im: 2 }] (complex128)
 */
export function viewAsComplex(x: LazyArray, fn = 'viewAsComplex'): LazyArray {
  if (x.ndim === 0 || x.shape[x.ndim - 1] !== 2) {
    throw new ShapeError(
      `${fn}: needs a last axis of size 2 (re, im), got shape ${formatTuple(x.shape)}`,
    );
  }
  if (isComplex(x.dtype)) throw new DTypeError(`${fn}: the array is complex already`);
  const whole = x.chunks[x.ndim - 1]!.length === 1 ? x : rechunk(x, { [x.ndim - 1]: -1 });
  const dtype: DType = x.dtype === 'float32' ? 'complex64' : 'complex128';
  const layer = defineLayer({
    op: 'view-as-complex',
    deps: [whole.layer],
    chunks: whole.chunks.slice(0, -1),
    dtype,
    task: (b) => ({ kernel: 'view-as-complex', inputs: [[0, [...b, 0]]] }),
  });
  return new LazyArray(layer);
}
