// int64 and uint64 without a BigInt per element: conversions between JS numbers and the
// two 32-bit halves of each element (little-endian, as every platform Node runs on).

import type { BigIntArray, NumberArray } from './dtype.ts';

const TWO32 = 4294967296;

/** A 32-bit view of the halves of a BigInt array: element i is words 2i (low), 2i + 1. */
export function halves(data: BigIntArray): Uint32Array {
  return new Uint32Array(data.buffer, data.byteOffset, data.length * 2);
}

/**
 * Write numbers into an int64 or uint64 array as a C cast does: truncate toward zero, wrap
 * modulo 2^64; NaN and ±Infinity give the bits 0x8000000000000000 (what NumPy gives on
 * x86). Exact for every integer a double holds.
 * @example
 * const out = new BigInt64Array(2);
 * numbersIntoBig(Float64Array.of(-1.5, 2 ** 60), out); // out: [-1n, 1152921504606846976n]
 */
export function numbersIntoBig(src: ArrayLike<number>, out: BigIntArray): void {
  const w = halves(out);
  const n = src.length;
  for (let i = 0, j = 0; i < n; i++, j += 2) {
    const t = Math.trunc(src[i]!);
    if (t - t !== 0) {
      w[j] = 0;
      w[j + 1] = 0x80000000;
      continue;
    }
    const hi = Math.floor(t / TWO32);
    w[j] = t - hi * TWO32;
    w[j + 1] = hi >>> 0;
  }
}

/**
 * Read an int64 or uint64 array as numbers, each rounded to the nearest double (as
 * `Number(bigint)` rounds), into `out` (whose store then rounds or wraps further).
 * @example
 * bigIntoNumbers(BigInt64Array.of(-3n), new Float64Array(1)); // [-3]
 */
export function bigIntoNumbers(src: BigIntArray, out: NumberArray | number[]): void {
  const w = halves(src);
  const n = src.length;
  if (src instanceof BigInt64Array) {
    for (let i = 0, j = 0; i < n; i++, j += 2) out[i] = (w[j + 1]! | 0) * TWO32 + w[j]!;
  } else {
    for (let i = 0, j = 0; i < n; i++, j += 2) out[i] = w[j + 1]! * TWO32 + w[j]!;
  }
}

/**
 * Wrap integers of a narrower dtype's values read from int64 halves: the low word as the
 * integer dtype stores it (its store wraps further), so `astype('int8')` of 300n is 44.
 * @example
 * bigIntoLowWords(BigInt64Array.of(2n ** 32n + 5n), new Int32Array(1)); // [5]
 */
export function bigIntoLowWords(src: BigIntArray, out: NumberArray): void {
  const w = halves(src);
  const n = src.length;
  for (let i = 0, j = 0; i < n; i++, j += 2) out[i] = w[j]!;
}

/** One number as int64 bits, as {@link numbersIntoBig} writes it (for code per element). */
export function numberToBig(v: number): bigint {
  const t = Math.trunc(v);
  if (t - t !== 0) return -(2n ** 63n);
  return BigInt.asIntN(64, BigInt(t));
}
