// take: gather along one axis by an eager list of integer indices (repeats, any order).
// Output blocks group consecutive indices; each reads only the input blocks its indices hit.

import { isInteger, type TypedArray } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import { LazyArray } from '../array/lazy-array.ts';
import { NDArray } from '../array/ndarray.ts';
import { blockAt, chunkOffsets } from '../chunking/blocks.ts';
import { formatValue } from '../chunking/format.ts';
import { regularChunks } from '../chunking/normalize.ts';
import { ChunkError, DTypeError, IndexError, ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import type { BlockRef, TaskSpec } from '../graph/layer.ts';
import { normalizeAxis } from './axis-args.ts';

/**
 * Index lists take accepts: JS integers, an Int32Array (any int TypedArray, BigInt64Array
 * included), a 1-D int NDArray (int64 too), or a 1-D integer LazyArray (its values are read
 * when the graph runs).
 */
export type TakeIndices = readonly number[] | TypedArray | NDArray | LazyArray;

/** Options of take. */
export interface TakeOptions {
  /** The axis to gather along; required when x has more than one axis. */
  axis?: number;
}

/** Validate index values against an axis of size `n`; negatives wrap. */
export function wrapIndices(fn: string, indices: TakeIndices, n: number, axis: number): Int32Array {
  let values: globalThis.ArrayLike<unknown>;
  if (indices instanceof NDArray) {
    if (!isInteger(indices.dtype)) {
      throw new DTypeError(
        `${fn}: indices have dtype '${indices.dtype}'; an integer dtype is needed`,
      );
    }
    if (indices.ndim !== 1) {
      throw new IndexError(
        `${fn}: indices of shape ${formatValue(indices.shape)} are not 1-D; only 1-D index arrays are supported`,
      );
    }
    values = indices.data;
  } else if (Array.isArray(indices) || ArrayBuffer.isView(indices)) {
    values = indices as globalThis.ArrayLike<unknown>;
  } else {
    throw new IndexError(`${fn}: indices ${formatValue(indices)} are not an integer list`);
  }
  const out = new Int32Array(values.length);
  for (let k = 0; k < values.length; k++) {
    const v = values[k];
    // a BigInt (int64 data) in bounds is a safe integer; one out of them stays out as a number
    const i = typeof v === 'bigint' ? Number(v) : v;
    if (typeof i !== 'number' || !Number.isInteger(i)) {
      throw new IndexError(`${fn}: index ${formatValue(i)} at position ${k} is not an integer`);
    }
    if (i < -n || i >= n) {
      throw new IndexError(`${fn}: index ${v} is out of bounds for axis ${axis} with size ${n}`);
    }
    out[k] = i < 0 ? i + n : i;
  }
  return out;
}

/** The input blocks and per-index (slot, local index) of one output chunk along the axis. */
interface Gather {
  readonly blocks: number[];
  readonly slot: number[];
  readonly local: number[];
}

function gatherOf(idx: Int32Array, offsets: readonly number[], lo: number, hi: number): Gather {
  const blocks: number[] = [];
  const slotOf = new Map<number, number>();
  const slot: number[] = [];
  const local: number[] = [];
  for (let k = lo; k < hi; k++) {
    const i = idx[k]!;
    const a = blockAt(offsets, i);
    let s = slotOf.get(a);
    if (s === undefined) {
      s = blocks.length;
      slotOf.set(a, s);
      blocks.push(a);
    }
    slot.push(s);
    local.push(i - offsets[a]!);
  }
  if (blocks.length === 0) blocks.push(0);
  return { blocks, slot, local };
}

/**
 * The take layer for already-wrapped indices. With `front`, the gathered axis becomes the
 * first output axis (NumPy's place for an advanced index split from the others).
 */
export function takeWrapped(x: LazyArray, idx: Int32Array, axis: number, front = false): LazyArray {
  const axisChunks = x.chunks[axis] as number[];
  const offsets = chunkOffsets(axisChunks);
  const outAxis = regularChunks(
    idx.length,
    axisChunks.reduce((m, c) => Math.max(m, c), 1),
  );
  const outOffsets = chunkOffsets(outAxis);
  const chunks = x.chunks.map((c) => [...c]);
  chunks[axis] = outAxis;
  if (front) chunks.unshift(...chunks.splice(axis, 1));
  const cache = new Map<number, Gather>();
  const task = (b: readonly number[]): TaskSpec => {
    const inBlock = front ? [...b.slice(1, axis + 1), b[0]!, ...b.slice(axis + 1)] : [...b];
    const j = inBlock[axis]!;
    let g = cache.get(j);
    if (g === undefined) {
      g = gatherOf(idx, offsets, outOffsets[j]!, outOffsets[j + 1]!);
      cache.set(j, g);
    }
    const inputs: BlockRef[] = g.blocks.map((ib) => {
      const blk = [...inBlock];
      blk[axis] = ib;
      return [0, blk];
    });
    return { kernel: 'take', inputs, params: { axis, slot: g.slot, local: g.local, front } };
  };
  const layer = defineLayer({
    op: 'take',
    token: [idx, axis, front],
    deps: [x.layer],
    chunks,
    dtype: x.dtype,
    fusable: false,
    task,
  });
  return new LazyArray(layer);
}

/**
 * The take layer for indices held by a 1-D integer LazyArray: output block j along `axis`
 * reads index block j and every input block along the axis (bounds checked when it runs).
 */
export function takeLazy(fn: string, x: LazyArray, idx: LazyArray, axis: number): LazyArray {
  if (idx.ndim !== 1 || !isInteger(idx.dtype)) {
    throw new IndexError(
      `${fn}: index array ${idx.name} of dtype '${idx.dtype}' and shape ${formatValue(idx.shape)} is not a 1-D integer array`,
    );
  }
  if (x.device !== idx.device) {
    throw new ValueError(
      `${fn}: indices on '${idx.device}' and data on '${x.device}' must be on one device; move one with toDevice`,
    );
  }
  const axisChunks = x.chunks[axis]!;
  if (axisChunks.some((c) => c === null)) {
    throw new ChunkError(
      `${fn}: axis ${axis} has unknown size (chunks ${formatValue(axisChunks)}); call computeChunkSizes(x) first`,
    );
  }
  const offsets = chunkOffsets(axisChunks as number[]);
  const chunks = x.chunks.map((c) => [...c]);
  chunks[axis] = [...idx.chunks[0]!];
  const params = { axis, offsets, fn };
  const layer = defineLayer({
    op: 'take',
    token: [axis, fn],
    deps: [idx.layer, x.layer],
    chunks,
    dtype: x.dtype,
    fusable: false,
    task: (b): TaskSpec => {
      const inputs: BlockRef[] = [[0, [b[axis]!]]];
      for (let j = 0; j < axisChunks.length; j++) {
        const blk = [...b];
        blk[axis] = j;
        inputs.push([1, blk]);
      }
      return { kernel: 'take-indexed', inputs, params };
    },
  });
  return new LazyArray(layer);
}

/**
 * Take elements of `x` along `axis` at `indices` (Array API `take`): the result has the
 * same axes, with `axis` of length `indices.length`. Indices may repeat and come in any
 * order; negative ones count from the end. `axis` is required when `x.ndim > 1`. Indices may
 * be a lazy 1-D integer array: its values are read, and bounds checked, when the graph runs.
 * @example
 * const x = arange(10, { chunks: 4 });
 * await compute(take(x, [7, -1, 0, 7])); // [7, 9, 0, 7]
 */
export function take<X extends ArrayLike, I extends TakeIndices>(
  x: X,
  indices: I,
  opts: TakeOptions = {},
): LazyArray<KnownIn<[X, I]>> {
  const a = asLazy(x, 'take');
  if (a.ndim === 0) throw new ValueError('take: x is 0-d; it needs at least one axis');
  if (opts.axis === undefined && a.ndim > 1) {
    throw new ValueError(`take: axis is required for a ${a.ndim}-d array`);
  }
  const axis = normalizeAxis('take', opts.axis ?? 0, a.ndim);
  if (indices instanceof LazyArray)
    return takeLazy('take', a, indices, axis) as LazyArray<KnownIn<[X, I]>>;
  const n = a.shape[axis]!;
  if (n === null) {
    throw new ChunkError(
      `take: axis ${axis} has unknown size (chunks ${formatValue(a.chunks[axis])}); call computeChunkSizes(x) first`,
    );
  }
  return takeWrapped(a, wrapIndices('take', indices, n, axis), axis) as LazyArray<KnownIn<[X, I]>>;
}
