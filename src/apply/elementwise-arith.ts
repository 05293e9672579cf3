// Arithmetic elementwise functions: binary operators, maximum/minimum and unary math.
// Each call adds one fusable 'ew' layer; dtypes follow NumPy (integers wrap at their width).

import type { KnownIn } from '../array/known-shape.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import { type CallOptions, withCallBackend } from '../dispatch/with-backend.ts';
import { ValueError } from '../errors.ts';
import { elementwise, node, type Operand } from './elementwise.ts';
import {
  boolToInt8,
  checkScalarsFit,
  type DTypeRule,
  keep,
  magnitude,
  numeric,
  promoted,
  toFloat,
} from './elementwise-dtypes.ts';

/**
 * One elementwise op named `fn` over `operands`, its dtype from `rule`; its sizes are known
 * when every operand's are (broadcasting known sizes gives known sizes).
 */
export function elementwiseOp<A extends readonly Operand[]>(
  fn: string,
  rule: DTypeRule,
  ...operands: A
): LazyArray<KnownIn<A>> {
  const out = elementwise(fn, operands, (args) => {
    const d = rule(fn, promoted(args));
    checkScalarsFit(fn, args, d);
    return {
      expr: node(
        fn,
        args.map((a) => a.leaf),
        d,
      ),
      dtype: d,
    };
  });
  return out as LazyArray<KnownIn<A>>;
}

/**
 * x + y with broadcasting; integers wrap, bool + bool is logical or (as NumPy).
 * @example
 * add(fromArray([1, 2, 3]), 1); // [2, 3, 4]
 */
export function add<X extends Operand, Y extends Operand>(
  x: X,
  y: Y,
  opts?: CallOptions,
): LazyArray<KnownIn<[X, Y]>> {
  return withCallBackend('add', opts?.backend, () => elementwiseOp('add', keep, x, y));
}

/**
 * x - y with broadcasting; numbers work on either side.
 * @example
 * subtract(10, fromArray([1, 2])); // [9, 8]
 */
export function subtract<X extends Operand, Y extends Operand>(
  x: X,
  y: Y,
  opts?: CallOptions,
): LazyArray<KnownIn<[X, Y]>> {
  return withCallBackend('subtract', opts?.backend, () => elementwiseOp('subtract', numeric, x, y));
}

/**
 * x * y with broadcasting; int32 products wrap exactly (Math.imul).
 * @example
 * multiply(fromArray([[1], [2]]), fromArray([1, 10])); // [[1, 10], [2, 20]]
 */
export function multiply<X extends Operand, Y extends Operand>(
  x: X,
  y: Y,
  opts?: CallOptions,
): LazyArray<KnownIn<[X, Y]>> {
  return withCallBackend('multiply', opts?.backend, () => elementwiseOp('multiply', keep, x, y));
}

/**
 * True division: integers give float64, float32 stays float32.
 * @example
 * divide(fromArray(new Int32Array([1, 3])), 2); // float64 [0.5, 1.5]
 */
export function divide<X extends Operand, Y extends Operand>(
  x: X,
  y: Y,
  opts?: CallOptions,
): LazyArray<KnownIn<[X, Y]>> {
  return withCallBackend('divide', opts?.backend, () => elementwiseOp('divide', toFloat, x, y));
}

/**
 * Division rounded toward -Infinity (Python's //); integer division by zero gives 0.
 * @example
 * floorDivide(fromArray(new Int32Array([-7, 7])), 2); // [-4, 3]
 */
export function floorDivide<X extends Operand, Y extends Operand>(
  x: X,
  y: Y,
  opts?: CallOptions,
): LazyArray<KnownIn<[X, Y]>> {
  return withCallBackend('floorDivide', opts?.backend, () =>
    elementwiseOp('floorDivide', boolToInt8, x, y),
  );
}

/**
 * Remainder with the sign of the divisor (Python's %); integer x % 0 gives 0.
 * @example
 * remainder(fromArray(new Int32Array([-7, 7])), 3); // [2, 1]
 */
export function remainder<X extends Operand, Y extends Operand>(
  x: X,
  y: Y,
  opts?: CallOptions,
): LazyArray<KnownIn<[X, Y]>> {
  return withCallBackend('remainder', opts?.backend, () =>
    elementwiseOp('remainder', boolToInt8, x, y),
  );
}

/**
 * x ** y; integer dtypes stay integer (wrapping), so a negative integer scalar exponent
 * is a ValueError (as NumPy).
 * @example
 * pow(fromArray([1, 2, 3]), 2); // [1, 4, 9]
 */
export function pow<X extends Operand, Y extends Operand>(
  x: X,
  y: Y,
  opts?: CallOptions,
): LazyArray<KnownIn<[X, Y]>> {
  return withCallBackend('pow', opts?.backend, () => powOp(x, y)) as LazyArray<KnownIn<[X, Y]>>;
}

