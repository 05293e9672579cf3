// sort and argsort along an axis. Each block is sorted along the axis in parallel; where the
// axis spans several blocks, sorted runs merge in a tree (fan-in `splitEvery`), each merge one
// task per line band, and the result is rechunked back to the input's chunks.

import { checkOptions, optionalBoolean } from '../array/check-options.ts';
import { isFloat, isInteger } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import { LazyArray } from '../array/lazy-array.ts';
import { chunkOffsets } from '../chunking/blocks.ts';
import { formatValue } from '../chunking/format.ts';
import type { Chunks, Size } from '../chunking/types.ts';
import { config } from '../config.ts';
import { ChunkError, DTypeError, ShapeError, ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import type { BlockRef, Layer } from '../graph/layer.ts';
import { normalizeAxis } from './axis-args.ts';
import { astype } from './elementwise-logic.ts';
import { rechunk } from './rechunk.ts';

/** Options of sort and argsort. */
export interface SortOptions {
  /** The axis to sort along (default -1). */
  axis?: number;
  /** Largest first (NaN still last). */
  descending?: boolean;
  /** Keep equal elements in their original order (always true here: every path is stable). */
  stable?: boolean;
  /** Runs merged per task where the axis spans several blocks (default config.splitEvery). */
  splitEvery?: number;
}

interface Plan {
  readonly a: LazyArray;
  readonly axis: number;
  readonly descending: boolean;
  readonly fanIn: number;
}

function plan(fn: string, x: ArrayLike, opts?: SortOptions): Plan {
  const o = checkOptions(fn, opts);
  let a = asLazy(x, fn);
  if (a.ndim === 0) throw new ShapeError(`${fn}: x must have at least one axis, got a 0-d array`);
  if (!isFloat(a.dtype) && !isInteger(a.dtype)) {
    throw new DTypeError(
      `${fn}: needs a real numeric array, got dtype '${a.dtype}' (astype first)`,
    );
  }
  const axis = normalizeAxis(fn, o.axis ?? -1, a.ndim);
  const descending = optionalBoolean(fn, 'descending', o.descending, false);
  optionalBoolean(fn, 'stable', o.stable, true);
  const fanIn = o.splitEvery ?? config.splitEvery;
  if (!Number.isSafeInteger(fanIn) || fanIn < 2) {
    throw new ValueError(`${fn}: splitEvery ${formatValue(fanIn)} must be an integer >= 2`);
  }
  if (a.chunks[axis]!.some((c) => c === null)) {
    throw new ChunkError(`${fn}: axis ${axis} has unknown sizes; call computeChunkSizes(x) first`);
  }
  if (a.dtype === 'float16') a = astype(a, 'float32'); // blocks hold float16 bits
  return { a, axis, descending, fanIn };
}

/** The sorted runs (a tuple layer of [values, indices] when `withIndices`), merged to one run per line band. */
function sortedLayer(p: Plan, withIndices: boolean): Layer {
  const { a, axis, descending } = p;
  const offsets = chunkOffsets(a.chunks[axis] as number[]);
  const base = { axis, descending, withIndices };
  let layer = defineLayer({
    op: withIndices ? 'argsort-block' : 'sort-block',
    token: [axis, descending],
    deps: [a.layer],
    chunks: a.chunks,
    dtype: a.dtype,
    task: (b) => ({
      kernel: 'sort-block',
      inputs: [[0, b]],
      params: withIndices ? { ...base, offset: offsets[b[axis]!]! } : base,
    }),
  });
  while (layer.chunks[axis]!.length > 1) layer = mergeLevel(layer, p, withIndices);
  return layer;
}

function mergeLevel(prev: Layer, p: Plan, withIndices: boolean): Layer {
  const { axis, fanIn } = p;
  const sizes = prev.chunks[axis] as number[];
  const groups: number[][] = [];
  for (let i = 0; i < sizes.length; i += fanIn) {
    groups.push(sizes.slice(i, i + fanIn).map((_s, j) => i + j));
  }
  const chunks: Chunks = prev.chunks.map((c, ax) =>
    ax === axis ? groups.map((g) => g.reduce((s, j) => s + sizes[j]!, 0)) : [...c],
  );
  const params = { axis, descending: p.descending, withIndices };
  return defineLayer({
    op: withIndices ? 'argsort-merge' : 'sort-merge',
    token: [axis, p.descending, groups.length],
    deps: [prev],
    chunks,
    dtype: prev.dtype,
    task: (b) => ({
      kernel: 'sort-merge',
      inputs: groups[b[axis]!]!.map((j): BlockRef => [0, b.map((i, ax) => (ax === axis ? j : i))]),
      params,
    }),
  });
}

/**
 * `x` sorted along `axis` (default -1), ascending or `descending`; NaN sorts last. Each
 * block is sorted in parallel; an axis of several blocks is merged by a tree of stable
 * k-way merges, then cut back to x's chunks. Bool arrays are a DTypeError (the standard
 * sorts real numbers: astype first).
 * @example
 * sort(fromArray([3, 1, 2], { chunks: 2 })); // [1, 2, 3]
 * sort(fromArray([[3, 1], [0, 5]]), { axis: 0, descending: true }); // [[3, 5], [0, 1]]
 */
export function sort<X extends ArrayLike>(x: X, opts?: SortOptions): LazyArray<KnownIn<[X]>> {
  const p = plan('sort', x, opts);
  const out = new LazyArray(sortedLayer(p, false));
  const y = rechunk(out, p.a.chunks as Chunks);
  const given = asLazy(x, 'sort');
  return (given.dtype === p.a.dtype ? y : astype(y, given.dtype)) as LazyArray<KnownIn<[X]>>;
}

/**
 * The int32 indices that sort `x` along `axis` (default -1), stably: equal elements keep
 * their order, in both directions; NaN sorts last. Chunked as sort is.
 * @example
 * argsort(fromArray([3, 1, 2, 1])); // [1, 3, 2, 0]
 */
export function argsort<X extends ArrayLike>(x: X, opts?: SortOptions): LazyArray<KnownIn<[X]>> {
  const p = plan('argsort', x, opts);
  const tuple = sortedLayer(p, true);
  const picked = defineLayer({
    op: 'argsort',
    token: [p.axis, p.descending],
    deps: [tuple],
    chunks: tuple.chunks as Size[][],
    dtype: 'int32',
    task: (b) => ({ kernel: 'pick', inputs: [[0, b]], params: { index: 1 } }),
  });
  return rechunk(new LazyArray(picked), p.a.chunks as Chunks) as LazyArray<KnownIn<[X]>>;
}
