// Creation functions: zeros, ones, full, empty, arange, linspace and fromFunction.
// Each is one fusable layer with no dependencies whose tasks carry params only.

import { chunkOffsets } from '../chunking/blocks.ts';
import { formatTuple, formatValue } from '../chunking/format.ts';
import { normalizeChunks } from '../chunking/normalize.ts';
import type { ChunkSpec, Chunks } from '../chunking/types.ts';
import { placeCreated } from '../devices/device-scope.ts';
import { DTypeError, ShapeError, ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import type { TaskSpec } from '../graph/layer.ts';
import { toFnRef } from '../kernels/ship.ts';
import { checkOptions, describe, optionalBoolean, optionalDType } from './check-options.ts';
import { type DType, integerRange, isBigDType, isComplex } from './dtype.ts';
import { LazyArray } from './lazy-array.ts';
import { type Complex, checkNumbersFit, isComplexValue } from './ndarray.ts';

/** Options of creation functions. */
export interface CreationOptions {
  /** Chunk spec (default 'auto': blocks of about config.chunkBytes). */
  chunks?: ChunkSpec | Chunks;
  dtype?: DType;
}

/** A shape argument: one size (1-D) or a size per axis. */
export type ShapeArg = number | readonly number[];

/** Validate a shape argument: non-negative integers. */
export function checkShapeArg(fn: string, shape: ShapeArg): number[] {
  const s = typeof shape === 'number' ? [shape] : shape;
  if (!Array.isArray(s)) {
    throw new ShapeError(`${fn}: shape ${describe(shape)} is not a number or an array of numbers`);
  }
  s.forEach((n, ax) => {
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) {
      throw new ShapeError(
        `${fn}: shape ${formatTuple(s.map(describe))} has a bad size ${describe(n)} on axis ${ax}; sizes are non-negative integers`,
      );
    }
  });
  return [...s];
}

/** Normalized chunks and the per-axis block offsets of a new array. */
export function creationChunks(
  fn: string,
  shape: readonly number[],
  dtype: DType,
  chunks: ChunkSpec | Chunks | undefined,
): { chunks: number[][]; offsets: number[][] } {
  const c = normalizeChunks(chunks ?? 'auto', shape, { dtype, fn }) as number[][];
  return { chunks: c, offsets: c.map(chunkOffsets) };
}

/**
 * A zero-dependency fusable layer: block b runs `kernel` with `params(offset, blockShape)`.
 * `mainThread` marks tasks that must run on the main thread (inline user functions).
 */
export function sourceArray(
  fn: string,
  kernel: string,
  shape: readonly number[],
  dtype: DType,
  chunksSpec: ChunkSpec | Chunks | undefined,
  token: readonly unknown[],
  params: (offset: number[], blockShape: number[]) => unknown,
  mainThread = false,
): LazyArray<true> {
  const { chunks, offsets } = creationChunks(fn, shape, dtype, chunksSpec);
  const layer = defineLayer({
    op: fn.replace('.', '-'),
    token: [kernel, ...token],
    deps: [],
    chunks,
    dtype,
    fusable: true,
    task: (b): TaskSpec => ({
      kernel,
      inputs: [],
      params: params(
        b.map((i, ax) => offsets[ax]![i]!),
        b.map((i, ax) => chunks[ax]![i]!),
      ),
      ...(mainThread ? { mainThread } : {}),
    }),
  });
  return placeCreated(new LazyArray<true>(layer), fn);
}

const signedZero = (v: number): number | string => (Object.is(v, -0) ? '-0' : v);

function fullArray(
  fn: string,
  shape: ShapeArg,
  value: number | bigint,
  dtype: DType,
  opts: CreationOptions,
  im = 0,
) {
  const s = checkShapeArg(fn, shape);
  // a BigInt beyond ±2^53 stays one (the int64 fill is exact); others travel as numbers
  const token = typeof value === 'bigint' ? `${value}n` : signedZero(value);
  const tokens = im === 0 ? [token] : [token, signedZero(im)];
  return sourceArray(fn, 'full', s, dtype, opts.chunks, tokens, (_o, blockShape) =>
    im === 0 ? { shape: blockShape, value, dtype } : { shape: blockShape, value, im, dtype },
  );
}

/**
 * An array of zeros (default dtype float64).
 * @example
 * zeros([1000, 1000], { chunks: 250 }).numBlocks; // [4, 4]
 */
export function zeros(shape: ShapeArg, opts?: CreationOptions): LazyArray<true> {
  const o = checkOptions('zeros', opts);
  return fullArray('zeros', shape, 0, optionalDType('zeros', o.dtype, 'float64'), o);
}

