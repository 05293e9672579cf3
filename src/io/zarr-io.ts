// Asynchronous kernels that read and write blocks of a Zarr array (v2 or v3) through zarrita:
// each worker opens an array once and reads or writes the region of its task.

import type * as Zarr from 'zarrita';
import {
  bigIntRange,
  type DType,
  integerRange,
  isBigDType,
  type TypedArray,
  typedArrayCtor,
} from '../array/dtype.ts';
import { castNDArray, cStrides, NDArray, shapeSize } from '../array/ndarray.ts';
import { gatherStrided } from '../backends/cpu-js/layout/layout.ts';
import { fillSame } from '../backends/cpu-js/layout/storage.ts';
import { ValueError } from '../errors.ts';
import type { AsyncKernel, Chunk } from '../kernels/types.ts';
import { withCheckedChunks } from './zarr-chunks.ts';

/** Where a Zarr hierarchy lives, as plain data every thread can open. */
export type ZarrStoreRef =
  | { readonly kind: 'fs'; readonly root: string }
  | { readonly kind: 'fetch'; readonly url: string };

/** The array a task reads or writes, and the metadata it was planned against. */
export interface ZarrArrayRef {
  readonly store: ZarrStoreRef;
  /** Path of the array inside the store ('/' for the root). */
  readonly path: string;
  readonly shape: readonly number[];
  readonly dtype: DType;
  /**
   * The Zarr data type, when it is not `dtype`: values are cast on read (int64 and uint64
   * to another integer dtype by exact range checks).
   */
  readonly castFrom?: DType;
  /** The Zarr chunk shape planned against (a rewritten array is opened afresh). */
  readonly chunks?: readonly number[];
  /** Set by toZarr: one per write, so no thread writes through metadata of an earlier one. */
  readonly writeId?: string;
}

/** Params of 'zarr-read' and 'zarr-write': an array and the region of the block. */
export interface ZarrRegionParams {
  readonly array: ZarrArrayRef;
  readonly start: readonly number[];
  readonly count: readonly number[];
}

type AnyArray = Zarr.Array<Zarr.DataType, Zarr.Readable>;
type ZarrModule = typeof Zarr;

// zarrita loads on the first Zarr task of a thread, not with every worker.
let zarrModule: Promise<{ zarr: ZarrModule; Fs: typeof import('@zarrita/storage/fs').default }>;

/**
 * zarrita and its filesystem store, imported once per thread.
 * @example
 * const { zarr } = await loadZarr();
 */
export function loadZarr(): typeof zarrModule {
  zarrModule ??= Promise.all([import('zarrita'), import('@zarrita/storage/fs')]).then(
    ([zarr, fs]) => ({ zarr, Fs: fs.default }),
  );
  return zarrModule;
}

/**
 * The zarrita store for a reference.
 * @example
 * const store = await openZarrStore({ kind: 'fs', root: '/data/volume.zarr' });
 */
export async function openZarrStore(
  ref: ZarrStoreRef,
): Promise<Zarr.Readable & Partial<Zarr.AsyncMutable>> {
  const { zarr, Fs } = await loadZarr();
  return ref.kind === 'fs' ? new Fs(ref.root) : new zarr.FetchStore(ref.url);
}

// Arrays opened on this thread, by store, path and the metadata the graph was built with.
const opened = new Map<string, Promise<AnyArray>>();

const storeName = (ref: ZarrStoreRef): string => (ref.kind === 'fs' ? ref.root : ref.url);

/**
 * Open (once per thread) the array a task names; `checked` (for reads): its chunk reads fail
 * naming the chunk when one is truncated, over-long or cannot be decoded.
 */
export function openZarrArray(ref: ZarrArrayRef, checked = false): Promise<AnyArray> {
  const key = JSON.stringify([ref, checked]);
  let arr = opened.get(key);
  if (arr === undefined) {
    arr = Promise.all([loadZarr(), openZarrStore(ref.store)]).then(async ([{ zarr }, store]) => {
      const plain = await zarr.open(zarr.root(store).resolve(ref.path), { kind: 'array' });
      return checked ? withCheckedChunks(zarr, plain, storeName(ref.store)) : plain;
    });
    arr.catch(() => opened.delete(key));
    opened.set(key, arr);
  }
  return arr;
}

const selection = (zarr: ZarrModule, p: ZarrRegionParams): Zarr.Slice[] | null =>
  p.array.shape.length === 0 ? null : p.start.map((s, i) => zarr.slice(s, s + p.count[i]!));

/** zarrita's chunk data as a TypedArray of `dtype` (bool arrays are bytes underneath). */
function typedData(zarr: ZarrModule, data: unknown, dtype: DType): TypedArray {
  if (data instanceof zarr.BoolArray) {
    return new Uint8Array(data.buffer, data.byteOffset, data.length);
  }
  if (ArrayBuffer.isView(data) && data.constructor === typedArrayCtor(dtype)) {
    return data as TypedArray;
  }
  throw new TypeError(
    `zarr-read: got ${String(data?.constructor?.name)} data for a ${dtype} array`,
  );
}

