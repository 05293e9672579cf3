// Elementwise math of the Array API beyond the basic arithmetic: inverse and hyperbolic
// trigonometry, base-2/10 logarithms, and the float functions of two arguments.

import type { KnownIn } from '../array/known-shape.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import { type CallOptions, withCallBackend } from '../dispatch/with-backend.ts';
import type { Operand } from './elementwise.ts';
import { elementwiseOp } from './elementwise-arith.ts';
import { keep, numeric, toFloat } from './elementwise-dtypes.ts';

/**
 * Inverse cosine (radians); NaN outside [-1, 1]. Integers give float64.
 * @example
 * acos(fromArray([1, 0])); // [0, π/2]
 */
export function acos<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('acos', opts?.backend, () => elementwiseOp('acos', toFloat, x));
}

/**
 * Inverse hyperbolic cosine; NaN below 1.
 * @example
 * acosh(fromArray([1])); // [0]
 */
export function acosh<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('acosh', opts?.backend, () => elementwiseOp('acosh', toFloat, x));
}

/**
 * Inverse sine (radians); NaN outside [-1, 1].
 * @example
 * asin(fromArray([0, 1])); // [0, π/2]
 */
export function asin<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('asin', opts?.backend, () => elementwiseOp('asin', toFloat, x));
}

/**
 * Inverse hyperbolic sine.
 * @example
 * asinh(fromArray([0])); // [0]
 */
export function asinh<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('asinh', opts?.backend, () => elementwiseOp('asinh', toFloat, x));
}

/**
 * Inverse tangent (radians), in (-π/2, π/2).
 * @example
 * atan(fromArray([0, Infinity])); // [0, π/2]
 */
export function atan<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('atan', opts?.backend, () => elementwiseOp('atan', toFloat, x));
}

/**
 * Inverse hyperbolic tangent; ±Infinity at ±1.
 * @example
 * atanh(fromArray([0])); // [0]
 */
export function atanh<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('atanh', opts?.backend, () => elementwiseOp('atanh', toFloat, x));
}

/**
 * The angle of the point (x2, x1) in radians, in [-π, π], with the quadrant from both signs.
 * @example
 * atan2(fromArray([1, -1]), -1); // [3π/4, -3π/4]
 */
export function atan2<X1 extends Operand, X2 extends Operand>(
  x1: X1,
  x2: X2,
  opts?: CallOptions,
): LazyArray<KnownIn<[X1, X2]>> {
  return withCallBackend('atan2', opts?.backend, () => elementwiseOp('atan2', toFloat, x1, x2));
}

/**
 * Hyperbolic cosine.
 * @example
 * cosh(fromArray([0])); // [1]
 */
export function cosh<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('cosh', opts?.backend, () => elementwiseOp('cosh', toFloat, x));
}

/**
 * Hyperbolic sine.
 * @example
 * sinh(fromArray([0])); // [0]
 */
export function sinh<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('sinh', opts?.backend, () => elementwiseOp('sinh', toFloat, x));
}

/**
 * Base-2 logarithm.
 * @example
 * log2(fromArray([1, 8])); // [0, 3]
 */
export function log2<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('log2', opts?.backend, () => elementwiseOp('log2', toFloat, x));
}

/**
 * Base-10 logarithm.
 * @example
 * log10(fromArray([1, 1000])); // [0, 3]
 */
export function log10<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('log10', opts?.backend, () => elementwiseOp('log10', toFloat, x));
}

/**
 * log(exp(x1) + exp(x2)), computed without overflow (NumPy's logaddexp).
 * @example
 * logaddexp(fromArray([1000]), 1000); // [1000.6931471805599]
 */
export function logaddexp<X1 extends Operand, X2 extends Operand>(
  x1: X1,
  x2: X2,
  opts?: CallOptions,
): LazyArray<KnownIn<[X1, X2]>> {
  return withCallBackend('logaddexp', opts?.backend, () =>
    elementwiseOp('logaddexp', toFloat, x1, x2),
  );
}

/**
 * sqrt(x1² + x2²) without intermediate overflow; Infinity wins over NaN (as C's hypot).
 * @example
 * hypot(fromArray([3, 1e300]), fromArray([4, 1e300])); // [5, 1.4142135623730952e300]
 */
export function hypot<X1 extends Operand, X2 extends Operand>(
  x1: X1,
  x2: X2,
  opts?: CallOptions,
): LazyArray<KnownIn<[X1, X2]>> {
  return withCallBackend('hypot', opts?.backend, () => elementwiseOp('hypot', toFloat, x1, x2));
}

/**
 * |x1| with the sign bit of x2 (-0 counts as negative).
 * @example
 * copysign(fromArray([1, 2]), fromArray([-0, 3])); // [-1, 2]
 */
export function copysign<X1 extends Operand, X2 extends Operand>(
  x1: X1,
  x2: X2,
  opts?: CallOptions,
): LazyArray<KnownIn<[X1, X2]>> {
  return withCallBackend('copysign', opts?.backend, () =>
    elementwiseOp('copysign', toFloat, x1, x2),
  );
}

/**
 * The next representable value after x1 toward x2, in the result's float dtype
 * (float32 steps by float32 ulps).
 * @example
 * nextafter(fromArray([1]), 2); // [1.0000000000000002]
 */
export function nextafter<X1 extends Operand, X2 extends Operand>(
  x1: X1,
  x2: X2,
  opts?: CallOptions,
): LazyArray<KnownIn<[X1, X2]>> {
  return withCallBackend('nextafter', opts?.backend, () =>
    elementwiseOp('nextafter', toFloat, x1, x2),
  );
}

/**
 * +x: a copy with the same dtype (bool is rejected, as NumPy).
 * @example
 * positive(fromArray([-1, 2])); // [-1, 2]
 */
export function positive<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('positive', opts?.backend, () => elementwiseOp('positive', numeric, x));
}

/**
 * x * x, keeping the dtype (integers wrap).
 * @example
 * square(fromArray([-3, 2])); // [9, 4]
 */
export function square<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('square', opts?.backend, () => elementwiseOp('square', keep, x));
}

/**
 * 1 / x. Integers give float64 (the Array API's floating reciprocal; NumPy's integer
 * reciprocal truncates to 0).
 * @example
 * reciprocal(fromArray([2, 4])); // [0.5, 0.25]
 */
export function reciprocal<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('reciprocal', opts?.backend, () =>
    elementwiseOp('reciprocal', toFloat, x),
  );
}

/**
 * Round toward zero; integer dtypes are returned unchanged in value and dtype.
 * @example
 * trunc(fromArray([-1.7, 1.7])); // [-1, 1]
 */
export function trunc<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('trunc', opts?.backend, () => elementwiseOp('trunc', keep, x));
}
