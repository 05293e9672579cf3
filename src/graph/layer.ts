// A layer is one operation of the graph: it yields the task for any of its output blocks.
// Tasks are plain data (kernel name, params, references to input blocks), never closures.

import type { DType } from '../array/dtype.ts';
import type { Chunks } from '../chunking/types.ts';
import type { BackendRef, Chunk } from '../kernels/types.ts';

export type { BackendRef };

/** An input block of a task: dependency index in `layer.deps`, block multi-index there. */
export type BlockRef = readonly [dep: number, block: readonly number[]];

/** The task computing one output block. */
export interface TaskSpec {
  /** Built-in kernel name (see backends/cpu-js/registry). */
  readonly kernel: string;
  /** Input blocks, in the order the kernel receives them. */
  readonly inputs: readonly BlockRef[];
  /** Static, structured-cloneable parameters. */
  readonly params?: unknown;
  /** Must run on the main thread (an `{ inline: true }` user function). */
  readonly mainThread?: boolean;
  /** Must run in a separate process (an `{ isolate: true }` user function). */
  readonly isolated?: boolean;
}

/**
 * One operation node. `chunks` is the logical block grid of its output; `task(block)`
 * describes how block `block` is computed. Source layers give blocks directly
 * through `constant(block)` and have no tasks.
 */
export interface Layer {
  /** Deterministic token: the same expression gives the same name. */
  readonly name: string;
  /** Short operation label for display and task keys ('add', 'sum-partial', …). */
  readonly op: string;
  readonly deps: readonly Layer[];
  readonly chunks: Chunks;
  readonly dtype: DType;
  /**
   * Blockwise-fusable: `task(b)` reads one block of each dep, and block `b` itself of every
   * dep with the same block grid. Chains of such layers fuse into one task per block.
   */
  readonly fusable: boolean;
  /**
   * Not blockwise, yet its tasks may join its single consumer's fused task: `task(b)` reads
   * blocks of its one dep, not necessarily block `b` (a slice with a negative step reads the
   * mirrored block; an overlap reads the neighbourhood of `b`). Nothing fuses into such a
   * layer.
   */
  readonly absorbable?: boolean;
  task(block: readonly number[]): TaskSpec;
  /** For source layers: the block value itself (no task runs). */
  constant?(block: readonly number[]): Chunk;
  /**
   * The backend chosen for the layer when it was built (dispatch); absent for glue layers
   * (slices, rechunks, …) that run the reference kernels wherever their neighbours run.
   */
  readonly backend?: BackendRef;
  /** Where its blocks live ('gpu', 'gpu:1', …); absent means the host ('cpu'). */
  readonly device?: string;
  /** Display metadata for visualize(). */
  readonly meta?: Readonly<Record<string, string | number | boolean>>;
}

/** Number of blocks along each axis of a layer's grid. */
export function gridOf(layer: Layer): number[] {
  return layer.chunks.map((c) => c.length);
}
