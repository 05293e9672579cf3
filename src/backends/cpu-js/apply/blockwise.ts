// The 'blockwise-fn' kernel: calls a user function on blocks (blockwise, mapBlocks) and
// coerces what it returns (NDArray, bare TypedArray, nested numbers, a number) to a block.
// Complex blocks reach it as NDArrays of interleaved (re, im) data and may come back so.

import { markEngineCopy } from '../../../array/buffer-pool.ts';
import {
  allocate,
  type DType,
  dtypeOfTypedArray,
  isBigIntArray,
  isComplex,
  type TypedArray,
} from '../../../array/dtype.ts';
import { numberToBig } from '../../../array/int64.ts';
import {
  isComplexValue,
  NDArray,
  type Nested,
  ndarray,
  shapeSize,
} from '../../../array/ndarray.ts';
import type { Size } from '../../../chunking/types.ts';
import { DTypeError, ShapeError } from '../../../errors.ts';
import { arrayBlock } from '../../../kernels/array-block.ts';
import type { AsyncKernel, Chunk, FnRef, KernelContext } from '../../../kernels/types.ts';
import { convertBlock } from '../layout/layout.ts';
import { writeRegion } from '../layout/slice.ts';
import { setSame } from '../layout/storage.ts';

/** Where a block sits in an array: the `blockInfo` argument of blockwise and mapBlocks kernels. */
export interface BlockLocation {
  /** Block multi-index in the block grid. */
  readonly chunkLocation: readonly number[];
  /** `[start, stop)` per axis in array coordinates; `null` where a size is unknown. */
  readonly arrayLocation: readonly (readonly [Size, Size])[];
  /** Blocks per axis. */
  readonly numChunks: readonly number[];
  /** The whole array's shape. */
  readonly shape: readonly Size[];
}

/** `blockInfo`: the output block's location, its shape and dtype, and each array input's. */
export interface BlockInfo extends BlockLocation {
  readonly chunkShape: readonly Size[];
  readonly dtype: DType;
  /** One per array argument, in argument order (contracted axes span the whole axis). */
  readonly inputs: readonly BlockLocation[];
}

/** How one argument of the user function is built from the task's inputs. */
export type BlockwiseArgSpec =
  | { readonly value: unknown }
  | { readonly block: number }
  | {
      /** Input positions, C order over `grid`. */
      readonly blocks: readonly number[];
      /** Blocks along each contracted letter of this argument. */
      readonly grid: readonly number[];
      /** The argument's axis of each contracted letter. */
      readonly axes: readonly number[];
      /** Concatenate into one block; otherwise nested lists, as Dask passes them. */
      readonly concat: boolean;
    };

/** Params of the 'blockwise-fn' kernel. */
export interface BlockwiseFnParams {
  readonly fn: FnRef;
  /** Public function named in errors ('blockwise', 'mapBlocks'). */
  readonly caller: string;
  readonly args: readonly BlockwiseArgSpec[];
  readonly hasKwargs: boolean;
  readonly kwargs?: unknown;
  readonly blockInfo: BlockInfo;
  /** Expected output block shape (`null` = unknown). */
  readonly shape: readonly Size[];
  readonly dtype: DType;
}

/** Concatenate an n-d grid of blocks (C order) along `axes` (one per grid dimension). */
export function concatGrid(
  blocks: readonly NDArray[],
  grid: readonly number[],
  axes: readonly number[],
): NDArray {
  const first = blocks[0]!;
  if (blocks.length === 1) return first;
  const strides = grid.map((_, d) => grid.slice(d + 1).reduce((a, b) => a * b, 1));
  const offsets = grid.map((n, d) => {
    const o = [0];
    for (let i = 0; i < n; i++) o.push(o[i]! + blocks[i * strides[d]!]!.shape[axes[d]!]!);
    return o;
  });
  const shape = [...first.shape];
  axes.forEach((ax, d) => {
    shape[ax] = offsets[d]![grid[d]!]!;
  });
  const out = new NDArray(allocate(first.dtype, shapeSize(shape)), shape, first.dtype);
  blocks.forEach((b, flat) => {
    const at = new Array<number>(shape.length).fill(0);
    axes.forEach((ax, d) => {
      at[ax] = offsets[d]![Math.floor(flat / strides[d]!) % grid[d]!]!;
    });
    const src = b.dtype === out.dtype ? b : convertBlock(b, out.dtype);
    writeRegion(out, src, at);
  });
  return out;
}

