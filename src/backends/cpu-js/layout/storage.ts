// Copies and fills of block storage of any dtype: int64 and uint64 store BigInts, the others
// numbers. A copy between two arrays of one storage class works alike for both at run time,
// but the TypedArray union's `set` and `fill` take no member of it (their parameter is
// number & bigint): these branch on the storage once per call, never per element.

import { type BigIntArray, isBigIntArray, type TypedArray } from '../../../array/dtype.ts';
import { numberToBig } from '../../../array/int64.ts';

/**
 * `dst.set(src, offset)` for two arrays of one dtype's storage (number or BigInt alike).
 * @example
 * setSame(out, block.data.subarray(4, 8), 0); // elements 4…7 of a block of out's dtype
 */
export function setSame(dst: TypedArray, src: TypedArray, offset = 0): void {
  if (isBigIntArray(dst)) dst.set(src as BigIntArray, offset);
  else dst.set(src as typeof dst, offset);
}

/**
 * Fill `out[start, end)` with `v`. BigInt storage takes a number as a C cast makes it int64
 * (truncated toward zero, wrapped modulo 2^64); number storage takes a BigInt as Number(v).
 * @example
 * fillSame(new BigInt64Array(3), 7); // [7n, 7n, 7n]
 */
export function fillSame(out: TypedArray, v: number | bigint, start?: number, end?: number): void {
  if (isBigIntArray(out)) {
    out.fill(typeof v === 'bigint' ? v : numberToBig(v), start, end);
  } else out.fill(typeof v === 'number' ? v : Number(v), start, end);
}
