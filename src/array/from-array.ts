// fromArray: wrap eager data (TypedArray, NDArray, nested arrays) as a chunked LazyArray.
// The data is copied once into shared memory; each block is a getter task slicing it.

import { formatTuple } from '../chunking/format.ts';
import { normalizeChunks } from '../chunking/normalize.ts';
import type { ChunkSpec, Chunks } from '../chunking/types.ts';
import { placeCreated } from '../devices/device-scope.ts';
import { ShapeError, ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import type { Layer } from '../graph/layer.ts';
import { hashData, tokenize } from '../graph/tokenize.ts';
import { checkOptions, describe } from './check-options.ts';
import {
  allocate,
  type BigIntArray,
  checkDType,
  type DType,
  isBigIntArray,
  type NumberArray,
  type TypedArray,
} from './dtype.ts';
import type { KnownIn } from './known-shape.ts';
import { LazyArray } from './lazy-array.ts';
import {
  castNDArray,
  checkNumbersFit,
  flattenNested,
  NDArray,
  type Nested,
  ndarray,
} from './ndarray.ts';

/** Anything fromArray accepts. */
export type ArrayData = NDArray | TypedArray | Nested;

/** Options of `fromArray`: chunks, dtype and, for flat data, the shape. */
export interface FromArrayOptions {
  chunks?: ChunkSpec | Chunks;
  dtype?: DType;
  shape?: readonly number[];
  /** A fixed name, or false for a unique one (skips hashing the data). */
  name?: string | false;
}

let uniqueCounter = 0;

/**
 * Data where an array belongs: an NDArray, a TypedArray, nested arrays or a number/boolean
 * (0-d). Anything else (null, strings, plain objects, functions…) is a ValueError.
 */
export function checkArrayData(fn: string, data: unknown): void {
  if (data instanceof NDArray || Array.isArray(data)) return;
  if (ArrayBuffer.isView(data) && !(data instanceof DataView)) return;
  if (typeof data === 'number' || typeof data === 'boolean') return;
  throw new ValueError(
    `${fn}: ${describe(data)} is not an array (a LazyArray, an NDArray, a TypedArray or nested numbers)`,
  );
}

function toShared(fn: string, data: ArrayData, opts: FromArrayOptions): NDArray {
  checkArrayData(fn, data);
  const dtype = opts.dtype === undefined ? undefined : checkDType(fn, opts.dtype);
  if (opts.shape !== undefined && !Array.isArray(opts.shape)) {
    throw new ShapeError(`${fn}: shape ${describe(opts.shape)} is not an array of sizes`);
  }
  if (opts.name !== undefined && typeof opts.name !== 'string' && opts.name !== false) {
    throw new ValueError(`${fn}: name ${describe(opts.name)} is not a string or false`);
  }
  // Nested data is checked here so a ragged list is reported under the caller's name; the
  // declared shape is applied below, where a mismatch names `fn` too.
  if (!(data instanceof NDArray) && !ArrayBuffer.isView(data)) {
    const { values } = flattenNested(fn, data as Nested);
    if (dtype !== undefined) checkNumbersFit(fn, values, dtype);
  }
  let arr = data instanceof NDArray ? data : ndarray(data as TypedArray | Nested, undefined, dtype);
  if (dtype !== undefined && arr.dtype !== dtype) arr = castNDArray(arr, dtype);
  if (opts.shape !== undefined && arr.shape.join() !== opts.shape.join()) {
    if (arr.size !== opts.shape.reduce((a, b) => a * b, 1)) {
      throw new ShapeError(
        `${fn}: shape ${formatTuple(opts.shape)} does not fit ${arr.size} elements`,
      );
    }
    arr = new NDArray(arr.data, opts.shape, arr.dtype);
  }
  if (arr.data.buffer instanceof SharedArrayBuffer) return arr;
  const shared = allocate(arr.dtype, arr.size);
  // same dtype on both sides: BigInt storage (int64, uint64) copies as number storage does
  if (isBigIntArray(shared)) shared.set(arr.data as BigIntArray);
  else shared.set(arr.data as NumberArray);
  return new NDArray(shared, arr.shape, arr.dtype);
}

/** A source layer whose single block is `arr` (already in memory). */
export function constantLayer(arr: NDArray, name: string): Layer {
  return defineLayer({
    op: 'array',
    name,
    deps: [],
    chunks: arr.shape.map((s) => [s]),
    dtype: arr.dtype,
    task: () => {
      throw new Error('constant layer has no tasks');
    },
    constant: () => arr,
  });
}

/**
 * Wrap eager data as a lazy chunked array.
 * @example
 * const x = fromArray(new Float64Array(100), { shape: [10, 10], chunks: 5 });
 * x.numBlocks; // [2, 2]
 */
export function fromArray(data: ArrayData, opts?: FromArrayOptions): LazyArray<true> {
  return fromArrayAs('fromArray', data, checkOptions('fromArray', opts));
}

/** fromArray under the name of the public function `fn` that took the data (for messages). */
export function fromArrayAs(fn: string, data: ArrayData, opts: FromArrayOptions): LazyArray<true> {
  const arr = toShared(fn, data, opts);
  const chunks = normalizeChunks(opts.chunks ?? 'auto', arr.shape, {
    dtype: arr.dtype,
    fn,
  }) as number[][];
  const base =
    typeof opts.name === 'string'
      ? opts.name
      : opts.name === false
        ? `array-u${++uniqueCounter}-${Date.now().toString(36)}`
        : tokenize('array', hashData(arr.data), arr.shape, arr.dtype);
  const source = constantLayer(arr, base);
  if (chunks.every((c) => c.length === 1))
    return placeCreated(new LazyArray<true>(source), 'fromArray');
  const offsets = chunks.map((c) => {
    const o = [0];
    for (const s of c) o.push(o[o.length - 1]! + s);
    return o;
  });
  const layer = defineLayer({
    op: 'from-array',
    deps: [source],
    chunks,
    dtype: arr.dtype,
    fusable: true,
    task: (b) => ({
      kernel: 'slice',
      inputs: [[0, b.map(() => 0)]],
      params: {
        start: b.map((i, ax) => offsets[ax]![i]!),
        step: b.map(() => 1),
        count: b.map((i, ax) => chunks[ax]![i]!),
      },
    }),
  });
  return placeCreated(new LazyArray<true>(layer), 'fromArray');
}

/** Arrays, eager data or lazy: the inputs most operations accept. */
export type ArrayLike = LazyArray | ArrayData;

/**
 * Coerce eager input to a LazyArray (one chunk unless it is large); `fn`, the public
 * function that took `x`, names bad data in the error.
 * @example
 * const x = asLazy([[1, 2], [3, 4]]); // LazyArray, shape [2, 2], one chunk
 * asLazy(x) === x; // true: a LazyArray is returned as it is
 */
export function asLazy<X extends ArrayLike>(x: X, fn = 'asLazy'): LazyArray<KnownIn<[X]>> {
  return (x instanceof LazyArray ? x : fromArrayAs(fn, x, {})) as LazyArray<KnownIn<[X]>>;
}
