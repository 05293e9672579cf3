// Comparisons, logical ops, NaN tests, where, clip and astype.
// Each call adds one fusable 'ew' layer; comparisons of integers with numbers are exact.

import { checkDType, type DType, integerRange, isComplex, isInteger } from '../array/dtype.ts';
import { asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import type { Expr } from '../backends/cpu-js/elementwise/expr.ts';
import { type CallOptions, withCallBackend } from '../dispatch/with-backend.ts';
import { DTypeError } from '../errors.ts';
import { elementwise, node, type Operand } from './elementwise.ts';
import { elementwiseOp } from './elementwise-arith.ts';
import { checkScalarsFit, promoted, toBool } from './elementwise-dtypes.ts';

/**
 * x == y per element (bool); NaN equals nothing.
 * @example
 * equal(fromArray([1, 2]), 2); // [false, true]
 */
export function equal<X extends Operand, Y extends Operand>(
  x: X,
  y: Y,
  opts?: CallOptions,
): LazyArray<KnownIn<[X, Y]>> {
  return withCallBackend('equal', opts?.backend, () => elementwiseOp('equal', toBool, x, y));
}

/**
 * x != y per element (bool); NaN differs from everything.
 * @example
 * notEqual(fromArray([1, 2]), 2); // [true, false]
 */
export function notEqual<X extends Operand, Y extends Operand>(
  x: X,
  y: Y,
  opts?: CallOptions,
): LazyArray<KnownIn<[X, Y]>> {
  return withCallBackend('notEqual', opts?.backend, () => elementwiseOp('notEqual', toBool, x, y));
}

/**
 * x < y per element (bool).
 * @example
 * less(fromArray([1, 2]), 2); // [true, false]
 */
export function less<X extends Operand, Y extends Operand>(
  x: X,
  y: Y,
  opts?: CallOptions,
): LazyArray<KnownIn<[X, Y]>> {
  return withCallBackend('less', opts?.backend, () => elementwiseOp('less', toBool, x, y));
}

/**
 * x <= y per element (bool).
 * @example
 * lessEqual(fromArray([1, 3]), 2); // [true, false]
 */
export function lessEqual<X extends Operand, Y extends Operand>(
  x: X,
  y: Y,
  opts?: CallOptions,
): LazyArray<KnownIn<[X, Y]>> {
  return withCallBackend('lessEqual', opts?.backend, () =>
    elementwiseOp('lessEqual', toBool, x, y),
  );
}

/**
 * x > y per element (bool).
 * @example
 * greater(fromArray([1, 3]), 2); // [false, true]
 */
export function greater<X extends Operand, Y extends Operand>(
  x: X,
  y: Y,
  opts?: CallOptions,
): LazyArray<KnownIn<[X, Y]>> {
  return withCallBackend('greater', opts?.backend, () => elementwiseOp('greater', toBool, x, y));
}

/**
 * x >= y per element (bool).
 * @example
 * greaterEqual(fromArray([1, 2]), 2); // [false, true]
 */
export function greaterEqual<X extends Operand, Y extends Operand>(
  x: X,
  y: Y,
  opts?: CallOptions,
): LazyArray<KnownIn<[X, Y]>> {
  return withCallBackend('greaterEqual', opts?.backend, () =>
    elementwiseOp('greaterEqual', toBool, x, y),
  );
}

/**
 * Logical and (bool); nonzero values (NaN included) are true.
 * @example
 * logicalAnd(fromArray([true, true]), fromArray([true, false])); // [true, false]
 */
export function logicalAnd<X extends Operand, Y extends Operand>(
  x: X,
  y: Y,
  opts?: CallOptions,
): LazyArray<KnownIn<[X, Y]>> {
  return withCallBackend('logicalAnd', opts?.backend, () =>
    elementwiseOp('logicalAnd', toBool, x, y),
  );
}

/**
 * Logical or (bool); nonzero values are true.
 * @example
 * logicalOr(fromArray([0, 0]), fromArray([0, 2])); // [false, true]
 */
export function logicalOr<X extends Operand, Y extends Operand>(
  x: X,
  y: Y,
  opts?: CallOptions,
): LazyArray<KnownIn<[X, Y]>> {
  return withCallBackend('logicalOr', opts?.backend, () =>
    elementwiseOp('logicalOr', toBool, x, y),
  );
}

/**
 * Logical exclusive or (bool): true where exactly one of x and y is nonzero.
 * @example
 * logicalXor(fromArray([0, 1, 1]), fromArray([1, 1, 0])); // [true, false, true]
 */
export function logicalXor<X extends Operand, Y extends Operand>(
  x: X,
  y: Y,
  opts?: CallOptions,
): LazyArray<KnownIn<[X, Y]>> {
  return withCallBackend('logicalXor', opts?.backend, () =>
    elementwiseOp('logicalXor', toBool, x, y),
  );
}

/**
 * Logical not (bool): true where x is zero.
 * @example
 * logicalNot(fromArray([0, 3])); // [true, false]
 */
export function logicalNot<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('logicalNot', opts?.backend, () => elementwiseOp('logicalNot', toBool, x));
}

/**
 * True where x is NaN.
 * @example
 * isnan(fromArray([1, Number.NaN])); // [false, true]
 */
