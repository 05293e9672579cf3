// Kernels of creation layers: constant fill, arange, linspace and fromFunction blocks.
// Tasks carry params only (no inputs): the block's global offset, its shape and the dtype.
// int64 and uint64 blocks store BigInts: numbers convert as a C cast does (int64.ts), and
// arange computes in BigInt where doubles would no longer be exact.

import {
  allocate,
  type BigIntArray,
  type DType,
  isBigDType,
  isBigIntArray,
  isComplex,
  isInteger,
  type TypedArray,
} from '../../../array/dtype.ts';
import { float16Bits } from '../../../array/float16.ts';
import { numbersIntoBig, numberToBig } from '../../../array/int64.ts';
import { cStrides, NDArray, shapeSize } from '../../../array/ndarray.ts';
import type { Chunk, FnRef, Kernel, KernelContext } from '../../../kernels/types.ts';
import { fillSame } from '../layout/storage.ts';

/** Params of 'full': a block of `shape` filled with `value`. */
export interface FullParams {
  readonly shape: readonly number[];
  /** A number, or a BigInt (exact for int64 and uint64 blocks); a complex value's real part. */
  readonly value: number | bigint;
  /** A complex fill value's imaginary part (complex dtypes; 0 when absent). */
  readonly im?: number;
  readonly dtype: DType;
}

/** Params of 'arange': `count` values `start + (offset + i) * step`. */
export interface ArangeParams {
  /** Numbers, or BigInts (integers, exact for int64 and uint64 blocks). */
  readonly start: number | bigint;
  readonly step: number | bigint;
  readonly offset: number;
  readonly count: number;
  readonly dtype: DType;
}

/** Params of 'linspace': elements `offset … offset + count - 1` of NumPy's linspace. */
export interface LinspaceParams {
  readonly start: number;
  readonly stop: number;
  readonly num: number;
  readonly endpoint: boolean;
  readonly offset: number;
  readonly count: number;
  readonly dtype: DType;
}

/** Params of 'from-function': `fn(...globalIndex)` for each element of the block. */
export interface FromFunctionParams {
  readonly fn: FnRef;
  readonly offset: readonly number[];
  readonly shape: readonly number[];
  readonly dtype: DType;
}

/**
 * Store `v` as `dtype` does, except bool, which the typed array would not coerce to 0/1,
 * float16, whose bits are encoded, and int64/uint64, which take the numbers as a C cast
 * does (truncated, wrapped; through a float64 buffer, never a BigInt per element).
 */
function fillWith(out: TypedArray, dtype: DType, value: (i: number) => number): void {
  if (isBigIntArray(out)) {
    const values = new Float64Array(out.length);
    for (let i = 0; i < out.length; i++) values[i] = value(i);
    numbersIntoBig(values, out);
  } else if (dtype === 'bool') {
    for (let i = 0; i < out.length; i++) out[i] = value(i) !== 0 ? 1 : 0;
  } else if (dtype === 'float16') {
    for (let i = 0; i < out.length; i++) out[i] = float16Bits(value(i));
  } else for (let i = 0; i < out.length; i++) out[i] = value(i);
}

/**
 * What a block of `dtype` stores for the fill value `v`: 0/1 for bool, the bits for float16,
 * a BigInt for int64 and uint64 (a number truncated and wrapped as a C cast does).
 * @example
 * storedFill(1, 'float16'); // 0x3c00
 * storedFill(-1, 'uint64'); // -1n (the block's store wraps it to 2^64 - 1)
 */
export function storedFill(v: number | bigint, dtype: DType): number | bigint {
  if (isBigDType(dtype)) return typeof v === 'bigint' ? v : numberToBig(v);
  const x = Number(v);
  if (dtype === 'bool') return x !== 0 ? 1 : 0;
  return dtype === 'float16' ? float16Bits(x) : x;
}

/**
 * A block of `shape` filled with `value` (cast to `dtype` as a typed-array store casts).
 * @example
 * fullBlock({ shape: [2], value: 7, dtype: 'int8' }).toArray(); // [7, 7]
 * fullBlock({ shape: [1], value: 2 ** 60, dtype: 'int64' }).get(0); // 1152921504606846976n
 * fullBlock({ shape: [1], value: 2, dtype: 'complex64' }).get(0); // { re: 2, im: 0 }
 * fullBlock({ shape: [1], value: 2, im: -1, dtype: 'complex128' }).get(0); // { re: 2, im: -1 }
 */
export function fullBlock(p: FullParams): NDArray {
  const out = allocate(p.dtype, shapeSize(p.shape));
  if (isComplex(p.dtype)) {
    // (value, im) per element; a real fill value has im 0
    const x = Number(p.value);
    const y = p.im ?? 0;
    if (!Object.is(x, 0)) for (let i = 0; i < out.length; i += 2) out[i] = x;
    if (!Object.is(y, 0)) for (let i = 1; i < out.length; i += 2) out[i] = y;
    return new NDArray(out, p.shape, p.dtype);
  }
  const v = storedFill(p.value, p.dtype);
  // the block comes zeroed: only -0 and other values need a fill
  if (!Object.is(v, 0) && v !== 0n) fillSame(out, v);
  return new NDArray(out, p.shape, p.dtype);
}

/**
 * Elements `offset …` of `arange(start, …, step)`.
 * @example
 * arangeBlock({ start: 0, step: 2, offset: 3, count: 2, dtype: 'int32' }).toArray(); // [6, 8]
 */
