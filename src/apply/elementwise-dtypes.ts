// Result-dtype rules of elementwise operations (NumPy / Array API) and scalar checks.
// Each rule maps the promoted argument dtype to the result dtype, or rejects it.

import {
  type DType,
  integerRange,
  isComplex,
  isFloat,
  isInteger,
  realDType,
  resultType,
} from '../array/dtype.ts';
import { formatValue } from '../chunking/format.ts';
import { DTypeError, ValueError } from '../errors.ts';
import type { EwArg } from './elementwise.ts';

/** Maps the promoted dtype of the arguments to the dtype of the result. */
export type DTypeRule = (fn: string, promoted: DType) => DType;

/** The result keeps the promoted dtype. */
export const keep: DTypeRule = (_fn, d) => d;

/** As `keep`, but bool is rejected (subtract, negative, sign have no boolean meaning). */
export const numeric: DTypeRule = (fn, d) => {
  if (d === 'bool') {
    throw new DTypeError(`${fn}: not supported for dtype 'bool'; use astype(x, 'int8') first`);
  }
  return d;
};

/** Integer-valued ops on bool compute in int8, as NumPy does (floorDivide, remainder, pow). */
export const boolToInt8: DTypeRule = (_fn, d) => (d === 'bool' ? 'int8' : d);

/** Floating results: float dtypes stay, integers and bool give float64 (true division, sqrt…). */
export const toFloat: DTypeRule = (_fn, d) => (isFloat(d) || isComplex(d) ? d : 'float64');

/** abs: a complex dtype gives the float dtype of its parts (|z|); others keep theirs. */
export const magnitude: DTypeRule = (_fn, d) => realDType(d);

/** Integer or bool arguments only (bitwise and, or, xor, invert). */
export const integerOrBool: DTypeRule = (fn, d) => {
  if (isInteger(d) || d === 'bool') return d;
  throw new DTypeError(`${fn}: needs integer or bool arrays, got dtype '${d}'`);
};

/** Integer arguments only (shifts). */
export const integerOnly: DTypeRule = (fn, d) => {
  if (isInteger(d)) return d;
  throw new DTypeError(`${fn}: needs integer arrays, got dtype '${d}'`);
};

/** The result is bool (comparisons, logical ops, isnan, isfinite). */
export const toBool: DTypeRule = () => 'bool';

/** The promoted dtype of the arguments (arrays promote, scalars are weak). */
export function promoted(args: readonly EwArg[]): DType {
  return resultType(...args.map((a) => a.type));
}

/**
 * Reject integer scalars that the integer result dtype cannot hold, as NumPy 2 does for
 * Python ints (`uint8 + 300` would otherwise wrap silently).
 */
export function checkScalarsFit(fn: string, args: readonly EwArg[], d: DType): void {
  if (!isInteger(d)) return;
  const [lo, hi] = integerRange(d)!;
  for (const a of args) {
    if (typeof a.type === 'number' && (a.type < lo || a.type > hi)) {
      throw new ValueError(
        `${fn}: scalar ${formatValue(a.type)} is out of bounds for dtype '${d}' [${lo}, ${hi}]`,
      );
    }
  }
}
