// The header of a NumPy .npy file (format versions 1–3): magic, version, and the Python
// dict literal that gives the dtype, the memory order and the shape.

import type { DType } from '../array/dtype.ts';
import { DTypeError, ValueError } from '../errors.ts';

/** What a .npy header says about the array after it. */
export interface NpyHeader {
  readonly dtype: DType;
  readonly bigEndian: boolean;
  readonly fortran: boolean;
  readonly shape: number[];
  /** Byte offset of the data. */
  readonly dataOffset: number;
}

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY

// NumPy type codes (kind + size) tessera stores; '|b1' is NumPy's bool.
const CODES: Record<string, DType> = {
  f8: 'float64',
  f4: 'float32',
  f2: 'float16',
  i8: 'int64',
  i4: 'int32',
  i2: 'int16',
  i1: 'int8',
  u8: 'uint64',
  u4: 'uint32',
  u2: 'uint16',
  u1: 'uint8',
  b1: 'bool',
  c8: 'complex64',
  c16: 'complex128',
};

/** Bytes to read to be sure to hold the fixed part of any header (magic to length). */
export const NPY_PREAMBLE_BYTES = 12;

/**
 * The header length and where it starts, from the first bytes of a file.
 * @example
 * npyPreamble(bytes, 'data.npy'); // { headerStart: 10, headerLength: 118, utf8: false }
 */
export function npyPreamble(
  bytes: Uint8Array,
  where: string,
): { headerStart: number; headerLength: number; utf8: boolean } {
  if (bytes.length < 10 || MAGIC.some((b, i) => bytes[i] !== b)) {
    throw new ValueError(`fromNpy: ${where} is not a .npy file (no \\x93NUMPY magic)`);
  }
  const major = bytes[6]!;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (major === 1) return { headerStart: 10, headerLength: view.getUint16(8, true), utf8: false };
  if ((major === 2 || major === 3) && bytes.length >= 12) {
    return { headerStart: 12, headerLength: view.getUint32(8, true), utf8: major === 3 };
  }
  throw new ValueError(`fromNpy: ${where} has .npy format version ${major}, not 1, 2 or 3`);
}

/**
 * Parse the header dict, e.g. `{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }`.
 * @example
 * parseNpyHeader("{'descr': '<i4', 'fortran_order': False, 'shape': (5,), }", 128, 'x.npy');
 * // { dtype: 'int32', bigEndian: false, fortran: false, shape: [5], dataOffset: 128 }
 */
export function parseNpyHeader(text: string, dataOffset: number, where: string): NpyHeader {
  const descr = /['"]descr['"]\s*:\s*['"]([^'"]*)['"]/.exec(text)?.[1];
  const fortran = /['"]fortran_order['"]\s*:\s*(True|False)/.exec(text)?.[1];
  const shape = /['"]shape['"]\s*:\s*\(([^)]*)\)/.exec(text)?.[1];
  if (descr === undefined || fortran === undefined || shape === undefined) {
    if (/['"]descr['"]\s*:\s*\[/.test(text)) {
      throw new DTypeError(
        `fromNpy: ${where} holds a structured dtype, which tessera does not store`,
      );
    }
    throw new ValueError(
      `fromNpy: ${where} has a header tessera cannot read: ${JSON.stringify(text)}`,
    );
  }
  const order = descr[0]!;
  const dtype = CODES[descr.slice(1)];
  if (!'<>|='.includes(order) || dtype === undefined) {
    throw new DTypeError(
      `fromNpy: ${where} holds dtype '${descr}'; tessera reads float64, float32, float16, int64, int32, int16, int8, uint64, uint32, uint16, uint8 and bool`,
    );
  }
  const dims = shape
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map(Number);
  if (dims.some((d) => !Number.isSafeInteger(d) || d < 0)) {
    throw new ValueError(`fromNpy: ${where} has shape (${shape}), not non-negative integers`);
  }
  return { dtype, bigEndian: order === '>', fortran: fortran === 'True', shape: dims, dataOffset };
}
