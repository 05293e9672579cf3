// Assemble a grid of computed blocks into one NDArray, and read actual chunk sizes off
// computed blocks (which resolves unknown sizes).

import { writeRegion } from '../backends/cpu-js/layout/slice.ts';
import { ShapeError } from '../errors.ts';
import { unravel } from '../graph/materialize.ts';
import type { Chunk } from '../kernels/types.ts';
import type { DType } from './dtype.ts';
import { emptyNDArray, NDArray } from './ndarray.ts';

function asBlock(c: Chunk, key: string): NDArray {
  if (!(c instanceof NDArray))
    throw new ShapeError(`compute: block ${key} is a tuple, not an array`);
  return c;
}

/** Actual chunk sizes per axis, read off the blocks of a grid (C order). */
export function chunksOfBlocks(
  blocks: readonly Chunk[],
  grid: readonly number[],
  name: string,
): number[][] {
  const strides = grid.map((_, ax) => grid.slice(ax + 1).reduce((a, b) => a * b, 1));
  return grid.map((g, ax) =>
    Array.from({ length: g }, (_, i) => asBlock(blocks[i * strides[ax]!]!, name).shape[ax]!),
  );
}

/**
 * One NDArray from a grid of blocks; a single block is returned as it is.
 * @example
 * assembleBlocks([a, b], [2], 'float64', 'x'); // a and b stacked along axis 0
 */
export function assembleBlocks(
  blocks: readonly Chunk[],
  grid: readonly number[],
  dtype: DType,
  name: string,
): NDArray {
  if (blocks.length === 1) {
    const b = asBlock(blocks[0]!, name);
    return b.dtype === dtype ? b : new NDArray(b.data, b.shape, dtype);
  }
  const chunks = chunksOfBlocks(blocks, grid, name);
  const offsets = chunks.map((c) => {
    const o = [0];
    for (const s of c) o.push(o[o.length - 1]! + s);
    return o;
  });
  const out = emptyNDArray(
    offsets.map((o) => o[o.length - 1]!),
    dtype,
  );
  blocks.forEach((c, flat) => {
    const idx = unravel(flat, grid);
    writeRegion(
      out,
      asBlock(c, name),
      idx.map((i, ax) => offsets[ax]![i]!),
    );
  });
  return out;
}
