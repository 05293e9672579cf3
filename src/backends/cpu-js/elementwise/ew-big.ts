// The JS source of elementwise ops on int64 and uint64 values (BigInts), and the conversions
// between BigInt and number values that the generated loops make where dtypes meet.

import { type DType, isBigDType, kindOf } from '../../../array/dtype.ts';

/** A value type while compiling: a dtype, or a weak JS scalar (a literal not yet cast). */
export type ValType = DType | 'weak';

/** True where a value of this type is a BigInt in the generated code. */
export const isBig = (t: ValType): boolean => t !== 'weak' && isBigDType(t);

/** Wrap a BigInt expression to the width of `d` (int64 or uint64). */
export function wrapBig(code: string, d: DType): string {
  return d === 'uint64' ? `BigInt.asUintN(64, ${code})` : `BigInt.asIntN(64, ${code})`;
}

/** A weak scalar `v` as a BigInt literal of `d`: truncated and wrapped as a C cast does. */
export function bigLiteral(v: number, d: DType): string {
  const t = Math.trunc(v);
  const b = t - t !== 0 ? -(2n ** 63n) : BigInt(t);
  const w = d === 'uint64' ? BigInt.asUintN(64, b) : BigInt.asIntN(64, b);
  return w < 0n ? `(${w}n)` : `${w}n`;
}

/**
 * Source converting `code`, a value of type `from`, to a value of dtype `to` where one of
 * them is int64 or uint64 (undefined when neither is, or no conversion is needed).
 */
export function convertBig(code: string, from: DType, to: DType): string | undefined {
  if (from === to) return undefined;
  const fb = isBigDType(from);
  const tb = isBigDType(to);
  if (!fb && !tb) return undefined;
  if (fb && tb) return wrapBig(code, to);
  if (tb) {
    // number → BigInt: integers exactly (then wrapped into uint64), floats as C truncates
    const k = kindOf(from);
    if (k === 'float') return `H.floatToBig(${code}, ${to === 'uint64'})`;
    const b = `BigInt(${code})`;
    return to === 'uint64' && k === 'int' ? wrapBig(b, to) : b;
  }
  // BigInt → number
  const k = kindOf(to);
  if (k === 'float') return `Number(${code})`;
  if (k === 'bool') return `(${code} !== 0n ? 1 : 0)`;
  // narrower integers keep the low bits, exactly (Number(x) could round first)
  const bits = to.endsWith('8') ? 8 : to.endsWith('16') ? 16 : 32;
  return `Number(BigInt.as${k === 'uint' ? 'Uint' : 'Int'}N(${bits}, ${code}))`;
}

/**
 * Comparison operators for BigInt values: loose equality is exact between BigInts and between
 * a BigInt and a weak number scalar, where strict equality would never hold for the latter.
 */
const LOOSE_COMPARISONS: Readonly<Record<string, string>> = {
  equal: '==',
  notEqual: '!=',
  less: '<',
  lessEqual: '<=',
  greater: '>',
  greaterEqual: '>=',
};

/** The truthiness of a value of type `t` as a JS boolean expression. */
export function truthy(code: string, t: ValType): string {
  return isBig(t) ? `(${code} !== 0n)` : `(${code} !== 0)`;
}

/**
 * The body of one op node whose computation involves BigInts, before the wrap to its dtype.
 * `a` are argument codes already converted to the types the op reads (`types`).
 */
