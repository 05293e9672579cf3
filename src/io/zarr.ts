// fromZarr and toZarr: lazy arrays over Zarr arrays (v2 and v3, any codec zarrita decodes),
// read and written block by block by asynchronous tasks on whichever worker runs them.

import { resolve } from 'node:path';
import type * as Zarr from 'zarrita';
import { rechunk } from '../apply/rechunk.ts';
import type { ComputeOptions } from '../array/compute.ts';
import { computeBlocks } from '../array/compute.ts';
import type { DType } from '../array/dtype.ts';
import { LazyArray } from '../array/lazy-array.ts';
import { chunkOffsets } from '../chunking/blocks.ts';
import { normalizeChunks } from '../chunking/normalize.ts';
import type { ChunkSpec, Chunks } from '../chunking/types.ts';
import { ChunkError, DTypeError, ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import type { TaskSpec } from '../graph/layer.ts';
import {
  loadZarr,
  openZarrStore,
  type ZarrArrayRef,
  type ZarrRegionParams,
  type ZarrStoreRef,
} from './zarr-io.ts';

export interface FromZarrOptions {
  /** Path of the array inside the store (default: the store's root). */
  path?: string;
  /** Chunk spec (default: the Zarr array's own chunks, so each task reads one Zarr chunk). */
  chunks?: ChunkSpec | Chunks;
}

export interface ToZarrOptions extends ComputeOptions {
  /** Path of the array inside the store (default: the store's root). */
  path?: string;
  /** Zarr chunk shape (default: the array's first chunk along each axis). */
  chunks?: readonly number[];
  /** Zarr v3 codecs, as zarrita takes them (default: uncompressed bytes). */
  codecs?: Zarr.CodecMetadata[];
}

const DTYPES: Partial<Record<string, DType>> = {
  float64: 'float64',
  float32: 'float32',
  int32: 'int32',
  int16: 'int16',
  int8: 'int8',
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
 */
export async function fromZarr(source: string, opts: FromZarrOptions = {}): Promise<LazyArray> {
  const store = storeRef(source);
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
  const dtype = DTYPES[arr.dtype];
  if (dtype === undefined) {
    throw new DTypeError(
      `fromZarr: ${JSON.stringify(source)} holds dtype '${arr.dtype}'; tessera stores float64, float32, int32, int16, int8, uint32, uint16, uint8 and bool`,
    );
  }
  const shape = arr.shape;
  const chunks = normalizeChunks(opts.chunks ?? arr.chunks, shape, {
    dtype,
    fn: 'fromZarr',
  }) as number[][];
  const offsets = chunks.map(chunkOffsets);
  const array: ZarrArrayRef = { store, path, shape, dtype };
  const layer = defineLayer({
    op: 'from-zarr',
    token: [store, path, shape, arr.chunks, dtype],
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
  return new LazyArray(layer);
}

/** Whether `axis` is a regular chunking of `size`: all `size`, the last one no larger. */
const regular = (axis: readonly (number | null)[], size: number): boolean =>
  axis.every((c, i) => c === size || (i === axis.length - 1 && c !== null && c <= size));

/**
 * Compute `x` into a new Zarr v3 array at `target` (a directory) and `opts.path`, each block
 * written by its own task; `x` is rechunked first when its chunks do not match the Zarr
 * chunk grid. Compute options (scheduler, progress, signal…) apply to the writing compute.
 * @example
 * await toZarr(random.normal([512, 512, 512], { seed: 1, chunks: 128 }), 'noise.zarr');
 */
export async function toZarr(
  x: LazyArray,
  target: string,
  opts: ToZarrOptions = {},
): Promise<void> {
  const { path: p, chunks: zchunks, codecs, ...computeOpts } = opts;
  const dtype = x.dtype;
  if (dtype === 'float16') {
    throw new DTypeError(
      `toZarr: dtype 'float16' is not written (zarrita has no float16); cast with astype(x, 'float32') first`,
    );
  }
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
  const aligned = x.chunks.every((axis, i) => regular(axis, chunkShape[i]!));
  const src = aligned ? x : rechunk(x, chunkShape);
  const store = storeRef(target);
  const path = arrayPath(p);
  const { zarr } = await loadZarr();
  const location = zarr.root((await openZarrStore(store)) as Zarr.Mutable).resolve(path);
  const shape = x.shape as number[];
  await zarr.create(location, {
    shape: [...shape],
    chunkShape: x.ndim === 0 ? [] : chunkShape,
    dtype,
    ...(codecs ? { codecs } : {}),
  });
  const array: ZarrArrayRef = { store, path, shape, dtype: x.dtype };
  const chunks = src.chunks as number[][];
  const offsets = chunks.map(chunkOffsets);
  const writes = defineLayer({
    op: 'to-zarr',
    token: [store, path],
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
}
