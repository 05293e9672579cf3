// Kernel 'lazy-apply': calls a user function on whole blocks (scalars and null in place,
// kwargs last) and coerces what it returns to NDArrays of the declared block shapes and dtypes.
// Complex blocks reach it as NDArrays of interleaved (re, im) data and may come back so.

import { assembleBlocks } from '../../../array/assemble.ts';
import { markEngineCopy } from '../../../array/buffer-pool.ts';
import { castData, castInto } from '../../../array/cast.ts';
import {
  allocate,
  type DType,
  dtypeOfTypedArray,
  elementWidth,
  isBigIntArray,
  isComplex,
  type NumberArray,
  type TypedArray,
} from '../../../array/dtype.ts';
import {
  flattenNested,
  isComplexValue,
  NDArray,
  type Nested,
  shapeSize,
  valuesData,
} from '../../../array/ndarray.ts';
import { ShapeError, ValueError } from '../../../errors.ts';
import type { AsyncKernel, Chunk, FnRef, KernelContext } from '../../../kernels/types.ts';
import { sliceND } from '../layout/slice.ts';
import { complexIntoReal, complexPartsDType } from './blockwise.ts';

type Size = number | null;

/**
 * Argument i of fn: task inputs `[first, first + count)` assembled over `grid` (C order;
 * one block is passed as it is) or, with `slice`, a region cut from the one input block;
 * or a literal value.
 */
export type ApplyArg =
  | {
      readonly first: number;
      readonly count: number;
      readonly grid: readonly number[];
      readonly slice?: { readonly start: readonly number[]; readonly count: readonly number[] };
    }
  | { readonly value: number | boolean | null };

/** Params of 'lazy-apply'. `outputs` are this task's block shapes (null = unknown). */
export interface LazyApplyParams {
  readonly fn: FnRef;
  readonly args: readonly ApplyArg[];
  readonly hasKwargs: boolean;
  /** Reaches fn as its last argument; on the inline executor the very same object. */
  readonly kwargs?: unknown;
  readonly outputs: readonly { readonly shape: readonly Size[]; readonly dtype: DType }[];
  /** fn returns one value per output; the task's value is a tuple. */
  readonly multi: boolean;
}

const FN = 'lazyApply';

function argValue(a: ApplyArg, inputs: readonly Chunk[], key: string): unknown {
  if ('value' in a) return a.value;
  const blocks = inputs.slice(a.first, a.first + a.count);
  const first = blocks[0];
  if (!(first instanceof NDArray)) throw new ShapeError(`${FN}: task ${key}: input is a tuple`);
  if (a.slice) {
    const { start, count } = a.slice;
    return (
      regionView(first, start, count) ?? sliceND(first, { start, step: start.map(() => 1), count })
    );
  }
  return assembleBlocks(blocks, a.grid, first.dtype, key);
}

/**
 * A region of `x` as a view of its memory when the region is one contiguous run (whole along
 * every axis after the first partial one, one index before it); undefined otherwise.
 */
function regionView(
  x: NDArray,
  start: readonly number[],
  count: readonly number[],
): NDArray | undefined {
  let partial = x.shape.length - 1;
  while (partial >= 0 && start[partial] === 0 && count[partial] === x.shape[partial]) partial--;
  for (let ax = 0; ax < partial; ax++) if (count[ax] !== 1) return undefined;
  let offset = 0;
  for (let ax = 0, stride = x.data.length; ax < x.shape.length; ax++) {
    stride = x.shape[ax] === 0 ? 0 : stride / x.shape[ax]!;
    offset += start[ax]! * stride;
  }
  const view = x.data.subarray(offset, offset + shapeSize(count) * elementWidth(x.dtype));
  return count.every((c, ax) => c === x.shape[ax]) ? x : new NDArray(view, count, x.dtype);
}

function runLazyApply(
  inputs: Chunk[],
  p: LazyApplyParams,
  ctx: KernelContext,
): Chunk | Promise<Chunk> {
  const fn = ctx.resolve(p.fn);
  const args = p.args.map((a) => argValue(a, inputs, ctx.key));
  if (p.hasKwargs) args.push(p.kwargs);
  const result = fn(...args);
  // an async fn: its task (never fused) is awaited by the executor
  if (isThenable(result)) return Promise.resolve(result).then((r) => lazyApplyResult(r, p, ctx));
  return lazyApplyResult(result, p, ctx);
}