function nest(blocks: readonly NDArray[], grid: readonly number[]): unknown {
  if (grid.length === 0) return blocks[0];
  const n = grid[0]!;
  const step = blocks.length / n;
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) out.push(nest(blocks.slice(i * step, (i + 1) * step), grid.slice(1)));
  return out;
}

function buildArg(spec: BlockwiseArgSpec, inputs: readonly Chunk[]): unknown {
  if ('value' in spec) return spec.value;
  if ('block' in spec) return arrayBlock(inputs[spec.block], 'blockwise');
  const blocks = spec.blocks.map((i) => arrayBlock(inputs[i], 'blockwise'));
  return spec.concat ? concatGrid(blocks, spec.grid, spec.axes) : nest(blocks, spec.grid);
}

function shared(x: NDArray): NDArray {
  if (x.data.buffer instanceof SharedArrayBuffer) return x;
  const data = allocate(x.dtype, x.size);
  setSame(data, x.data);
  markEngineCopy(data);
  return new NDArray(data, x.shape, x.dtype);
}

const fmt = (s: readonly Size[]): string => `[${s.map((v) => (v === null ? '?' : v)).join(', ')}]`;

/** The shape a flat result of `size` elements takes for an expected shape, if one fits. */
function fitShape(expected: readonly Size[], size: number): number[] | undefined {
  const unknown = expected.filter((s) => s === null).length;
  const known = expected.reduce<number>((a, s) => (s === null ? a : a * s), 1);
  if (unknown === 0) return known === size ? (expected as number[]) : undefined;
  if (unknown === 1 && known > 0 && size % known === 0)
    return expected.map((s) => (s === null ? size / known : s));
  if (unknown === 1 && known === 0 && size === 0) return expected.map((s) => s ?? 0);
  return undefined;
}

function isTypedArray(x: unknown): x is TypedArray {
  return ArrayBuffer.isView(x) && !(x instanceof DataView);
}

/**
 * The complex dtype whose interleaved parts a returned Float32Array/Float64Array holds when
 * the declared dtype is complex (as `ndarray(data, shape, 'complex128')` reads it); undefined
 * for other data, whose elements are real values.
 * @example
 * complexPartsDType(new Float32Array(4), 'complex128'); // 'complex64'
 */
export function complexPartsDType(data: TypedArray, declared: DType): DType | undefined {
  if (!isComplex(declared)) return undefined;
  if (data instanceof Float64Array) return 'complex128';
  return data instanceof Float32Array ? 'complex64' : undefined;
}

/** A complex value as a one-element complex128 block of `shape` (size 1). */
const complexScalar = (v: { re: number; im: number }, shape: number[]): NDArray =>
  new NDArray(Float64Array.of(v.re, v.im), shape, 'complex128');

/**
 * A DTypeError for a complex result where `dtype` is real (its imaginary parts would be
 * dropped); undefined otherwise.
 */
export function complexIntoReal(
  got: DType,
  dtype: DType,
  what: string,
  key: string,
): DTypeError | undefined {
  if (!isComplex(got) || isComplex(dtype)) return undefined;
  return new DTypeError(
    `${what} returned ${got} data for task ${key} but its declared dtype is '${dtype}'; declare a complex dtype or return real(...)`,
  );
}

/**
 * Coerce a user kernel's result to a block of `dtype` whose shape agrees with `expected`:
 * an NDArray as is (reshaped only when its rank differs but its size fits), a bare TypedArray
 * or nested numbers reshaped, a number as a one-element block. Mismatches are ShapeErrors
 * naming the task key.
 * @example
 * coerceBlock(new Float64Array(6), [2, 3], 'float64', 'mapBlocks', 'double', 'x-0,0').shape; // [2, 3]
 */
