// toNpy: compute an array into one .npy file, each block written at its place by the task
// that computed it; the file appears under its name only once every block is in.

import { randomUUID } from 'node:crypto';
import { closeSync, ftruncateSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe } from '../array/check-options.ts';
import type { ComputeOptions } from '../array/compute.ts';
import { computeBlocks } from '../array/compute.ts';
import { checkComputeOptions } from '../array/compute-options.ts';
import { itemsize } from '../array/dtype.ts';
import { LazyArray } from '../array/lazy-array.ts';
import { shapeSize } from '../array/ndarray.ts';
import { chunkOffsets } from '../chunking/blocks.ts';
import { ChunkError, ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import type { TaskSpec } from '../graph/layer.ts';
import { checkPathArg, checkWritableDir } from './check-path.ts';
import { type NpyWriteParams, npyHeaderBytes } from './npy-write.ts';

/** The array's chunks, every size known (or a ChunkError naming `fn`). */
export function knownChunks(fn: string, x: LazyArray): number[][] {
  if (x.chunks.some((axis) => axis.includes(null))) {
    throw new ChunkError(
      `${fn}: ${x.name} has unknown chunk sizes; resolve them with computeChunkSizes(x) first`,
    );
  }
  return x.chunks as number[][];
}

/** A name beside `path` that no reader takes for the finished file. */
export const partialName = (path: string) => `${path}.${randomUUID()}.partial`;

/**
 * Compute `x` into the .npy file at `path` (C order, little-endian; NumPy's np.load reads
 * it). The header is written first, then every block by the task (on whichever worker)
 * that computed it, with positioned writes at its place, under a temporary name beside
 * `path`; only when every block is written is it renamed to `path`, so a failed or
 * interrupted compute never leaves a file there that looks complete (the temporary file is
 * removed on failure). An existing file at `path` is replaced. Compute options apply.
 * @example
 * await toNpy(random.normal([1000, 64], { seed: 1, chunks: [100, 64] }), 'noise.npy');
 * const back = fromNpy('noise.npy');
 */
export async function toNpy(x: LazyArray, path: string, opts?: ComputeOptions): Promise<void> {
  const fn = 'toNpy';
  if (!(x instanceof LazyArray)) throw new ValueError(`${fn}: ${describe(x)} is not a LazyArray`);
  const target = resolve(checkPathArg(fn, 'path', path));
  const computeOpts = checkComputeOptions(fn, opts ?? {});
  checkWritableDir(fn, dirname(target));
  const chunks = knownChunks(fn, x);
  const shape = x.shape as number[];
  const header = npyHeaderBytes(x.dtype, shape);
  const partial = partialName(target);
  const fd = openSync(partial, 'w');
  try {
    writeSync(fd, header);
    ftruncateSync(fd, header.length + shapeSize(shape) * itemsize(x.dtype));
  } finally {
    closeSync(fd);
  }
  const offsets = chunks.map(chunkOffsets);
  const writes = defineLayer({
    op: 'to-npy',
    token: [partial],
    deps: [x.layer],
    chunks: chunks.map((axis) => axis.map(() => 1)),
    dtype: 'float64',
    task: (b): TaskSpec => ({
      kernel: 'npy-write',
      inputs: [[0, b]],
      params: {
        path: partial,
        dataOffset: header.length,
        shape,
        start: b.map((i, ax) => offsets[ax]![i]!),
        count: b.map((i, ax) => chunks[ax]![i]!),
      } satisfies NpyWriteParams,
    }),
  });
  try {
    await computeBlocks([writes], computeOpts);
    renameSync(partial, target);
  } catch (e) {
    rmSync(partial, { force: true });
    throw e;
  }
}
