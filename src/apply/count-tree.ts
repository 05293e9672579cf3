// Per-block counts merged by a tree (dask.array.histogram's and bincount's aggregation):
// one partial block per input block laid along axis 0, summed splitEvery at a time.

import type { LazyArray } from '../array/lazy-array.ts';
import { shapeSize } from '../array/ndarray.ts';
import type { Size } from '../chunking/types.ts';
import { config } from '../config.ts';
import { defineLayer } from '../graph/define-layer.ts';
import type { BlockRef, Layer, TaskSpec } from '../graph/layer.ts';

/** The block index of `x` at flat (C-order) position `k` of its block grid. */
export function unravelBlock(k: number, grid: readonly number[]): number[] {
  const out = new Array<number>(grid.length).fill(0);
  for (let ax = grid.length - 1, rest = k; ax >= 0; ax--) {
    out[ax] = rest % grid[ax]!;
    rest = Math.floor(rest / grid[ax]!);
  }
  return out;
}

/** What a partial layer needs: the inputs of the task for input block `b` of `x`. */
export interface PartialSpec {
  readonly op: string;
  readonly token: readonly unknown[];
  readonly x: LazyArray;
  /** Further dependencies: arrays chunked as `x` (block b each) or 0-d arrays. */
  readonly deps: readonly LazyArray[];
  /** The shape of every partial block (null entries: unknown). */
  readonly blockShape: readonly Size[];
  readonly kernel: string;
  readonly params: unknown;
}

/**
 * One partial task per block of `spec.x` (and the same block of each same-grid dependency,
 * the single block of each 0-d one), the partial blocks stacked along axis 0.
 */
export function partialCounts(spec: PartialSpec): Layer {
  const grid = spec.x.numBlocks;
  const nb = shapeSize(grid);
  const [first, ...rest] = spec.blockShape;
  return defineLayer({
    op: spec.op,
    token: [...spec.token, spec.params],
    deps: [spec.x.layer, ...spec.deps.map((d) => d.layer)],
    chunks: [new Array<Size>(nb).fill(first!), ...rest.map((s) => [s])],
    dtype: 'float64',
    // for a 1-D x the partial grid is x's: each partial fuses with the task making its block
    fusable: spec.x.ndim === 1,
    task: (b): TaskSpec => {
      const blk = unravelBlock(b[0]!, grid);
      const inputs: BlockRef[] = [
        [0, blk],
        ...spec.deps.map((d, i): BlockRef => [i + 1, d.ndim === 0 ? [] : blk]),
      ];
      return { kernel: spec.kernel, inputs, params: spec.params };
    },
  });
}

/**
 * `partial`'s blocks along axis 0 summed `splitEvery` at a time ('sum-blocks') until one is
 * left; the summing order is fixed by the tree, so counts do not depend on scheduling.
 */
export function sumTree(fn: string, partial: Layer, splitEvery = config.splitEvery): Layer {
  let layer = partial;
  for (let level = 0; layer.chunks[0]!.length > 1; level++) {
    const dep = layer;
    const n = dep.chunks[0]!.length;
    const rest = dep.chunks.slice(1);
    const zeros = rest.map(() => 0);
    layer = defineLayer({
      op: `${fn}-combine`,
      token: [splitEvery, level],
      deps: [dep],
      chunks: [new Array<Size>(Math.ceil(n / splitEvery)).fill(dep.chunks[0]![0]!), ...rest],
      dtype: 'float64',
      task: (b): TaskSpec => {
        const inputs: BlockRef[] = [];
        for (let k = b[0]! * splitEvery; k < Math.min(n, (b[0]! + 1) * splitEvery); k++) {
          inputs.push([0, [k, ...zeros]]);
        }
        return { kernel: 'sum-blocks', inputs };
      },
    });
  }
  return layer;
}