export function arangeBlock(p: ArangeParams): NDArray {
  const out = allocate(p.dtype, p.count);
  arangeInto(out, p);
  return new NDArray(out, [p.count], p.dtype);
}

/**
 * Write the block of `p` into `out` (exactly p.count elements): arangeBlock's values, into
 * a buffer the caller reuses.
 * @example
 * arangeInto(new Int32Array(2), { start: 0, step: 2, offset: 3, count: 2, dtype: 'int32' }); // [6, 8]
 */
export function arangeInto(out: TypedArray, p: ArangeParams): void {
  const { offset } = p;
  if (isBigIntArray(out) && arangeNeedsBigInt(p, out.length)) {
    arangeBig(out, p);
    return;
  }
  const start = Number(p.start);
  const step = Number(p.step);
  fillWith(out, p.dtype, (i) => start + (offset + i) * step);
}

const isIntegral = (v: number | bigint): boolean => typeof v === 'bigint' || Number.isInteger(v);

/**
 * Whether an int64/uint64 arange block of `n` elements needs BigInt arithmetic: integer
 * start and step, and some value or product of the block beyond ±2^53, where doubles are no
 * longer exact. (A fractional start or step computes in doubles and truncates, as int32.)
 */
function arangeNeedsBigInt(p: ArangeParams, n: number): boolean {
  if (!isIntegral(p.start) || !isIntegral(p.step)) return false;
  const reach = Math.abs(Number(p.start)) + Math.abs((p.offset + n) * Number(p.step));
  return reach >= 2 ** 53;
}

/** Elements `offset …` of an integer arange, exactly: start + (offset + i) * step in BigInt. */
function arangeBig(out: BigIntArray, p: ArangeParams): void {
  const step = BigInt(p.step);
  let v = BigInt(p.start) + BigInt(p.offset) * step;
  // the store wraps modulo 2^64, as NumPy's int64 arithmetic does
  for (let i = 0; i < out.length; i++, v += step) out[i] = v;
}

/**
 * Elements `offset …` of NumPy's linspace: `start + i * step`, the last one exactly `stop`
 * with an endpoint; integer dtypes round toward -Infinity (NumPy 2).
 * @example
 * linspaceBlock({ start: 0, stop: 1, num: 5, endpoint: true, offset: 2, count: 3, dtype: 'float64' }).toArray(); // [0.5, 0.75, 1]
 */
export function linspaceBlock(p: LinspaceParams): NDArray {
  const out = allocate(p.dtype, p.count);
  linspaceInto(out, p);
  return new NDArray(out, [p.count], p.dtype);
}

/**
 * Write the block of `p` into `out` (exactly p.count elements): linspaceBlock's values,
 * into a buffer the caller reuses.
 * @example
 * linspaceInto(new Float64Array(3), { start: 0, stop: 1, num: 5, endpoint: true, offset: 2, count: 3, dtype: 'float64' }); // [0.5, 0.75, 1]
 */
export function linspaceInto(out: TypedArray, p: LinspaceParams): void {
  const div = p.endpoint ? p.num - 1 : p.num;
  const delta = p.stop - p.start;
  const step = div > 0 ? delta / div : Number.NaN;
  const last = p.endpoint && p.num > 1 ? p.num - 1 : -1;
  const toInt = isInteger(p.dtype);
  const { start, stop, offset } = p;
  fillWith(out, p.dtype, (i) => {
    const k = offset + i;
    let v: number;
    if (k === last) v = stop;
    else if (div <= 0) v = start + k * delta;
    else if (step === 0) v = start + (k / div) * delta;
    else v = start + k * step;
    return toInt ? Math.floor(v) : v;
  });
}

/**
 * A block whose elements are `fn(...globalIndex)`; booleans count as 0/1.
 * @example
 * fromFunctionBlock({ fn, offset: [2, 0], shape: [1, 3], dtype: 'float64' }, ctx);
 */
export function fromFunctionBlock(p: FromFunctionParams, ctx: KernelContext): NDArray {
  const fn = ctx.resolve(p.fn);
  const n = shapeSize(p.shape);
  const out = allocate(p.dtype, n);
  const nd = p.shape.length;
  const strides = cStrides(p.shape);
  const idx = new Array<number>(nd);
  const call = (i: number): unknown => {
    let rest = i;
    for (let ax = 0; ax < nd; ax++) {
      const q = Math.floor(rest / strides[ax]!);
      rest -= q * strides[ax]!;
      idx[ax] = p.offset[ax]! + q;
    }
    return fn(...idx);
  };
  if (isBigIntArray(out)) {
    // int64/uint64: a BigInt result is stored exactly, a number as a C cast makes it
    for (let i = 0; i < n; i++) {
      const r = call(i);
      out[i] = typeof r === 'bigint' ? r : numberToBig(Number(r));
    }
  } else fillWith(out, p.dtype, (i) => Number(call(i)));
  return new NDArray(out, p.shape, p.dtype);
}

/** The creation kernels, registered in backends/cpu-js/registry. */
export const creationKernels: Record<string, Kernel<never>> = {
  full: ((_: Chunk[], p: FullParams) => fullBlock(p)) as Kernel<never>,
  arange: ((_: Chunk[], p: ArangeParams) => arangeBlock(p)) as Kernel<never>,
  linspace: ((_: Chunk[], p: LinspaceParams) => linspaceBlock(p)) as Kernel<never>,
  'from-function': ((_: Chunk[], p: FromFunctionParams, ctx: KernelContext) =>
    fromFunctionBlock(p, ctx)) as Kernel<never>,
};
