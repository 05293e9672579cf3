// fromZarr and toZarr: lazy arrays over Zarr arrays (v2 and v3, any codec zarrita decodes),
// read and written block by block by asynchronous tasks on whichever worker runs them.

import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type * as Zarr from 'zarrita';
import { rechunk } from '../apply/rechunk.ts';
import { checkOptions, describe } from '../array/check-options.ts';
import type { ComputeOptions } from '../array/compute.ts';
import { computeBlocks } from '../array/compute.ts';
import { checkComputeOptions } from '../array/compute-options.ts';
import { checkDType, type DType } from '../array/dtype.ts';
import { LazyArray } from '../array/lazy-array.ts';
import { chunkOffsets } from '../chunking/blocks.ts';
import { normalizeChunks } from '../chunking/normalize.ts';
import type { ChunkSpec, Chunks } from '../chunking/types.ts';
import { ChunkError, DTypeError, ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import type { TaskSpec } from '../graph/layer.ts';
import { checkPathArg, checkWritableDir } from './check-path.ts';
import {
  loadZarr,
  openZarrStore,
  type ZarrArrayRef,
  type ZarrRegionParams,
  type ZarrStoreRef,
} from './zarr-io.ts';
import {
  arrayDocument,
  type CodecMetadata,
  DEFAULT_CODECS,
  encodeFillValue,
  isIncomplete,
} from './zarr-metadata.ts';
import { clearTarget } from './zarr-target.ts';

/** Options of `fromZarr`: which array in the store to read and its chunking. */
export interface FromZarrOptions {
  /** Path of the array inside the store (default: the store's root). */
  path?: string;
  /** Chunk spec (default: the Zarr array's own chunks, so each task reads one Zarr chunk). */
  chunks?: ChunkSpec | Chunks;
  /**
   * Cast the values to this dtype as blocks are read (default: the array's own dtype, int64
   * and uint64 included). From int64 or uint64 to another integer dtype every value must
   * fit (a block holding one that does not raises ValueError when read, never wraps); to a
   * float dtype values round to nearest (float64: exact up to 2^53).
   */
  dtype?: DType;
}

/** Options of `toZarr`: the compute options plus overwriting an existing array. */
export interface ToZarrOptions extends ComputeOptions {
  /** Path of the array inside the store (default: the store's root). */
  path?: string;
  /** Zarr chunk shape (default: the array's first chunk along each axis). */
  chunks?: readonly number[];
  /**
   * Zarr v3 codecs, as zarrita takes them (default: uncompressed little-endian bytes). Spelled
   * out rather than zarrita's `CodecMetadata`, so the package's declarations do not pull in
   * zarrita's.
   */
  codecs?: { name: string; configuration: Record<string, unknown> }[];
  /** The array's fill_value, what chunks never written read as (default 0, false for bool). */
  fillValue?: number | boolean;
  /** Replace an array already at the target path (default false: toZarr refuses). */
  overwrite?: boolean;
}

const DTYPES: Partial<Record<string, DType>> = {
  float64: 'float64',
  float32: 'float32',
  int64: 'int64',
  int32: 'int32',
  int16: 'int16',
  int8: 'int8',
  uint64: 'uint64',
  uint32: 'uint32',
  uint16: 'uint16',
  uint8: 'uint8',
  bool: 'bool',
};

function storeRef(source: string): ZarrStoreRef {
  return /^https?:\/\//.test(source)
    ? { kind: 'fetch', url: source }
    : { kind: 'fs', root: resolve(source) };
}

const arrayPath = (path: string | undefined): string => (path ?? '/').replace(/^\/?/, '/');

/**
 * A lazy array over the Zarr array at `source` (a directory or an http(s) URL) and
 * `opts.path`: the metadata is read now, every block later by its own task. By default a
 * block is one Zarr chunk; other chunks read the regions they cover.
 * @example
 * const volume = await fromZarr('scans/brain.zarr', { path: 'raw' });
 * const profile = await volume.mean({ axis: [1, 2] }).compute();
 * const labels = await fromZarr('scans/brain.zarr', { path: 'labels' }); // int64 on disk: int64
 * const small = await fromZarr('scans/brain.zarr', { path: 'labels', dtype: 'int32' }); // checked cast
 */
export async function fromZarr(
  source: string,
  zarrOpts?: FromZarrOptions,
): Promise<LazyArray<true>> {
  const opts = checkOptions('fromZarr', zarrOpts);
  const store = storeRef(checkPathArg('fromZarr', 'source', source));
  const path = arrayPath(opts.path);
  const { zarr } = await loadZarr();
  let arr: Zarr.Array<Zarr.DataType, Zarr.Readable>;
  try {
    arr = await zarr.open(zarr.root(await openZarrStore(store)).resolve(path), { kind: 'array' });
  } catch (e) {
    throw new ValueError(
      `fromZarr: no Zarr array at ${JSON.stringify(source)} path ${JSON.stringify(path)}: ${(e as Error).message}`,
      { cause: e },
    );
  }
  if (isIncomplete(arr.attrs as Record<string, unknown> | undefined)) {
    throw new ValueError(
      `fromZarr: the array at ${JSON.stringify(source)} path ${JSON.stringify(path)} is incomplete: ` +
        'the toZarr that wrote it failed or was interrupted before its last chunk; write it again',
    );
  }
  const asked = opts.dtype === undefined ? undefined : checkDType('fromZarr', opts.dtype);
  const own = DTYPES[arr.dtype];
  if (own === undefined) {
    throw new DTypeError(
      `fromZarr: ${JSON.stringify(source)} holds dtype '${arr.dtype}'; tessera reads float64, float32, int64, int32, int16, int8, uint64, uint32, uint16, uint8 and bool`,
    );
  }
  const dtype: DType = asked ?? own;
  const shape = arr.shape;
  const chunks = normalizeChunks(opts.chunks ?? arr.chunks, shape, {
    dtype,
    fn: 'fromZarr',
  }) as number[][];
  const offsets = chunks.map(chunkOffsets);
  const array: ZarrArrayRef = {
    store,
    path,
    shape,
    dtype,
    chunks: arr.chunks,
    ...(own !== dtype ? { castFrom: own } : {}),
  };
  const layer = defineLayer({
    op: 'from-zarr',
    token: [store, path, shape, arr.chunks, dtype, own],
    deps: [],
    chunks,
    dtype,
    // an asynchronous read is a task of its own: it cannot be a step of a fused task
    fusable: false,
    task: (b): TaskSpec => ({
      kernel: 'zarr-read',
      inputs: [],
      params: {
        array,
        start: b.map((i, ax) => offsets[ax]![i]!),
        count: b.map((i, ax) => chunks[ax]![i]!),
      } satisfies ZarrRegionParams,
    }),
  });
  return new LazyArray<true>(layer);
}

/** Whether `axis` is a regular chunking of `size`: all `size`, the last one no larger. */
const regular = (axis: readonly (number | null)[], size: number): boolean =>
  axis.every((c, i) => c === size || (i === axis.length - 1 && c !== null && c <= size));

/**
 * Compute `x` into a new Zarr v3 array at `target` (a directory) and `opts.path`, each block
 * written by its own task; `x` is rechunked first when its chunks do not match the Zarr
 * chunk grid. Compute options (scheduler, progress, signal, timeout…) apply to the writing
 * compute. The array is marked complete (attribute `tessera.complete` in zarr.json) only
 * after its last chunk, so fromZarr refuses one whose write failed or was interrupted. An
 * array already at the path is refused unless `overwrite` is set.
 * @example
 * await toZarr(random.normal([512, 512, 512], { seed: 1, chunks: 128 }), 'noise.zarr');
 * await toZarr(zeros([4, 4], { chunks: 2 }), 'noise.zarr', { overwrite: true, fillValue: NaN });
 */
export async function toZarr(
  x: LazyArray,
  target: string,
  toZarrOpts?: ToZarrOptions,
): Promise<void> {
  if (!(x instanceof LazyArray)) throw new ValueError(`toZarr: ${describe(x)} is not a LazyArray`);
  if (x.dtype === 'float16') {
    throw new DTypeError(
      `toZarr: dtype 'float16' is not written (zarrita has no float16); cast with astype(x, 'float32') first`,
    );
  }
  checkPathArg('toZarr', 'target', target);
  const opts = checkOptions('toZarr', toZarrOpts);
  const { path: p, chunks: zchunks, codecs, fillValue, overwrite, ...rest } = opts;
  const computeOpts = checkComputeOptions('toZarr', rest);
  if (zchunks !== undefined && !Array.isArray(zchunks)) {
    throw new ValueError(
      `toZarr: chunks ${describe(zchunks)} is not one positive integer per axis`,
    );
  }
  if (!/^https?:\/\//.test(target)) checkWritableDir('toZarr', target);
  if (x.chunks.some((axis) => axis.some((c) => c === null))) {
    throw new ChunkError(
      `toZarr: ${x.name} has unknown chunk sizes; resolve them with computeChunkSizes(x) first`,
    );
  }
  const chunkShape = [...(zchunks ?? x.chunks.map((axis) => Math.max(1, axis[0] ?? 1)))];
  if (chunkShape.length !== x.ndim || chunkShape.some((c) => !Number.isInteger(c) || c < 1)) {
    throw new ValueError(
      `toZarr: chunks ${JSON.stringify(zchunks)} is not one positive integer per axis of a ${x.ndim}-d array`,
    );
  }
  const fill = encodeFillValue(fillValue ?? (x.dtype === 'bool' ? false : 0), x.dtype);
  const aligned = x.chunks.every((axis, i) => regular(axis, chunkShape[i]!));
  const src = aligned ? x : rechunk(x, chunkShape);
  const store = storeRef(target);
  const path = arrayPath(p);
  const { zarr } = await loadZarr();
  const zstore = (await openZarrStore(store)) as Zarr.Readable & Zarr.AsyncMutable;
  const location = zarr.root(zstore).resolve(path);
  await clearTarget(zstore, location, store, target, overwrite === true);
  const shape = x.shape as number[];
  const metadataKey = location.resolve('zarr.json').path;
  const doc = (complete: boolean): Uint8Array =>
    arrayDocument({
      shape,
      chunkShape: x.ndim === 0 ? [] : chunkShape,
      dtype: x.dtype,
      codecs: (codecs as CodecMetadata[] | undefined) ?? DEFAULT_CODECS,
      fillValue: fill,
      complete,
    });
  // Marked incomplete until the last chunk is written: a failed or interrupted write never
  // reads back as a whole array (fromZarr refuses it).
  await zstore.set(metadataKey, doc(false));
  const array: ZarrArrayRef = {
    store,
    path,
    shape,
    dtype: x.dtype,
    chunks: chunkShape,
    writeId: randomUUID(),
  };
  const chunks = src.chunks as number[][];
  const offsets = chunks.map(chunkOffsets);
  const writes = defineLayer({
    op: 'to-zarr',
    token: [store, path, array.writeId],
    deps: [src.layer],
    chunks: chunks.map((axis) => axis.map(() => 1)),
    dtype: 'float64',
    fusable: false,
    task: (b): TaskSpec => ({
      kernel: 'zarr-write',
      inputs: [[0, b]],
      params: {
        array,
        start: b.map((i, ax) => offsets[ax]![i]!),
        count: b.map((i, ax) => chunks[ax]![i]!),
      } satisfies ZarrRegionParams,
    }),
  });
  await computeBlocks([writes], computeOpts);
  await zstore.set(metadataKey, doc(true));
}
