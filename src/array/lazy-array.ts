// LazyArray: the user-facing handle on one layer of the operation graph.
// It holds metadata only (shape, chunks, dtype); methods add layers; compute() runs them.

import type { Device } from '../devices/device.ts';
import type { Layer } from '../graph/layer.ts';
import { type DType, itemsize } from './dtype.ts';
import type { ChunksOf, CountOf, ShapeOf } from './known-shape.ts';

/**
 * A lazy, chunked n-d array. Building expressions never computes.
 *
 * `Known` records in the type whether every size is known: `LazyArray<true>` (what creation
 * functions, fromArray, the fromNpy/fromZarr readers, persist and computeChunkSizes give, and
 * what elementwise operations, reductions, matmul, rechunk, reshape, transposes and slicing
 * with a static index keep, in function or method form, when their array inputs are known;
 * numbers and eager data count as known) has `shape: number[]`. Plain `LazyArray`, `LazyArray<boolean>`,
 * is any array: its `shape` is `(number | null)[]`, as after a boolean mask, nonzero or unique,
 * whose sizes are known only once computed. Operations not typed this way (mapBlocks,
 * blockwise, lazyApply, …) give `LazyArray`; `computeChunkSizes` makes one known.
 * @example
 * const x = ones([1000, 1000], { chunks: 250 }); // 16 blocks, nothing computed yet
 * const y = x.mul(2).sum({ axis: 0 }); // still lazy: shape [1000], typed number[]
 * const z = await y.compute(); // NDArray
 */
export class LazyArray<out Known extends boolean = boolean> {
  readonly layer: Layer;

  constructor(layer: Layer) {
    this.layer = layer;
  }

  /** Where the blocks live: 'cpu' (the host), 'gpu' or 'gpu:N'. */
  get device(): Device {
    return (this.layer.device ?? 'cpu') as Device;
  }

  /** Deterministic name: the same expression gives the same name. */
  get name(): string {
    return this.layer.name;
  }

  get dtype(): DType {
    return this.layer.dtype;
  }

  /** Explicit chunk sizes per axis; `null` = unknown. */
  get chunks(): ChunksOf<Known> {
    return this.layer.chunks as ChunksOf<Known>;
  }

  /** Sizes per axis; `null` where unknown. */
  get shape(): ShapeOf<Known> {
    return this.layer.chunks.map((c) => {
      let s = 0;
      for (const v of c) {
        if (v === null) return null;
        s += v;
      }
      return s;
    }) as ShapeOf<Known>;
  }

  get ndim(): number {
    return this.layer.chunks.length;
  }

  /** Element count; `null` when a size is unknown. */
  get size(): CountOf<Known> {
    let n = 1;
    for (const s of this.shape as (number | null)[]) {
      if (s === null) return null as CountOf<Known>;
      n *= s;
    }
    return n as CountOf<Known>;
  }

  /** Bytes of the whole array; `null` when a size is unknown. */
  get nbytes(): CountOf<Known> {
    const n: number | null = this.size;
    return (n === null ? null : n * itemsize(this.dtype)) as CountOf<Known>;
  }

  /** Number of blocks along each axis. */
  get numBlocks(): number[] {
    return this.layer.chunks.map((c) => c.length);
  }

  /** A one-line description: shape, dtype, chunks and name. */
  toString(): string {
    const shape = (this.shape as (number | null)[])
      .map((s) => (s === null ? '?' : String(s)))
      .join(', ');
    return `LazyArray<${this.name}, shape=(${shape}), dtype=${this.dtype}, blocks=(${this.numBlocks.join(', ')})>`;
  }
}

/**
 * True when `x` is a LazyArray.
 * @example
 * isLazyArray(ones([3])); // true
 * isLazyArray(ndarray([1, 2, 3])); // false: an NDArray is eager
 */
export function isLazyArray(x: unknown): x is LazyArray {
  return x instanceof LazyArray;
}