function powOp(x: Operand, y: Operand): LazyArray {
  return elementwise('pow', [x, y], (args) => {
    const d = boolToInt8('pow', promoted(args));
    checkScalarsFit('pow', args, d);
    const e = args[1]!.type;
    if (d !== 'float32' && d !== 'float64' && typeof e === 'number' && e < 0) {
      throw new ValueError(
        `pow: integers to negative integer powers are not allowed (exponent ${e})`,
      );
    }
    return { expr: node('pow', [args[0]!.leaf, args[1]!.leaf], d), dtype: d };
  });
}

/**
 * The larger of x and y per element; NaN propagates.
 * @example
 * maximum(fromArray([1, 5]), 3); // [3, 5]
 */
export function maximum<X extends Operand, Y extends Operand>(
  x: X,
  y: Y,
  opts?: CallOptions,
): LazyArray<KnownIn<[X, Y]>> {
  return withCallBackend('maximum', opts?.backend, () => elementwiseOp('maximum', keep, x, y));
}

/**
 * The smaller of x and y per element; NaN propagates.
 * @example
 * minimum(fromArray([1, 5]), 3); // [1, 3]
 */
export function minimum<X extends Operand, Y extends Operand>(
  x: X,
  y: Y,
  opts?: CallOptions,
): LazyArray<KnownIn<[X, Y]>> {
  return withCallBackend('minimum', opts?.backend, () => elementwiseOp('minimum', keep, x, y));
}

/**
 * -x, keeping the dtype (unsigned integers wrap).
 * @example
 * negative(fromArray([1, -2])); // [-1, 2]
 */
export function negative<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('negative', opts?.backend, () => elementwiseOp('negative', numeric, x));
}

/**
 * |x|, keeping the dtype (abs of int8 -128 wraps to -128, as NumPy); for complex the
 * magnitude hypot(re, im) in the float dtype of the parts (complex64 → float32).
 * @example
 * abs(fromArray([-1.5, 2])); // [1.5, 2]
 */
export function abs<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('abs', opts?.backend, () => elementwiseOp('abs', magnitude, x));
}

/**
 * -1, 0 or 1 by the sign of x (NaN stays NaN), keeping the dtype.
 * @example
 * sign(fromArray([-3, 0, 2])); // [-1, 0, 1]
 */
export function sign<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('sign', opts?.backend, () => elementwiseOp('sign', numeric, x));
}

/**
 * Square root; integers give float64.
 * @example
 * sqrt(fromArray([4, 9])); // [2, 3]
 */
export function sqrt<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('sqrt', opts?.backend, () => elementwiseOp('sqrt', toFloat, x));
}

/**
 * e ** x; integers give float64.
 * @example
 * exp(fromArray([0])); // [1]
 */
export function exp<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('exp', opts?.backend, () => elementwiseOp('exp', toFloat, x));
}

/**
 * e ** x - 1, accurate near 0.
 * @example
 * expm1(fromArray([1e-10])); // [1.00000000005e-10]
 */
export function expm1<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('expm1', opts?.backend, () => elementwiseOp('expm1', toFloat, x));
}

/**
 * Natural logarithm (log of a negative number is NaN, of 0 is -Infinity).
 * @example
 * log(fromArray([1, Math.E])); // [0, 1]
 */
export function log<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('log', opts?.backend, () => elementwiseOp('log', toFloat, x));
}

/**
 * log(1 + x), accurate near 0.
 * @example
 * log1p(fromArray([0])); // [0]
 */
export function log1p<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('log1p', opts?.backend, () => elementwiseOp('log1p', toFloat, x));
}

/**
 * Sine (radians).
 * @example
 * sin(fromArray([0])); // [0]
 */
export function sin<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('sin', opts?.backend, () => elementwiseOp('sin', toFloat, x));
}

/**
 * Cosine (radians).
 * @example
 * cos(fromArray([0])); // [1]
 */
export function cos<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('cos', opts?.backend, () => elementwiseOp('cos', toFloat, x));
}

/**
 * Tangent (radians).
 * @example
 * tan(fromArray([0])); // [0]
 */
export function tan<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('tan', opts?.backend, () => elementwiseOp('tan', toFloat, x));
}

/**
 * Hyperbolic tangent.
 * @example
 * tanh(fromArray([0])); // [0]
 */
export function tanh<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('tanh', opts?.backend, () => elementwiseOp('tanh', toFloat, x));
}

/**
 * Round toward -Infinity; integer dtypes are returned unchanged in value and dtype.
 * @example
 * floor(fromArray([-1.5, 1.5])); // [-2, 1]
 */
export function floor<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('floor', opts?.backend, () => elementwiseOp('floor', keep, x));
}

/**
 * Round toward +Infinity; integer dtypes are returned unchanged in value and dtype.
 * @example
 * ceil(fromArray([-1.5, 1.5])); // [-1, 2]
 */
export function ceil<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('ceil', opts?.backend, () => elementwiseOp('ceil', keep, x));
}

/**
 * Round to the nearest integer, halves to even (NumPy's round).
 * @example
 * round(fromArray([0.5, 1.5, 2.5, -0.5])); // [0, 2, 2, -0]
 */
export function round<X extends Operand>(x: X, opts?: CallOptions): LazyArray<KnownIn<[X]>> {
  return withCallBackend('round', opts?.backend, () => elementwiseOp('round', keep, x));
}
