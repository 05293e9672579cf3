// Reference arrays for the io tests, int64 and uint64 included: their data are BigInts over
// the whole 64-bit range (beyond 2^53, where a double would round), so a file or store that
// passes them through a float loses them visibly.

import { type DType, isBigDType } from '../../src/array/dtype.ts';
import { NDArray, shapeSize } from '../../src/array/ndarray.ts';
import { randomDense, rng } from '../helpers/reference.ts';

/**
 * randomDense for every dtype: int64 and uint64 elements are random 64-bit BigInts.
 * @example
 * randomRef([3, 4], 'int64', 7).data; // BigInt64Array of 12 values, most beyond 2^53
 */
export function randomRef(shape: readonly number[], dtype: DType, seed: number): NDArray {
  if (!isBigDType(dtype)) return randomDense(shape, dtype, seed);
  const r = rng(seed);
  const n = shapeSize(shape);
  const data = dtype === 'int64' ? new BigInt64Array(n) : new BigUint64Array(n);
  for (let i = 0; i < n; i++) {
    const hi = BigInt(Math.floor(r() * 2 ** 32));
    const lo = BigInt(Math.floor(r() * 2 ** 32));
    // the store wraps: a signed value for int64, unsigned for uint64
    data[i] = (hi << 32n) | lo;
  }
  return new NDArray(data, [...shape], dtype);
}
