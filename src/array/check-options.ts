// Entry validation shared by public functions: the options object, optional dtypes and
// booleans, and the data a function takes where arrays belong. Messages name the caller.

import { formatValue } from '../chunking/format.ts';
import { ValueError } from '../errors.ts';
import { checkDType, type DType } from './dtype.ts';

/**
 * The options argument: `undefined` gives `{}`; anything but a plain object is a ValueError.
 * @example
 * checkOptions('zeros', undefined); // {}
 */
export function checkOptions<O extends object>(fn: string, opts: O | undefined): O {
  if (opts === undefined) return {} as O;
  if (opts === null || typeof opts !== 'object' || Array.isArray(opts)) {
    throw new ValueError(`${fn}: options ${describe(opts)} is not an options object`);
  }
  return opts;
}

/**
 * An optional dtype option: only `undefined` means "the default"; `null` is a bad dtype.
 * @example
 * optionalDType('ones', undefined, 'float64'); // 'float64'
 */
export function optionalDType(fn: string, dtype: unknown, fallback: DType): DType {
  return checkDType(fn, dtype === undefined ? fallback : dtype);
}

/**
 * An optional boolean option (`undefined` gives `fallback`).
 * @example
 * optionalBoolean('sum', 'keepdims', undefined, false); // false
 */
export function optionalBoolean(fn: string, label: string, v: unknown, fallback: boolean): boolean {
  if (v === undefined) return fallback;
  if (typeof v !== 'boolean') {
    throw new ValueError(`${fn}: ${label} ${describe(v)} is not a boolean`);
  }
  return v;
}

/** A value quoted for a message, including the kinds JSON cannot print. */
export function describe(v: unknown): string {
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'symbol') return v.toString();
  if (typeof v === 'function') return `function ${v.name || '(anonymous)'}`;
  return formatValue(v);
}
