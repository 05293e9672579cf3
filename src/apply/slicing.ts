// Basic slicing (ints, slices with any step, new axes, '...'): one layer whose every output
// block is a strided piece of exactly one input block, so culling skips untouched blocks.

import { type ArrayLike, asLazy } from '../array/from-array.ts';
import { LazyArray } from '../array/lazy-array.ts';
import type { IndexItem } from '../chunking/parse-index.ts';
import {
  type AxisSelection,
  type NormalizedIndex,
  normalizeIndex,
  type SlicePlan,
  sliceBlock,
  sliceChunks,
} from '../chunking/slicing.ts';
import type { Chunks, Size } from '../chunking/types.ts';
import { IndexError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import type { TaskSpec } from '../graph/layer.ts';

/** True when a selection takes the whole axis in order. */
function isFull(sel: AxisSelection, size: Size): boolean {
  return sel.kind === 'slice' && sel.start === 0 && sel.step === 1 && sel.count === size;
}

/** Output block `b` as a task: a plain strided slice, or one that also drops/inserts axes. */
function sliceTask(plan: SlicePlan, outAxes: readonly (number | null)[], b: readonly number[]) {
  const kept = b.filter((_, i) => outAxes[i] !== null);
  const s = sliceBlock(plan, kept);
  const plain =
    outAxes.length === plan.axes.length &&
    outAxes.every((a, i) => a === i) &&
    !s.count.includes(null);
  if (plain) {
    return {
      kernel: 'slice',
      inputs: [[0, s.inputBlock]],
      params: { start: s.start, step: s.step, count: s.count },
    } satisfies TaskSpec;
  }
  const axes = outAxes.map((a) => (a === null ? -1 : a));
  return {
    kernel: 'getitem',
    inputs: [[0, s.inputBlock]],
    params: { start: s.start, step: s.step, count: s.count, axes },
  } satisfies TaskSpec;
}

/**
 * The layer of a normalized basic index (no integer arrays) over `x`. Returns `x` itself
 * when the index selects everything unchanged.
 */
export function sliceNormalized(x: LazyArray, norm: NormalizedIndex): LazyArray {
  const shape = x.shape;
  const identity =
    norm.outAxes.length === x.ndim && norm.axes.every((s, ax) => isFull(s, shape[ax]!));
  if (identity) return x;
  const plan = sliceChunks(x.chunks, norm.axes);
  const kept = plan.axes.map((a) => (a.keep ? a.chunks : null));
  const chunks: Chunks = norm.outAxes.map((a) => (a === null ? [1] : [...kept[a]!]));
  // Same grid and output block b reads input block b: blockwise-fusable.
  const fusable =
    norm.outAxes.length === x.ndim &&
    norm.outAxes.every((a, i) => a === i) &&
    plan.axes.every(
      (a, ax) =>
        a.pieces.length === x.chunks[ax]!.length && a.pieces.every((p, i) => p.block === i),
    );
  // a plain slice whose blocks map one to one but not in order (negative steps) can still
  // be read in place by its consumer's fused task
  const plainOneToOne =
    !fusable &&
    norm.outAxes.length === x.ndim &&
    norm.outAxes.every((a, i) => a === i) &&
    plan.axes.every((a, ax) => a.pieces.length === x.chunks[ax]!.length);
  const layer = defineLayer({
    op: 'getitem',
    token: [norm.axes, norm.outAxes],
    deps: [x.layer],
    chunks,
    dtype: x.dtype,
    fusable,
    absorbable: plainOneToOne,
    task: (b) => sliceTask(plan, norm.outAxes, b),
  });
  return new LazyArray(layer);
}

/**
 * Basic indexing of `x` by NumPy index items: integers (drop the axis; negative counts from
 * the end), slices `{ start, stop, step }` (any non-zero step), `null` (a new axis of length
 * 1) and `'...'`. Each output block reads one input block; blocks the index misses are never
 * computed. Out-of-bounds integers raise IndexError; slicing an axis of unknown size with
 * anything but `:` raises ChunkError (call computeChunkSizes first).
 * @example
 * const x = zeros([10, 10], { chunks: 5 });
 * getitem(x, [{ start: 1, stop: 4 }, { step: -1 }]).shape; // [3, 10]
 */
export function getitem(x: ArrayLike, index: readonly IndexItem[]): LazyArray {
  const a = asLazy(x, 'get');
  for (const item of index) {
    if (Array.isArray(item) || item instanceof Int32Array) {
      throw new IndexError(
        `get: integer array ${JSON.stringify(Array.from(item))} is not a basic index; use getIndex or take`,
      );
    }
  }
  return sliceNormalized(a, normalizeIndex('get', index, a.shape));
}
