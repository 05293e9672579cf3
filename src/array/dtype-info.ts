// Data type inspection of the Array API: canCast, finfo, iinfo and isdtype.
// canCast follows the promotion table: a cast is safe when promoting `from` with `to` gives `to`.

import { ValueError } from '../errors.ts';
import {
  checkDType,
  type DType,
  integerRange,
  isComplex,
  isFloat,
  isInteger,
  kindOf,
  promoteTypes,
  realDType,
} from './dtype.ts';
import { isLazyArray, type LazyArray } from './lazy-array.ts';
import { NDArray } from './ndarray.ts';

/** Machine limits of a floating dtype. */
export interface FInfo {
  readonly bits: number;
  /** The difference between 1 and the next larger value. */
  readonly eps: number;
  readonly max: number;
  readonly min: number;
  readonly smallestNormal: number;
  readonly dtype: DType;
}

/** Limits of an integer dtype. */
export interface IInfo {
  readonly bits: number;
  readonly max: number;
  readonly min: number;
  readonly dtype: DType;
}

const FLOATS: Partial<Record<DType, Omit<FInfo, 'min' | 'dtype'>>> = {
  float64: { bits: 64, eps: 2 ** -52, max: Number.MAX_VALUE, smallestNormal: 2 ** -1022 },
  float32: { bits: 32, eps: 2 ** -23, max: (2 - 2 ** -23) * 2 ** 127, smallestNormal: 2 ** -126 },
  float16: { bits: 16, eps: 2 ** -10, max: 65504, smallestNormal: 2 ** -14 },
};

const dtypeOf = (fn: string, x: DType | LazyArray | NDArray): DType =>
  isLazyArray(x) || x instanceof NDArray ? x.dtype : checkDType(fn, x);

/**
 * Limits of a floating dtype (or of an array's dtype); of a complex dtype, those of its parts.
 * @example
 * finfo('float32').eps; // 1.1920928955078125e-7
 */
export function finfo(type: DType | LazyArray | NDArray): FInfo {
  const d = dtypeOf('finfo', type);
  // a complex dtype's finfo is that of its parts (the Array API's and NumPy's choice)
  const f = FLOATS[realDType(d)];
  if (f === undefined) throw new ValueError(`finfo: '${d}' is not a floating dtype`);
  return { ...f, min: -f.max, dtype: realDType(d) };
}

/**
 * Limits of an integer dtype (or of an array's dtype).
 * @example
 * iinfo('int8'); // { bits: 8, min: -128, max: 127, dtype: 'int8' }
 */
export function iinfo(type: DType | LazyArray | NDArray): IInfo {
  const d = dtypeOf('iinfo', type);
  const r = integerRange(d);
  if (r === undefined) throw new ValueError(`iinfo: '${d}' is not an integer dtype`);
  const bits = Math.round(Math.log2(r[1] - r[0] + 1));
  return { bits, min: r[0], max: r[1], dtype: d };
}

/**
 * Whether `from` (a dtype or an array) casts to `to` without losing values, by the
 * promotion table (int32 → float64 yes, int32 → float32 no, float → int no).
 * @example
 * canCast('uint8', 'int16'); // true
 * canCast('float64', 'float32'); // false
 */
export function canCast(from: DType | LazyArray | NDArray, to: DType): boolean {
  const f = dtypeOf('canCast', from);
  const t = checkDType('canCast', to);
  return promoteTypes(f, t) === t;
}

/** The kinds isdtype accepts (the Array API's names). */
export type DTypeKindName =
  | 'bool'
  | 'signed integer'
  | 'unsigned integer'
  | 'integral'
  | 'real floating'
  | 'complex floating'
  | 'numeric';

const KINDS: Record<DTypeKindName, (d: DType) => boolean> = {
  bool: (d) => d === 'bool',
  'signed integer': (d) => kindOf(d) === 'int',
  'unsigned integer': (d) => kindOf(d) === 'uint',
  integral: isInteger,
  'real floating': isFloat,
  'complex floating': isComplex,
  numeric: (d) => isInteger(d) || isFloat(d) || isComplex(d),
};

/**
 * Whether `dtype` is of `kind`: a kind name ('bool', 'signed integer', 'unsigned integer',
 * 'integral', 'real floating', 'complex floating', 'numeric'), a dtype, or a list of these.
 * @example
 * isdtype('int16', 'integral'); // true
 * isdtype('float32', ['bool', 'real floating']); // true
 */
export function isdtype(
  dtype: DType,
  kind: DTypeKindName | DType | readonly (DTypeKindName | DType)[],
): boolean {
  const d = checkDType('isdtype', dtype);
  const kinds: readonly string[] = Array.isArray(kind) ? kind : [kind as string];
  return kinds.some((k) => {
    if (k in KINDS) return KINDS[k as DTypeKindName](d);
    return checkDType('isdtype', k) === d;
  });
}