/**
 * An array of ones (default dtype float64).
 * @example
 * ones([3], { dtype: 'int32' }); // [1, 1, 1]
 */
export function ones(shape: ShapeArg, opts?: CreationOptions): LazyArray<true> {
  const o = checkOptions('ones', opts);
  return fullArray('ones', shape, 1, optionalDType('ones', o.dtype, 'float64'), o);
}

/**
 * An uninitialised array; here its blocks are zeros (shared memory comes zeroed).
 * @example
 * empty([2, 2]).shape; // [2, 2]
 */
export function empty(shape: ShapeArg, opts?: CreationOptions): LazyArray<true> {
  const o = checkOptions('empty', opts);
  return fullArray('empty', shape, 0, optionalDType('empty', o.dtype, 'float64'), o);
}

/**
 * An array filled with `value`. The default dtype follows the value: bool for booleans,
 * int32 for integers int32 holds, int64 for BigInts (uint64 past int64's range), complex128
 * for `{ re, im }` values (a real dtype refuses them), float64 otherwise.
 * @example
 * full([2, 3], 7).dtype; // 'int32'
 * full([2], 2n ** 60n).dtype; // 'int64'
 * full([2], { re: 1, im: -1 }).dtype; // 'complex128'
 */
export function full(
  shape: ShapeArg,
  value: number | bigint | boolean | Complex,
  opts?: CreationOptions,
): LazyArray<true> {
  const o = checkOptions('full', opts);
  if (isComplexValue(value)) return fullComplex(shape, value, o);
  if (typeof value !== 'number' && typeof value !== 'boolean' && typeof value !== 'bigint') {
    throw new ValueError(
      `full: fill value ${describe(value)} is not a number, a BigInt or a boolean`,
    );
  }
  const inferred: DType =
    typeof value === 'boolean'
      ? 'bool'
      : typeof value === 'bigint'
        ? value > 2n ** 63n - 1n
          ? 'uint64'
          : 'int64'
        : isInt32(value)
          ? 'int32'
          : 'float64';
  const dtype = optionalDType('full', o.dtype, inferred);
  if (typeof value === 'bigint') {
    checkNumbersFit('full', [value], dtype);
    const exact = value >= -(2n ** 53n) && value <= 2n ** 53n;
    return fullArray('full', shape, exact || !isBigDType(dtype) ? Number(value) : value, dtype, o);
  }
  checkFits('full', Number(value), dtype);
  return fullArray('full', shape, Number(value), dtype, o);
}

/** full with a complex fill value: complex128 by default; a real dtype is refused. */
function fullComplex(shape: ShapeArg, value: Complex, o: CreationOptions): LazyArray<true> {
  const { re, im } = value;
  if (typeof re !== 'number' || typeof im !== 'number') {
    throw new ValueError(`full: fill value ${describe(value)} needs numbers re and im`);
  }
  const dtype = optionalDType('full', o.dtype, 'complex128');
  if (!isComplex(dtype)) {
    throw new DTypeError(
      `full: complex fill value ${describe(value)} needs a complex dtype, not '${dtype}'; take its re or use complex64/complex128`,
    );
  }
  return fullArray('full', shape, re, dtype, o, im);
}

/**
 * A fill value outside an integer dtype's range (or NaN/Infinity) is a ValueError, as in
 * NumPy 2; a fraction truncates as a cast does, and bool takes any number's truthiness.
 */
function checkFits(fn: string, value: number, dtype: DType): void {
  if (isBigDType(dtype)) {
    if (!Number.isFinite(value)) {
      throw new ValueError(`${fn}: fill value ${formatValue(value)} does not fit dtype '${dtype}'`);
    }
    checkNumbersFit(fn, [Math.trunc(value)], dtype);
    return;
  }
  const range = integerRange(dtype);
  if (range === undefined) return;
  if (!Number.isFinite(value) || Math.trunc(value) < range[0] || Math.trunc(value) > range[1]) {
    throw new ValueError(`${fn}: fill value ${formatValue(value)} does not fit dtype '${dtype}'`);
  }
}

const isInt32 = (v: number): boolean => Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31;

/** Options of arange. */
export type ArangeOptions = CreationOptions;

/**
 * Evenly spaced values in [start, stop) by `step` (NumPy's arange): `arange(n)` is
 * 0 … n-1; the length is ceil((stop - start) / step). The dtype is int64 when every
 * argument is an integer, as NumPy's (elements are BigInts: `toNested({ numbers: true })`
 * or `astype` give numbers), else float64. Options may follow any argument.
 * @example
 * arange(5); // [0n, 1n, 2n, 3n, 4n] (int64)
 * arange(5, { dtype: 'int32' }); // [0, 1, 2, 3, 4]
 * arange(1, 2, 0.25, { chunks: 2 }); // [1, 1.25, 1.5, 1.75]
 */
