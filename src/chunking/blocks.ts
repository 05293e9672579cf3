// Block-grid arithmetic over explicit chunks: offsets, counts, block shapes, C-order
// iteration and flat <-> multi-index conversion.

import { IndexError } from '../errors.ts';
import { formatTuple } from './format.ts';
import type { Size } from './types.ts';

/**
 * Cumulative starts of an axis's chunks, with the axis length appended (length n + 1).
 * @example
 * chunkOffsets([3, 3, 1]); // [0, 3, 6, 7]
 */
export function chunkOffsets(axisChunks: readonly number[]): number[] {
  const out = new Array<number>(axisChunks.length + 1);
  let acc = 0;
  out[0] = 0;
  for (let i = 0; i < axisChunks.length; i++) {
    acc += axisChunks[i]!;
    out[i + 1] = acc;
  }
  return out;
}

/**
 * The block along an axis holding element `i`, given the axis' chunk offsets (`chunkOffsets`,
 * n + 1 of them); a binary search.
 * @example
 * blockAt([0, 3, 6, 8], 6); // 2
 */
export function blockAt(offsets: readonly number[], i: number): number {
  let a = 0;
  let b = offsets.length - 2;
  while (a < b) {
    const mid = (a + b + 1) >> 1;
    if (offsets[mid]! <= i) a = mid;
    else b = mid - 1;
  }
  return a;
}

/**
 * Number of blocks along each axis.
 * @example
 * blockGrid([[3, 3, 1], [4]]); // [3, 1]
 */
export function blockGrid(chunks: readonly (readonly Size[])[]): number[] {
  return chunks.map((c) => c.length);
}

/**
 * Total number of blocks of a chunking (1 for a 0-d array).
 * @example
 * numBlocks([[3, 3, 1], [2, 2]]); // 6
 */
export function numBlocks(chunks: readonly (readonly Size[])[]): number {
  let n = 1;
  for (const c of chunks) n *= c.length;
  return n;
}

/**
 * The shape of block `block` (a multi-index into the block grid).
 * @example
 * blockShape([[3, 3, 1], [4]], [2, 0]); // [1, 4]
 */
export function blockShape(chunks: readonly (readonly Size[])[], block: readonly number[]): Size[] {
  if (block.length !== chunks.length) {
    throw new IndexError(
      `blockShape: block ${formatTuple(block)} has ${block.length} indices, chunks have ${chunks.length} axes`,
    );
  }
  return chunks.map((c, ax) => {
    const i = block[ax]!;
    if (!Number.isInteger(i) || i < 0 || i >= c.length) {
      throw new IndexError(
        `blockShape: block index ${i} is out of bounds for axis ${ax} with ${c.length} blocks`,
      );
    }
    return c[i]!;
  });
}

/**
 * The array shape a chunking covers: the sum per axis, `null` where any size is unknown.
 * @example
 * shapeOfChunks([[3, 3, 1], [null, 2]]); // [7, null]
 */
export function shapeOfChunks(chunks: readonly (readonly Size[])[]): Size[] {
  return chunks.map((c) => {
    let s = 0;
    for (const v of c) {
      if (v === null) return null;
      s += v;
    }
    return s;
  });
}

/**
 * Every multi-index of a block grid, in C order (last axis fastest). Each yielded array
 * is fresh. A 0-d grid yields one empty index; a grid with a zero yields nothing.
 * @example
 * [...blocksOf([2, 2])]; // [[0, 0], [0, 1], [1, 0], [1, 1]]
 */
export function* blocksOf(grid: readonly number[]): Generator<number[]> {
  const nd = grid.length;
  if (grid.some((n) => n <= 0)) return;
  const idx = new Array<number>(nd).fill(0);
  for (;;) {
    yield idx.slice();
    let ax = nd - 1;
    for (; ax >= 0; ax--) {
      idx[ax]!++;
      if (idx[ax]! < grid[ax]!) break;
      idx[ax] = 0;
    }
    if (ax < 0) return;
  }
}

/**
 * The C-order flat position of a block multi-index in a grid.
 * @example
 * ravelBlock([1, 2], [3, 4]); // 6
 */
export function ravelBlock(block: readonly number[], grid: readonly number[]): number {
  if (block.length !== grid.length) {
    throw new IndexError(
      `ravelBlock: block ${formatTuple(block)} does not match grid ${formatTuple(grid)}`,
    );
  }
  let flat = 0;
  for (let ax = 0; ax < grid.length; ax++) {
    const i = block[ax]!;
    if (!Number.isInteger(i) || i < 0 || i >= grid[ax]!) {
      throw new IndexError(
        `ravelBlock: block ${formatTuple(block)} is out of bounds for grid ${formatTuple(grid)}`,
      );
    }
    flat = flat * grid[ax]! + i;
  }
  return flat;
}

/**
 * The block multi-index at C-order flat position `flat` of a grid.
 * @example
 * unravelBlock(6, [3, 4]); // [1, 2]
 */
export function unravelBlock(flat: number, grid: readonly number[]): number[] {
  let total = 1;
  for (const n of grid) total *= n;
  if (!Number.isInteger(flat) || flat < 0 || flat >= total) {
    throw new IndexError(
      `unravelBlock: flat index ${flat} is out of bounds for grid ${formatTuple(grid)}`,
    );
  }
  const out = new Array<number>(grid.length);
  for (let ax = grid.length - 1; ax >= 0; ax--) {
    const n = grid[ax]!;
    out[ax] = flat % n;
    flat = Math.floor(flat / n);
  }
  return out;
}
