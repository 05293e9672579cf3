// Kernels of creation layers: constant fill, arange, linspace and fromFunction blocks.
// Tasks carry params only (no inputs): the block's global offset, its shape and the dtype.

import { allocate, type DType, isInteger, type TypedArray } from '../../../array/dtype.ts';
import { float16Bits } from '../../../array/float16.ts';
import { cStrides, NDArray, shapeSize } from '../../../array/ndarray.ts';
import type { Chunk, FnRef, Kernel, KernelContext } from '../../../kernels/types.ts';

/** Params of 'full': a block of `shape` filled with `value`. */
export interface FullParams {
  readonly shape: readonly number[];
  readonly value: number;
  readonly dtype: DType;
}

/** Params of 'arange': `count` values `start + (offset + i) * step`. */
export interface ArangeParams {
  readonly start: number;
  readonly step: number;
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
 * and float16, whose bits are encoded.
 */
function fillWith(out: TypedArray, dtype: DType, value: (i: number) => number): void {
  if (dtype === 'bool') for (let i = 0; i < out.length; i++) out[i] = value(i) !== 0 ? 1 : 0;
  else if (dtype === 'float16') for (let i = 0; i < out.length; i++) out[i] = float16Bits(value(i));
  else for (let i = 0; i < out.length; i++) out[i] = value(i);
}

/**
 * What a block of `dtype` stores for the fill value `v`: 0/1 for bool, the bits for float16.
 * @example
 * storedFill(1, 'float16'); // 0x3c00
 */
export function storedFill(v: number, dtype: DType): number {
  if (dtype === 'bool') return v !== 0 ? 1 : 0;
  return dtype === 'float16' ? float16Bits(v) : v;
}

/**
 * A block of `shape` filled with `value` (cast to `dtype` as a typed-array store casts).
 * @example
 * fullBlock({ shape: [2], value: 7, dtype: 'int8' }).toArray(); // [7, 7]
 */
export function fullBlock(p: FullParams): NDArray {
  const out = allocate(p.dtype, shapeSize(p.shape));
  const v = storedFill(p.value, p.dtype);
  if (!Object.is(v, 0)) out.fill(v);
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
  const { start, step, offset } = p;
  fillWith(out, p.dtype, (i) => start + (offset + i) * step);
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
  fillWith(out, p.dtype, (i) => {
    let rest = i;
    for (let ax = 0; ax < nd; ax++) {
      const q = Math.floor(rest / strides[ax]!);
      rest -= q * strides[ax]!;
      idx[ax] = p.offset[ax]! + q;
    }
    return Number(fn(...idx));
  });
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