export function bigOpCode(
  op: string,
  a: readonly string[],
  d: DType,
  types: readonly ValType[],
): string {
  const [x, y, z] = a as [string, string, string];
  const [tx, ty] = types as [ValType, ValType];
  const unsigned = d === 'uint64';
  const cmp = LOOSE_COMPARISONS[op];
  if (cmp !== undefined) return `(${x} ${cmp} ${y} ? 1 : 0)`;
  switch (op) {
    case 'add':
      return `(${x} + ${y})`;
    case 'subtract':
      return `(${x} - ${y})`;
    case 'multiply':
      return `(${x} * ${y})`;
    case 'square':
      return `(${x} * ${x})`;
    case 'negative':
      return `(-${x})`;
    case 'positive':
    case 'trunc':
    case 'floor':
    case 'ceil':
    case 'round':
    case 'astype':
      return x;
    case 'abs':
      return unsigned ? x : `(${x} < 0n ? -${x} : ${x})`;
    case 'sign':
      return `(${x} > 0n ? 1n : ${x} < 0n ? -1n : 0n)`;
    case 'reciprocal':
      return `H.reciprocalBig(${x})`;
    case 'floorDivide':
      return `H.floorDivideBig(${x}, ${y})`;
    case 'remainder':
      return `H.remainderBig(${x}, ${y})`;
    case 'pow':
      return `H.powBig(${x}, ${y}, ${unsigned})`;
    case 'maximum':
      return `(${x} >= ${y} ? ${x} : ${y})`;
    case 'minimum':
      return `(${x} <= ${y} ? ${x} : ${y})`;
    case 'where':
      return `(${truthy(x, tx)} ? ${y} : ${z})`;
    case 'bitwiseAnd':
      return `(${x} & ${y})`;
    case 'bitwiseOr':
      return `(${x} | ${y})`;
    case 'bitwiseXor':
      return `(${x} ^ ${y})`;
    case 'bitwiseInvert':
      return `(~${x})`;
    case 'bitwiseLeftShift':
      // NumPy gives 0 for shifts of at least the width, as here
      return `(${y} < 0n || ${y} > 63n ? 0n : ${x} << ${y})`;
    case 'bitwiseRightShift':
      return unsigned
        ? `(${y} < 0n || ${y} > 63n ? 0n : ${x} >> ${y})`
        : `(${x} >> (${y} < 0n || ${y} > 63n ? 63n : ${y}))`;
    case 'logicalAnd':
      return `(${truthy(x, tx)} && ${truthy(y, ty)} ? 1 : 0)`;
    case 'logicalOr':
      return `(${truthy(x, tx)} || ${truthy(y, ty)} ? 1 : 0)`;
    case 'logicalXor':
      return `(${truthy(x, tx)} !== ${truthy(y, ty)} ? 1 : 0)`;
    case 'logicalNot':
      return `(${truthy(x, tx)} ? 0 : 1)`;
    case 'isnan':
    case 'isinf':
      return '0';
    case 'isfinite':
      return '1';
    case 'signbit':
      return `(${x} < 0n ? 1 : 0)`;
    default:
      throw new Error(`ew: op '${op}' has no int64 form`);
  }
}

const MIN64 = -(2n ** 63n);

/** Scalar semantics of int64/uint64 ops that the generated loops call (NumPy's). */
export const bigHelpers = {
  /** A float as int64/uint64 bits, as C truncates; NaN and ±Infinity give 2^63's bits. */
  floatToBig(v: number, unsigned: boolean): bigint {
    const t = Math.trunc(v);
    const b = t - t !== 0 ? MIN64 : BigInt(t);
    return unsigned ? BigInt.asUintN(64, b) : BigInt.asIntN(64, b);
  },
  /** Floor division; 0 for a zero divisor (as NumPy, which warns). */
  floorDivideBig(a: bigint, b: bigint): bigint {
    if (b === 0n) return 0n;
    const q = a / b;
    return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
  },
  /** Remainder with the sign of the divisor; 0 for a zero divisor. */
  remainderBig(a: bigint, b: bigint): bigint {
    if (b === 0n) return 0n;
    const r = a % b;
    return r !== 0n && r < 0n !== b < 0n ? r + b : r;
  },
  /** Power modulo 2^64 by squaring; a negative exponent gives the truncated true value. */
  powBig(a: bigint, b: bigint, unsigned: boolean): bigint {
    if (b < 0n) return a === 1n ? 1n : a === -1n ? (b % 2n === 0n ? 1n : -1n) : 0n;
    const wrap = unsigned
      ? (v: bigint) => BigInt.asUintN(64, v)
      : (v: bigint) => BigInt.asIntN(64, v);
    let r = 1n;
    let base = a;
    let e = b;
    while (e > 0n) {
      if ((e & 1n) === 1n) r = wrap(r * base);
      base = wrap(base * base);
      e >>= 1n;
    }
    return r;
  },
  /** 1 / x truncated, as NumPy's integer reciprocal (0 for x = 0). */
  reciprocalBig(x: bigint): bigint {
    return x === 1n ? 1n : x === -1n ? -1n : 0n;
  },
};