function lazyApplyResult(result: unknown, p: LazyApplyParams, ctx: KernelContext): Chunk {
  if (!p.multi) return coerceResult(result, p.outputs[0]!, ctx.key, p.fn.name);
  if (!Array.isArray(result) || result.length !== p.outputs.length) {
    throw new ValueError(
      `${FN}: task ${ctx.key}: fn '${p.fn.name}' must return an array of ${p.outputs.length} ` +
        `results (one per declared shape), got ${describe(result)}`,
    );
  }
  return p.outputs.map((o, k) => coerceResult(result[k], o, ctx.key, `${p.fn.name}' output '${k}`));
}

function isThenable(x: unknown): boolean {
  return (
    x !== null && typeof x === 'object' && typeof (x as { then?: unknown }).then === 'function'
  );
}

function describe(x: unknown): string {
  if (Array.isArray(x)) return `an array of length ${x.length}`;
  if (x === null) return 'null';
  return typeof x === 'object'
    ? `a ${x.constructor?.name ?? 'object'}`
    : `${typeof x} ${String(x)}`;
}

const fmt = (s: readonly Size[]): string =>
  `[${s.map((v) => (v === null ? 'null' : v)).join(', ')}]`;

/** A result's elements: a TypedArray (of `dtype`) or plain numbers. */
type ResultData = TypedArray | number[];

/** Data and shape of a result before it is checked: shape undefined = flat, to be fitted. */
function readResult(
  r: unknown,
  key: string,
  what: string,
  declared: DType,
): { data: ResultData; dtype?: DType; shape?: number[] } {
  if (r instanceof NDArray) return { data: r.data, dtype: r.dtype, shape: r.shape };
  if (ArrayBuffer.isView(r) && !(r instanceof DataView)) {
    const data = r as TypedArray;
    return { data, dtype: complexPartsDType(data, declared) ?? dtypeOfTypedArray(data) };
  }
  if (isComplexValue(r)) return { data: [r.re, r.im], dtype: 'complex128', shape: [] };
  if (typeof r === 'number' || typeof r === 'boolean') return { data: [Number(r)], shape: [] };
  if (typeof r === 'bigint')
    return { data: valuesData(FN, [r], 'int64'), dtype: 'int64', shape: [] };
  if (Array.isArray(r)) {
    if (r.every((v) => typeof v === 'number' || typeof v === 'boolean')) {
      return { data: r.map(Number) };
    }
    try {
      const { values, shape, complex } = flattenNested(FN, r as Nested);
      if (complex) return { data: values as number[], shape, dtype: 'complex128' };
      return values.some((v) => typeof v === 'bigint')
        ? { data: valuesData(FN, values, 'int64'), shape, dtype: 'int64' }
        : { data: values as number[], shape };
    } catch (e) {
      const reason = (e as Error).message.replace(`${FN}: `, '');
      throw new ShapeError(`${FN}: task ${key}: fn '${what}' returned ${reason}`, {
        cause: e,
        key,
      });
    }
  }
  const plain = r as { data?: unknown; shape?: unknown; dtype?: unknown } | null;
  if (plain !== null && typeof plain === 'object' && ArrayBuffer.isView(plain.data)) {
    // an NDArray that crossed a thread boundary as plain fields
    const data = plain.data as TypedArray;
    const shape = Array.isArray(plain.shape) ? (plain.shape as number[]) : undefined;
    const said = plain.dtype === 'complex64' || plain.dtype === 'complex128';
    const dtype =
      (said && complexPartsDType(data, plain.dtype as DType)) || dtypeOfTypedArray(data);
    return { data, dtype, ...(shape ? { shape } : {}) };
  }
  throw new ValueError(
    `${FN}: task ${key}: fn '${what}' returned ${describe(r)}; return an NDArray, a TypedArray, ` +
      'a number or nested number arrays',
  );
}

