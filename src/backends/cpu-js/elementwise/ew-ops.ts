// The JS source of each elementwise op of the Expr IR, before the cast to its dtype, and
// which arguments a weak scalar is cast for: the one table cpu-js's loops are generated from.

import { type DType, kindOf, resultType } from '../../../array/dtype.ts';

/** Ops whose value is always representable in the node's dtype (no cast needed). */
export const EXACT: ReadonlySet<string> = new Set([
  'where',
  'maximum',
  'minimum',
  'sign',
  'floor',
  'ceil',
  'round',
  'equal',
  'notEqual',
  'less',
  'lessEqual',
  'greater',
  'greaterEqual',
  'logicalAnd',
  'logicalOr',
  'logicalNot',
  'isnan',
  'isfinite',
  'isinf',
  'signbit',
  'logicalXor',
  'positive',
  'trunc',
]);

/** Ops computed on their arguments' promoted dtype but producing bool. */
export const COMPARISONS: Record<string, string> = {
  equal: '===',
  notEqual: '!==',
  less: '<',
  lessEqual: '<=',
  greater: '>',
  greaterEqual: '>=',
};

const UNARY_MATH = new Set([
  'sqrt',
  'exp',
  'expm1',
  'log',
  'log1p',
  'log2',
  'log10',
  'sin',
  'cos',
  'tan',
  'tanh',
  'sinh',
  'cosh',
  'acos',
  'asin',
  'atan',
  'acosh',
  'asinh',
  'atanh',
]);

/** Ops that read only the truthiness or the class of a value: weak scalars stay uncast. */
export const UNCAST: ReadonlySet<string> = new Set([
  'logicalAnd',
  'logicalOr',
  'logicalNot',
  'logicalXor',
  'isnan',
  'isfinite',
  'isinf',
  'signbit',
  'astype',
]);

/** Bitwise and shift ops on integer (and, for and/or/xor/invert, bool) values. */
function bitwiseCode(op: string, x: string, y: string, d: DType): string | undefined {
  const unsigned = kindOf(d) === 'uint';
  switch (op) {
    case 'bitwiseAnd':
      return `(${x} & ${y})`;
    case 'bitwiseOr':
      return `(${x} | ${y})`;
    case 'bitwiseXor':
      return `(${x} ^ ${y})`;
    case 'bitwiseInvert':
      return d === 'bool' ? `(${x} === 0 ? 1 : 0)` : `(~${x})`;
    case 'bitwiseLeftShift':
      // C shifts by at least the width are undefined; NumPy gives 0, as here.
      return `(${y} < 0 || ${y} > 31 ? 0 : ${x} << ${y})`;
    case 'bitwiseRightShift':
      return unsigned
        ? `(${y} < 0 || ${y} > 31 ? 0 : ${x} >>> ${y})`
        : `(${x} >> (${y} < 0 || ${y} > 31 ? 31 : ${y}))`;
    default:
      return undefined;
  }
}

/** Float ops of two arguments with NumPy's semantics (helpers in elementwise.ts). */
function floatBinaryCode(op: string, x: string, y: string, d: DType): string | undefined {
  switch (op) {
    case 'atan2':
      return `Math.atan2(${x}, ${y})`;
    case 'hypot':
      return `Math.hypot(${x}, ${y})`;
    case 'copysign':
      return `H.copysign(${x}, ${y})`;
    case 'logaddexp':
      return `H.logaddexp(${x}, ${y})`;
    case 'nextafter':
      return `H.nextafter${d === 'float32' ? '32' : d === 'float16' ? '16' : '64'}(${x}, ${y})`;
    default:
      return undefined;
  }
}