export function arange(
  start: number,
  stop?: number | ArangeOptions,
  step?: number | ArangeOptions,
  opts?: ArangeOptions,
): LazyArray<true> {
  const raw = [start, stop, step, opts];
  const firstObj = raw.findIndex((v) => v !== null && typeof v === 'object');
  const nums = (firstObj < 0 ? raw : raw.slice(0, firstObj)).filter((v) => v !== undefined);
  const options = (firstObj < 0 ? {} : raw[firstObj]) as ArangeOptions;
  nums.forEach((v) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new ValueError(`arange: arguments must be finite numbers, got ${formatValue(v)}`);
    }
  });
  const args = nums as number[];
  if (args.length === 0) throw new ValueError('arange: missing stop');
  const [b, e, st] = args.length === 1 ? [0, args[0]!, 1] : [args[0]!, args[1]!, args[2] ?? 1];
  if (st === 0) throw new ValueError('arange: step 0 is not allowed');
  const n = Math.max(0, Math.ceil((e - b) / st));
  const dtype = optionalDType(
    'arange',
    options.dtype,
    args.every(Number.isSafeInteger) && Number.isSafeInteger(b + n * st) ? 'int64' : 'float64',
  );
  return sourceArray('arange', 'arange', [n], dtype, options.chunks, [b, st], (o, s) => ({
    start: b,
    step: st,
    offset: o[0]!,
    count: s[0]!,
    dtype,
  }));
}

/** Options of linspace. */
export interface LinspaceOptions extends CreationOptions {
  /** Include `stop` as the last value (default true). */
  endpoint?: boolean;
}

/**
 * `num` evenly spaced values from start to stop (NumPy's linspace; the last is exactly
 * `stop` when `endpoint`). Integer dtypes round toward -Infinity.
 * @example
 * linspace(0, 1, 5); // [0, 0.25, 0.5, 0.75, 1]
 */
export function linspace(
  start: number,
  stop: number,
  num: number,
  linspaceOpts?: LinspaceOptions,
): LazyArray<true> {
  const opts = checkOptions('linspace', linspaceOpts);
  for (const [label, v] of [
    ['start', start],
    ['stop', stop],
  ] as const) {
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new ValueError(`linspace: ${label} ${formatValue(v)} is not a finite number`);
    }
  }
  if (!Number.isSafeInteger(num) || num < 0) {
    throw new ValueError(`linspace: num ${formatValue(num)} must be a non-negative integer`);
  }
  const endpoint = optionalBoolean('linspace', 'endpoint', opts.endpoint, true);
  const dtype = optionalDType('linspace', opts.dtype, 'float64');
  const token = [start, stop, num, endpoint];
  return sourceArray('linspace', 'linspace', [num], dtype, opts.chunks, token, (o, s) => ({
    start,
    stop,
    num,
    endpoint,
    offset: o[0]!,
    count: s[0]!,
    dtype,
  }));
}

/** Options of fromFunction. */
export interface FromFunctionOptions extends CreationOptions {
  shape: ShapeArg;
  /** Run `fn` on the main thread (it may then close over variables). */
  inline?: boolean;
}

/**
 * An array whose element at (i, j, …) is `fn(i, j, …)` (global indices). `fn` is shipped
 * to workers by its source text, so it must not use variables of its enclosing scope
 * (or pass `{ inline: true }`).
 * @example
 * fromFunction((i, j) => 10 * i + j, { shape: [2, 3] }); // [[0, 1, 2], [10, 11, 12]]
 */
export function fromFunction(
  fn: (...index: number[]) => number | boolean,
  opts: FromFunctionOptions,
): LazyArray<true> {
  if (opts === null || typeof opts !== 'object' || opts.shape === undefined) {
    throw new ValueError('fromFunction: options { shape } are required');
  }
  const shape = checkShapeArg('fromFunction', opts.shape);
  const dtype = optionalDType('fromFunction', opts.dtype, 'float64');
  const inline = optionalBoolean('fromFunction', 'inline', opts.inline, false);
  const ref = toFnRef(fn, 'fromFunction', inline ? { inline: true } : {});
  const params = (o: number[], s: number[]) => ({ fn: ref, offset: o, shape: s, dtype });
  const chunks = opts.chunks;
  return sourceArray(
    'fromFunction',
    'from-function',
    shape,
    dtype,
    chunks,
    [ref],
    params,
    ref.kind === 'inline',
  );
}