/** The shape a flat result of `n` elements takes in a declared block shape. */
function fitFlat(n: number, declared: readonly Size[], key: string, what: string): number[] {
  const unknown = declared.filter((s) => s === null).length;
  const known = shapeSize(declared.map((s) => s ?? 1));
  if (unknown === 0 && known === n) return declared as number[];
  if (unknown === 1 && (known === 0 ? n === 0 : n % known === 0)) {
    const missing = known === 0 ? 0 : n / known;
    return declared.map((s) => s ?? missing);
  }
  throw new ShapeError(
    `${FN}: task ${key}: fn '${what}' returned ${n} elements, which do not fit the declared ` +
      `block shape ${fmt(declared)}${unknown > 1 ? '; with several unknown sizes, return an NDArray' : ''}`,
    { key },
  );
}

function checkShape(
  shape: readonly number[],
  declared: readonly Size[],
  key: string,
  what: string,
) {
  const ok =
    shape.length === declared.length && declared.every((s, ax) => s === null || s === shape[ax]);
  if (!ok) {
    throw new ShapeError(
      `${FN}: task ${key}: fn '${what}' returned shape ${fmt(shape)}, which contradicts the ` +
        `declared block shape ${fmt(declared)}`,
      { key },
    );
  }
}

/**
 * An NDArray of the declared dtype on shared memory from whatever fn returned; a shape that
 * contradicts a known declared size is a ShapeError naming the task.
 * @example
 * coerceResult(new Float64Array([1, 2, 3, 4]), { shape: [2, 2], dtype: 'int32' }, 'k', 'f');
 */
export function coerceResult(
  r: unknown,
  out: { readonly shape: readonly Size[]; readonly dtype: DType },
  key: string,
  what: string,
): NDArray {
  const res = readResult(r, key, what, out.dtype);
  // complex data holds two numbers per element
  const n = res.dtype && isComplex(res.dtype) ? res.data.length / 2 : res.data.length;
  let shape = res.shape;
  if (shape === undefined) shape = fitFlat(n, out.shape, key, what);
  else if (shape.length === 0 && out.shape.length > 0 && n === 1) {
    shape = fitFlat(1, out.shape, key, what);
  }
  checkShape(shape, out.shape, key, what);
  if (res.dtype && isComplex(res.dtype)) {
    const lossy = complexIntoReal(res.dtype, out.dtype, `${FN}: fn '${what}'`, key);
    if (lossy) throw lossy;
  }
  return castTo(res.data, res.dtype, shape, out.dtype);
}

function castTo(
  data: ResultData,
  from: DType | undefined,
  shape: readonly number[],
  dtype: DType,
): NDArray {
  const shared = ArrayBuffer.isView(data) && data.buffer instanceof SharedArrayBuffer;
  const sameType =
    from === dtype || (from === 'uint8' && dtype === 'bool' && isBool(data as NumberArray));
  if (sameType && shared) return new NDArray(data as TypedArray, shape, dtype);
  if (isComplex(dtype)) return complexCopy(data, from, shape, dtype);
  const out = allocate(dtype, data.length);
  if (isBigIntArray(out) || (ArrayBuffer.isView(data) && isBigIntArray(data))) {
    // int64/uint64 on either side: converted through their 32-bit halves (cast.ts)
    castInto(out, dtype, data, from ?? 'number');
  } else {
    const d = data as NumberArray | number[];
    if (dtype === 'bool') for (let i = 0; i < d.length; i++) out[i] = d[i] ? 1 : 0;
    else if (ArrayBuffer.isView(d)) out.set(d);
    else for (let i = 0; i < d.length; i++) out[i] = d[i]!;
  }
  markEngineCopy(out);
  return new NDArray(out, shape, dtype);
}

/** `data` (complex parts, or real values: im 0) as a complex block of `dtype` on shared memory. */
function complexCopy(
  data: ResultData,
  from: DType | undefined,
  shape: readonly number[],
  dtype: DType,
): NDArray {
  const out = castData(data, from ?? 'number', dtype);
  markEngineCopy(out);
  return new NDArray(out, shape, dtype);
}

function isBool(data: ArrayLike<number>): boolean {
  for (let i = 0; i < data.length; i++) if (data[i] !== 0 && data[i] !== 1) return false;
  return true;
}

/** The lazy-apply kernels, registered in backends/cpu-js/registry. */
export const applyKernels: Record<string, AsyncKernel<never>> = {
  'lazy-apply': runLazyApply as AsyncKernel<never>,
};