/** The body of one op node, before the cast to its dtype. `a` are argument codes. */
export function opCode(op: string, a: readonly string[], d: DType): string {
  const k = kindOf(d);
  const intLike = k === 'int' || k === 'uint';
  const [x, y, z] = a as [string, string, string];
  if (op in COMPARISONS) return `(${x} ${COMPARISONS[op]} ${y} ? 1 : 0)`;
  if (UNARY_MATH.has(op)) return `Math.${op}(${x})`;
  const other = bitwiseCode(op, x, y, d) ?? floatBinaryCode(op, x, y, d);
  if (other !== undefined) return other;
  switch (op) {
    case 'add':
      return `(${x} + ${y})`;
    case 'subtract':
      return `(${x} - ${y})`;
    case 'multiply':
      return intLike ? `Math.imul(${x}, ${y})` : `(${x} * ${y})`;
    case 'divide':
      return `(${x} / ${y})`;
    case 'floorDivide':
      return intLike ? `(${y} === 0 ? 0 : Math.floor(${x} / ${y}))` : `H.floorDivide(${x}, ${y})`;
    case 'remainder':
      return intLike ? `H.remainderInt(${x}, ${y})` : `H.remainder(${x}, ${y})`;
    case 'pow':
      return intLike ? `H.powInt(${x}, ${y})` : `H.pow(${x}, ${y})`;
    case 'negative':
      return `(-${x})`;
    case 'positive':
      return x;
    case 'square':
      return intLike ? `Math.imul(${x}, ${x})` : `(${x} * ${x})`;
    case 'reciprocal':
      return `(1 / ${x})`;
    case 'trunc':
      return intLike || k === 'bool' ? x : `Math.trunc(${x})`;
    case 'abs':
      return `Math.abs(${x})`;
    case 'sign':
      return `(${x} > 0 ? 1 : ${x} < 0 ? -1 : ${x} === 0 ? 0 : ${x})`;
    case 'floor':
    case 'ceil':
      return intLike || k === 'bool' ? x : `Math.${op}(${x})`;
    case 'round':
      return intLike || k === 'bool' ? x : `H.roundHalfEven(${x})`;
    case 'maximum':
      return `Math.max(${x}, ${y})`;
    case 'minimum':
      return `Math.min(${x}, ${y})`;
    case 'where':
      return `(${x} !== 0 ? ${y} : ${z})`;
    case 'logicalAnd':
      return `(${x} !== 0 && ${y} !== 0 ? 1 : 0)`;
    case 'logicalOr':
      return `(${x} !== 0 || ${y} !== 0 ? 1 : 0)`;
    case 'logicalNot':
      return `(${x} === 0 ? 1 : 0)`;
    case 'isnan':
      return `(${x} !== ${x} ? 1 : 0)`;
    case 'isfinite':
      return `(${x} - ${x} === 0 ? 1 : 0)`;
    case 'isinf':
      return `(${x} === Infinity || ${x} === -Infinity ? 1 : 0)`;
    case 'signbit':
      return `H.signbit(${x})`;
    case 'logicalXor':
      return `((${x} !== 0) !== (${y} !== 0) ? 1 : 0)`;
    case 'astype':
      return x;
    default:
      throw new Error(`ew: unknown elementwise op '${op}'`);
  }
}

/**
 * Per argument, the dtype a weak scalar there is cast to: the promoted float dtype for
 * comparisons (integer scalars stay exact there, as NumPy 2 compares them), nothing where
 * only truthiness counts (logical ops, where's condition) or for astype, the node's
 * dtype otherwise (so `uint8 - 1` wraps and `float32 * 0.1` multiplies by fround(0.1)).
 */
export function scalarCasts(
  op: string,
  d: DType,
  args: readonly (DType | 'weak')[],
): (DType | null)[] {
  if (op in COMPARISONS) {
    const rt = resultType(...args.map((t) => (t === 'weak' ? 0.5 : t)));
    const cd = kindOf(rt) === 'float' ? rt : null;
    return args.map(() => cd);
  }
  if (op === 'where') return [null, d, d];
  if (UNCAST.has(op)) return args.map(() => null);
  return args.map(() => d);
}
