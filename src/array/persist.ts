// persist() and computeChunkSizes(): compute arrays once and keep their blocks in memory,
// as new arrays with the same names whose chunk sizes are all known.

import { ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import type { Chunk } from '../kernels/types.ts';
import { chunksOfBlocks } from './assemble.ts';
import { describe } from './check-options.ts';
import { type ComputeOptions, computeBlocks, splitArgs } from './compute.ts';
import { checkComputeOptions } from './compute-options.ts';
import { LazyArray } from './lazy-array.ts';

/**
 * One LazyArray per array of `T`, its sizes known (the blocks are held):
 * `[LazyArray, LazyArray]` gives `[LazyArray<true>, LazyArray<true>]`.
 */
export type Persisted<T extends readonly LazyArray[]> = {
  -readonly [K in keyof T]: LazyArray<true>;
};

function heldArray(x: LazyArray, blocks: readonly Chunk[]): LazyArray<true> {
  const grid = x.numBlocks;
  const chunks = chunksOfBlocks(blocks, grid, x.name);
  const layer = defineLayer({
    op: 'persisted',
    name: x.name,
    deps: [],
    chunks,
    dtype: x.dtype,
    device: x.device,
    task: () => {
      throw new Error('persisted layer has no tasks');
    },
    constant: (b) => {
      let flat = 0;
      for (let ax = 0; ax < grid.length; ax++) flat = flat * grid[ax]! + b[ax]!;
      return blocks[flat]!;
    },
  });
  return new LazyArray<true>(layer);
}

/**
 * Compute arrays and keep their blocks in memory; later expressions on the results start
 * from those blocks instead of recomputing. Resolves with one LazyArray per array given (a
 * tuple of the same length).
 * @example
 * const [y] = await persist(x.mul(2));
 * await compute(y.sum()); // no recomputation of x * 2
 */
export function persist<T extends readonly [LazyArray, ...LazyArray[]]>(
  ...arrays: T
): Promise<Persisted<T>>;
export function persist<T extends readonly [LazyArray, ...LazyArray[]]>(
  ...args: [...T, ComputeOptions]
): Promise<Persisted<T>>;
export async function persist(...args: (LazyArray | ComputeOptions)[]): Promise<LazyArray<true>[]> {
  const { arrays, opts } = splitArgs('persist', args);
  const blocks = await computeBlocks(
    arrays.map((a) => a.layer),
    opts,
  );
  return arrays.map((a, i) => heldArray(a, blocks[i]!));
}

/**
 * Resolve unknown (null) chunk sizes by computing the array; the result holds its blocks.
 * @example
 * const y = x.mask(x.greater(0)); // y.shape: [null]
 * const z = await computeChunkSizes(y); // z.shape: [n]
 */
export async function computeChunkSizes(
  x: LazyArray,
  opts?: ComputeOptions,
): Promise<LazyArray<true>> {
  if (!(x instanceof LazyArray)) {
    throw new ValueError(`computeChunkSizes: ${describe(x)} is not a LazyArray`);
  }
  const [blocks] = await computeBlocks([x.layer], checkComputeOptions('computeChunkSizes', opts));
  return heldArray(x, blocks!);
}