export function coerceBlock(
  result: unknown,
  expected: readonly Size[],
  dtype: DType,
  caller: string,
  fnName: string,
  key: string,
): NDArray {
  const fail = (got: string): ShapeError =>
    new ShapeError(
      `${caller}: kernel '${fnName}' returned ${got} for task ${key}, expected a block of shape ${fmt(expected)}`,
      { key },
    );
  let arr: NDArray;
  if (result instanceof NDArray) arr = result;
  else if (isComplexValue(result)) {
    const shape = fitShape(expected, 1);
    if (shape === undefined) throw fail(`the complex value ${result.re}+${result.im}i`);
    arr = complexScalar(result, shape);
  } else if (
    typeof result === 'number' ||
    typeof result === 'boolean' ||
    typeof result === 'bigint'
  ) {
    const shape = fitShape(expected, 1);
    if (shape === undefined) throw fail(`the number ${String(result)}`);
    const data = allocate(dtype, 1);
    if (isBigIntArray(data)) {
      data[0] = typeof result === 'bigint' ? result : numberToBig(Number(result));
    } else data[0] = dtype === 'bool' ? (result ? 1 : 0) : Number(result);
    return new NDArray(data, shape, dtype);
  } else if (isTypedArray(result)) {
    const parts = complexPartsDType(result, dtype);
    const shape = fitShape(expected, parts ? result.length / 2 : result.length);
    if (shape === undefined) throw fail(`a ${result.constructor.name} of length ${result.length}`);
    arr = new NDArray(result, shape, parts ?? dtypeOfTypedArray(result));
  } else if (Array.isArray(result)) {
    arr = ndarray(result as Nested, undefined, dtype);
  } else if (isBlockLike(result)) {
    // any { shape, data } object is a block (its data's own dtype unless it says one)
    const data = isTypedArray(result.data) ? result.data : Float64Array.from(result.data);
    const said = (result as { dtype?: unknown }).dtype;
    const complex = said === 'complex64' || said === 'complex128';
    const parts = complex ? complexPartsDType(data, said) : undefined;
    if (shapeSize(result.shape) * (parts ? 2 : 1) !== data.length) {
      throw fail(`shape ${fmt(result.shape)} with ${data.length} values`);
    }
    arr = new NDArray(data, [...result.shape], parts ?? dtypeOfTypedArray(data));
  } else {
    throw fail(result === null ? 'null' : typeof result);
  }
  const known = expected.every((s) => s !== null);
  if (arr.shape.length !== expected.length) {
    if (!known || shapeSize(expected as number[]) !== arr.size)
      throw fail(`shape ${fmt(arr.shape)}`);
    arr = new NDArray(arr.data, expected as number[], arr.dtype);
  } else if (arr.shape.some((s, i) => expected[i] !== null && expected[i] !== s)) {
    throw fail(`shape ${fmt(arr.shape)}`);
  }
  const lossy = complexIntoReal(arr.dtype, dtype, `${caller}: kernel '${fnName}'`, key);
  if (lossy) throw lossy;
  return shared(convertBlock(arr, dtype));
}

/** An object with a shape (integers) and data (a TypedArray or numbers), as kernels may return. */
function isBlockLike(r: unknown): r is { shape: readonly number[]; data: TypedArray | number[] } {
  if (typeof r !== 'object' || r === null) return false;
  const { shape, data } = r as { shape?: unknown; data?: unknown };
  return (
    Array.isArray(shape) &&
    shape.every((n) => Number.isInteger(n) && n >= 0) &&
    (isTypedArray(data) || (Array.isArray(data) && data.every((v) => typeof v === 'number')))
  );
}

/**
 * Run one blockwise task: build the arguments, call the user function with
 * `(...args, kwargs?, blockInfo)` and coerce its result.
 */
export function runBlockwiseFn(
  inputs: readonly Chunk[],
  p: BlockwiseFnParams,
  ctx: KernelContext,
): NDArray | Promise<NDArray> {
  const fn = ctx.resolve(p.fn);
  const args = p.args.map((a) => buildArg(a, inputs));
  if (p.hasKwargs) args.push(p.kwargs);
  args.push(p.blockInfo);
  const result = fn(...args);
  const coerce = (r: unknown): NDArray =>
    coerceBlock(r, p.shape, p.dtype, p.caller, p.fn.name || 'anonymous', ctx.key);
  // an async fn: its layer is not fused, so the executor awaits this task
  return result instanceof Promise ? result.then(coerce) : coerce(result);
}

/** Blockwise kernels by name; registered in backends/cpu-js/registry. */
export const blockwiseKernels: Record<string, AsyncKernel<never>> = {
  'blockwise-fn': ((inputs: Chunk[], p: BlockwiseFnParams, ctx: KernelContext) =>
    runBlockwiseFn(inputs, p, ctx)) as AsyncKernel<never>,
};