export function isnan<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('isnan', opts?.backend, () => elementwiseOp('isnan', toBool, x));
}

/**
 * True where x is neither NaN nor ±Infinity.
 * @example
 * isfinite(fromArray([1, Infinity, Number.NaN])); // [true, false, false]
 */
export function isfinite<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('isfinite', opts?.backend, () => elementwiseOp('isfinite', toBool, x));
}

/**
 * True where x is +Infinity or -Infinity.
 * @example
 * isinf(fromArray([1, -Infinity, Number.NaN])); // [false, true, false]
 */
export function isinf<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('isinf', opts?.backend, () => elementwiseOp('isinf', toBool, x));
}

/**
 * True where the sign bit of x is set: negative numbers, -0 and negative NaNs.
 * @example
 * signbit(fromArray([-1, -0, 0, 2])); // [true, true, false, false]
 */
export function signbit<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('signbit', opts?.backend, () => elementwiseOp('signbit', toBool, x));
}

/**
 * `a` where `cond` is nonzero, else `b`; broadcasts all three. The dtype is that of a
 * and b promoted.
 * @example
 * where(greater(x, 0), x, 0); // relu
 */
export function where<C extends Operand, A extends Operand, B extends Operand>(
  cond: C,
  a: A,
  b: B,
  opts?: CallOptions,
): LazyArray<KnownIn<[C, A, B]>> {
  return withCallBackend('where', opts?.backend, () => whereOp(cond, a, b)) as LazyArray<
    KnownIn<[C, A, B]>
  >;
}

function whereOp(cond: Operand, a: Operand, b: Operand): LazyArray {
  return elementwise('where', [cond, a, b], (args) => {
    const [c, x, y] = args as [(typeof args)[0], (typeof args)[0], (typeof args)[0]];
    const d = promoted([x, y]);
    checkScalarsFit('where', [x, y], d);
    return { expr: node('where', [c.leaf, x.leaf, y.leaf], d), dtype: d };
  });
}

/**
 * Limit x to [min, max] (either bound may be null). Integer scalar bounds beyond the
 * dtype's range are clamped to it; NaN in x propagates. Equals minimum(maximum(x, min), max).
 * @example
 * clip(fromArray([-2, 0.5, 3]), 0, 1); // [0, 0.5, 1]
 */
export function clip<
  X extends Operand,
  L extends Operand | null = null,
  H extends Operand | null = null,
>(x: X, min?: L, max?: H, opts?: CallOptions): LazyArray<KnownIn<[X, L, H]>> {
  return withCallBackend('clip', opts?.backend, () => clipOp(x, min, max)) as LazyArray<
    KnownIn<[X, L, H]>
  >;
}

function clipOp(x: Operand, min?: Operand | null, max?: Operand | null): LazyArray {
  const ops: Operand[] = [x];
  if (min !== undefined && min !== null) ops.push(min);
  if (max !== undefined && max !== null) ops.push(max);
  if (ops.length === 1) return asLazy(x as Exclude<Operand, number | boolean>, 'clip');
  const hasMin = min !== undefined && min !== null;
  return elementwise('clip', ops, (args) => {
    const d = promoted(args);
    const range = integerRange(d);
    const bound = (i: number, isMin: boolean): Expr => {
      const a = args[i]!;
      if (typeof a.type !== 'number' || !isInteger(d) || range === undefined) return a.leaf;
      const [lo, hi] = range;
      return { const: isMin ? Math.max(lo, a.type) : Math.min(hi, a.type) };
    };
    let e = args[0]!.leaf;
    let next = 1;
    if (hasMin) e = node('maximum', [e, bound(next++, true)], d);
    if (next < args.length) e = node('minimum', [e, bound(next, false)], d);
    return { expr: e, dtype: d };
  });
}

/**
 * Convert to `dtype`: floats to integers truncate toward zero and wrap (C casts), to bool
 * is `x != 0`, real to complex gives (x, 0); complex to a real dtype is a DTypeError (take
 * `real(x)` or `abs(x)`). The same dtype returns `x` itself.
 * @example
 * astype(fromArray([1.7, -1.7]), 'int32'); // [1, -1]
 */
export function astype<X extends Operand>(
  x: X,
  dtype: DType,
  opts?: CallOptions,
): LazyArray<KnownIn<[X]>> {
  return withCallBackend('astype', opts?.backend, () => astypeOp(x, dtype)) as LazyArray<
    KnownIn<[X]>
  >;
}

function astypeOp(x: Operand, dtype: DType): LazyArray {
  const d = checkDType('astype', dtype);
  if (typeof x !== 'number' && typeof x !== 'boolean') {
    const a = asLazy(x, 'astype');
    if (a.dtype === d) return a;
    if (isComplex(a.dtype) && !isComplex(d)) {
      // the Array API leaves complex → real undefined; NumPy drops im with a warning
      throw new DTypeError(
        `astype: casting '${a.dtype}' to '${d}' would discard the imaginary part; take real(x) or abs(x) first`,
      );
    }
  }
  return elementwise('astype', [x], ([a]) => ({ expr: node('astype', [a!.leaf], d), dtype: d }));
}
