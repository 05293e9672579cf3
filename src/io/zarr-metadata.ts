// The zarr.json toZarr writes (Zarr v3 core spec, "Array metadata"): a fill_value valid for its
// data type, and the `tessera` attribute that says whether every chunk was written.

import type { DType } from '../array/dtype.ts';
import { integerRange, isBigDType, kindOf } from '../array/dtype.ts';
import { ValueError } from '../errors.ts';

/** Zarr v3 codec metadata, as zarr.json holds it. */
export interface CodecMetadata {
  readonly name: string;
  readonly configuration?: Record<string, unknown>;
}

/** What toZarr keeps in the array's attributes; `complete` turns true after the last chunk. */
export interface TesseraAttribute {
  readonly complete: boolean;
}

/** The key under which toZarr's attribute lives in `attributes`. */
export const TESSERA_ATTRIBUTE = 'tessera';

/**
 * `value` as a Zarr v3 fill_value of `dtype`: a boolean for bool, an integer in range for
 * integers (a safe integer, |v| < 2^53, for int64 and uint64), a number or "NaN" /
 * "Infinity" / "-Infinity" for floats (JSON has no NaN).
 * @example
 * encodeFillValue(Number.NaN, 'float32'); // 'NaN'
 * encodeFillValue(0, 'bool'); // false
 */
export function encodeFillValue(value: number | boolean, dtype: DType): number | boolean | string {
  const bad = (why: string): ValueError =>
    new ValueError(`toZarr: fillValue ${String(value)} is not ${why} (dtype ${dtype})`);
  const kind = kindOf(dtype);
  if (kind === 'bool') {
    if (typeof value === 'boolean') return value;
    if (value === 0 || value === 1) return value === 1;
    throw bad('a boolean');
  }
  if (typeof value !== 'number') throw bad('a number');
  if (kind === 'float') {
    if (Number.isNaN(value)) return 'NaN';
    if (value === Number.POSITIVE_INFINITY) return 'Infinity';
    if (value === Number.NEGATIVE_INFINITY) return '-Infinity';
    return value;
  }
  if (isBigDType(dtype)) {
    // JSON numbers past 2^53 would not read back as the same integer elsewhere
    const lo = dtype === 'uint64' ? 0 : Number.MIN_SAFE_INTEGER;
    if (!Number.isSafeInteger(value) || value < lo) {
      throw bad(`an integer in ${lo}…${Number.MAX_SAFE_INTEGER}`);
    }
    return value;
  }
  const [lo, hi] = integerRange(dtype)!;
  if (!Number.isInteger(value) || value < lo || value > hi) throw bad(`an integer in ${lo}…${hi}`);
  return value;
}

/** The codecs of an array written without any: its bytes, little-endian (spec: one array→bytes codec). */
export const DEFAULT_CODECS: readonly CodecMetadata[] = [
  { name: 'bytes', configuration: { endian: 'little' } },
];

export interface ArrayDocument {
  readonly shape: readonly number[];
  readonly chunkShape: readonly number[];
  readonly dtype: DType;
  readonly codecs: readonly CodecMetadata[];
  readonly fillValue: number | boolean | string;
  readonly complete: boolean;
}

/**
 * The bytes of a zarr.json for an array, with the tessera completion attribute.
 * @example
 * const bytes = arrayDocument({ shape: [4], chunkShape: [2], dtype: 'float64',
 *   codecs: DEFAULT_CODECS, fillValue: 0, complete: false });
 */
export function arrayDocument(d: ArrayDocument): Uint8Array {
  const doc = {
    zarr_format: 3,
    node_type: 'array',
    shape: d.shape,
    data_type: d.dtype,
    chunk_grid: { name: 'regular', configuration: { chunk_shape: d.chunkShape } },
    chunk_key_encoding: { name: 'default', configuration: { separator: '/' } },
    fill_value: d.fillValue,
    codecs: d.codecs,
    attributes: { [TESSERA_ATTRIBUTE]: { complete: d.complete } satisfies TesseraAttribute },
  };
  return new TextEncoder().encode(JSON.stringify(doc, null, 2));
}

/**
 * Whether an array's attributes say a toZarr began writing it and did not finish: undefined
 * when tessera did not write it (no attribute), else whether it is incomplete.
 * @example
 * isIncomplete({ tessera: { complete: false } }); // true
 */
export function isIncomplete(attrs: Record<string, unknown> | undefined): boolean | undefined {
  const mark = attrs?.[TESSERA_ATTRIBUTE] as Partial<TesseraAttribute> | undefined;
  if (mark === undefined || mark === null || typeof mark !== 'object') return undefined;
  return mark.complete !== true;
}
