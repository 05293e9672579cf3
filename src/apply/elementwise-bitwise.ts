// Bitwise elementwise functions (and, or, xor, invert, shifts) on integer and bool arrays.
// A float dtype is a DTypeError when the graph is built, as the Array API requires.

import type { KnownIn } from '../array/known-shape.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import { type CallOptions, withCallBackend } from '../dispatch/with-backend.ts';
import { ValueError } from '../errors.ts';
import type { Operand } from './elementwise.ts';
import { elementwiseOp } from './elementwise-arith.ts';
import { integerOnly, integerOrBool } from './elementwise-dtypes.ts';

/**
 * x1 & x2 per element (integer or bool dtypes).
 * @example
 * bitwiseAnd(fromArray(new Int32Array([12, 10])), 6); // [4, 2]
 */
export function bitwiseAnd<X1 extends Operand, X2 extends Operand>(
  x1: X1,
  x2: X2,
  opts?: CallOptions,
): LazyArray<KnownIn<[X1, X2]>> {
  return withCallBackend('bitwiseAnd', opts?.backend, () =>
    elementwiseOp('bitwiseAnd', integerOrBool, x1, x2),
  );
}

/**
 * x1 | x2 per element (integer or bool dtypes).
 * @example
 * bitwiseOr(fromArray(new Int32Array([12, 10])), 1); // [13, 11]
 */
export function bitwiseOr<X1 extends Operand, X2 extends Operand>(
  x1: X1,
  x2: X2,
  opts?: CallOptions,
): LazyArray<KnownIn<[X1, X2]>> {
  return withCallBackend('bitwiseOr', opts?.backend, () =>
    elementwiseOp('bitwiseOr', integerOrBool, x1, x2),
  );
}

/**
 * x1 ^ x2 per element (integer or bool dtypes).
 * @example
 * bitwiseXor(fromArray(new Int32Array([12, 10])), 6); // [10, 12]
 */
export function bitwiseXor<X1 extends Operand, X2 extends Operand>(
  x1: X1,
  x2: X2,
  opts?: CallOptions,
): LazyArray<KnownIn<[X1, X2]>> {
  return withCallBackend('bitwiseXor', opts?.backend, () =>
    elementwiseOp('bitwiseXor', integerOrBool, x1, x2),
  );
}

/**
 * ~x per element: every bit flipped in the dtype's width; for bool, logical not.
 * @example
 * bitwiseInvert(fromArray(new Uint8Array([0, 255]))); // [255, 0]
 */
export function bitwiseInvert<X extends Operand>(
  x: X,
  opts?: CallOptions,
): LazyArray<KnownIn<[X]>> {
  return withCallBackend('bitwiseInvert', opts?.backend, () =>
    elementwiseOp('bitwiseInvert', integerOrBool, x),
  );
}

function checkShift(fn: string, y: Operand): void {
  if (typeof y === 'number' && (y < 0 || !Number.isInteger(y))) {
    throw new ValueError(`${fn}: the shift must be a non-negative integer, got ${y}`);
  }
}

/**
 * x1 << x2 per element (integer dtypes); shifting by the width or more gives 0.
 * @example
 * bitwiseLeftShift(fromArray(new Int32Array([1, 3])), 2); // [4, 12]
 */
export function bitwiseLeftShift<X1 extends Operand, X2 extends Operand>(
  x1: X1,
  x2: X2,
  opts?: CallOptions,
): LazyArray<KnownIn<[X1, X2]>> {
  return withCallBackend('bitwiseLeftShift', opts?.backend, () => {
    checkShift('bitwiseLeftShift', x2);
    return elementwiseOp('bitwiseLeftShift', integerOnly, x1, x2);
  });
}

/**
 * x1 >> x2 per element (integer dtypes): arithmetic for signed (the sign fills), logical
 * for unsigned.
 * @example
 * bitwiseRightShift(fromArray(new Int32Array([-8, 8])), 2); // [-2, 2]
 */
export function bitwiseRightShift<X1 extends Operand, X2 extends Operand>(
  x1: X1,
  x2: X2,
  opts?: CallOptions,
): LazyArray<KnownIn<[X1, X2]>> {
  return withCallBackend('bitwiseRightShift', opts?.backend, () => {
    checkShift('bitwiseRightShift', x2);
    return elementwiseOp('bitwiseRightShift', integerOnly, x1, x2);
  });
}
