// float16 arithmetic beyond elementwise: operands widen to float32 (exact), the kernel runs
// on float32 and a float16 result rounds once at the end (NumPy accumulates float16 so too).

import { type DType, resultType } from '../array/dtype.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import { astype } from './elementwise-logic.ts';

/** `x` as float32 when it is float16 (an exact cast), else `x` itself. */
export function widenFloat16(x: LazyArray): LazyArray {
  return x.dtype === 'float16' ? astype(x, 'float32') : x;
}

/**
 * `build` over the operands with float16 ones widened to float32; when the operands
 * promote to float16 (`out`, by default), the float32 result is rounded back to float16.
 * No kernel but elementwise ones ever sees float16 bits this way.
 * @example
 * viaFloat32([a, b], ([x, y]) => matmulOf(x, y)); // float16 @ float16 -> float16
 */
export function viaFloat32(
  xs: readonly LazyArray[],
  build: (xs: LazyArray[]) => LazyArray,
  out: DType = resultType(...xs.map((x) => x.dtype)),
): LazyArray {
  if (!xs.some((x) => x.dtype === 'float16') && out !== 'float16') return build([...xs]);
  const r = build(xs.map(widenFloat16));
  return out === 'float16' && r.dtype !== 'float16' ? astype(r, 'float16') : r;
}

/**
 * A reduction with a `dtype` option (`given`) whose result dtype `out` or input `x` is
 * float16: runs `build` on `x` (cast to float16 first when `given` is float16, as each
 * element is cast before accumulating) widened to float32, with `given` float32 instead of
 * float16, and rounds a float16 result once at the end. Undefined when float16 takes no part.
 * @example
 * sum(x16) // = astype(sum(astype(x16, 'float32')), 'float16')
 */
export function reduceViaFloat32(
  x: LazyArray,
  given: DType | undefined,
  out: DType,
  build: (x: LazyArray, given: DType | undefined) => LazyArray,
): LazyArray | undefined {
  if (x.dtype !== 'float16' && out !== 'float16' && given !== 'float16') return undefined;
  const src = given === 'float16' ? astype(x, 'float16') : x;
  const r = build(widenFloat16(src), given === 'float16' ? 'float32' : given);
  return out === 'float16' && r.dtype !== 'float16' ? astype(r, 'float16') : r;
}