function doesNotFit(p: ZarrRegionParams, v: bigint): ValueError {
  const { dtype, castFrom, path } = p.array;
  return new ValueError(
    `fromZarr: the array at ${JSON.stringify(path)} holds ${v} (${castFrom}), which does not fit dtype '${dtype}'; read it as 'float64' or a wider integer dtype`,
  );
}

/**
 * 64-bit integers (BigInt elements, or one bigint for a 0-d read) as float64 values, each
 * checked to fit `dtype` when it is an integer dtype: a value that does not raises.
 */
function bigValues(p: ZarrRegionParams, data: ArrayLike<bigint>): Float64Array {
  const range = integerRange(p.array.dtype);
  const out = new Float64Array(data.length);
  const lo = range === undefined ? 0n : BigInt(range[0]);
  const hi = range === undefined ? 0n : BigInt(range[1]);
  for (let i = 0; i < data.length; i++) {
    const v = data[i]!;
    if (range !== undefined && (v < lo || v > hi)) throw doesNotFit(p, v);
    out[i] = Number(v);
  }
  return out;
}

/** int64 values as uint64 or the reverse, exactly, each checked to fit the target dtype. */
function bigToBig(p: ZarrRegionParams, data: ArrayLike<bigint>): BigInt64Array | BigUint64Array {
  const dtype = p.array.dtype as 'int64' | 'uint64';
  const [lo, hi] = bigIntRange(dtype);
  const out = dtype === 'int64' ? new BigInt64Array(data.length) : new BigUint64Array(data.length);
  for (let i = 0; i < data.length; i++) {
    const v = data[i]!;
    if (v < lo || v > hi) throw doesNotFit(p, v);
    out[i] = v;
  }
  return out;
}

/** A region read from an array whose Zarr data type `castFrom` is cast to `dtype`. */
function castRead(zarr: ZarrModule, p: ZarrRegionParams, got: unknown): NDArray {
  const from = p.array.castFrom!;
  const { dtype } = p.array;
  if (isBigDType(from)) {
    const scalar = typeof got !== 'object' || got === null;
    const data = scalar
      ? [BigInt(got as bigint)]
      : ((got as Zarr.Chunk<Zarr.DataType>).data as unknown as ArrayLike<bigint>);
    const stride = scalar ? [] : (got as Zarr.Chunk<Zarr.DataType>).stride;
    if (isBigDType(dtype)) {
      return gatherStrided(bigToBig(p, data), 0, stride, [...p.count], dtype);
    }
    const values = bigValues(p, data);
    return castNDArray(gatherStrided(values, 0, stride, [...p.count], 'float64'), dtype);
  }
  if (typeof got !== 'object' || got === null) {
    const data = new (typedArrayCtor(from))(1);
    data[0] = Number(got);
    return castNDArray(new NDArray(data, [], from), dtype);
  }
  const chunk = got as Zarr.Chunk<Zarr.DataType>;
  const block = gatherStrided(
    typedData(zarr, chunk.data, from),
    0,
    chunk.stride,
    [...p.count],
    from,
  );
  return castNDArray(block, dtype);
}

export const zarrKernels: Record<string, AsyncKernel<never>> = {
  'zarr-read': (async (_: Chunk[], p: ZarrRegionParams) => {
    const { zarr } = await loadZarr();
    const arr = await openZarrArray(p.array, true);
    const got = await zarr.get(arr, selection(zarr, p));
    if (p.array.castFrom !== undefined) return castRead(zarr, p, got);
    const { dtype } = p.array;
    if (typeof got !== 'object' || got === null) {
      // a 0-d read comes back as a scalar (a bigint for int64 and uint64)
      const data = new (typedArrayCtor(dtype))(1);
      fillSame(data, typeof got === 'bigint' ? got : Number(got));
      return gatherStrided(data, 0, [], [], dtype);
    }
    const chunk = got as Zarr.Chunk<Zarr.DataType>;
    // Copied into shared memory (and C order) so worker threads can share the block.
    return gatherStrided(typedData(zarr, chunk.data, dtype), 0, chunk.stride, [...p.count], dtype);
  }) as AsyncKernel<never>,

  /** Writes the one input block at its region; returns a 1-element count of its elements. */
  'zarr-write': (async (inputs: Chunk[], p: ZarrRegionParams) => {
    const block = inputs[0] as NDArray;
    const { zarr } = await loadZarr();
    const arr = (await openZarrArray(p.array)) as Zarr.Array<Zarr.DataType, Zarr.Mutable>;
    const data =
      block.dtype === 'bool'
        ? new zarr.BoolArray(block.data.buffer, block.data.byteOffset, block.size)
        : block.data;
    const value = { data, shape: [...block.shape], stride: cStrides(block.shape) };
    await zarr.set(arr, selection(zarr, p), value as Zarr.Chunk<Zarr.DataType>);
    const out = new Float64Array(1);
    out[0] = shapeSize(block.shape);
    return new NDArray(out, [1], 'float64');
  }) as AsyncKernel<never>,
};
