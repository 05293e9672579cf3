// topk and argtopk (dask.array.topk / argtopk): each block's best k along the axis, then a
// tree merging splitEvery neighbours at a time, the last step sorted (and indices alone).

import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import { LazyArray } from '../array/lazy-array.ts';
import type { TopkParams } from '../backends/cpu-js/reduce/topk.ts';
import { chunkOffsets } from '../chunking/blocks.ts';
import { formatValue } from '../chunking/format.ts';
import type { Size } from '../chunking/types.ts';
import { config } from '../config.ts';
import { ChunkError, ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import type { BlockRef, Layer } from '../graph/layer.ts';
import { normalizeAxis } from './axis-args.ts';
import { astype } from './elementwise-logic.ts';
import { widenFloat16 } from './float16-widen.ts';

/** Options of topk and argtopk. */
export interface TopkOptions {
  /** The axis to select along (default -1, as Dask's). */
  readonly axis?: number;
  /** Tree fan-in along the axis (default config.splitEvery). */
  readonly splitEvery?: number;
}

function checkArgs(fn: string, x: ArrayLike, k: unknown, opts: TopkOptions) {
  const a = widenFloat16(asLazy(x, fn)); // exact: the selection runs on float32
  if (a.ndim === 0) throw new ValueError(`${fn}: needs an array of at least one dimension`);
  const axis = normalizeAxis(fn, opts.axis ?? -1, a.ndim);
  const chunks = a.chunks[axis]!;
  if (chunks.includes(null)) {
    throw new ChunkError(
      `${fn}: axis ${axis} has unknown chunk sizes; call computeChunkSizes(x) first`,
    );
  }
  if (typeof k !== 'number' || !Number.isSafeInteger(k) || k === 0) {
    throw new ValueError(`${fn}: k ${formatValue(k)} must be a nonzero integer`);
  }
  const n = a.shape[axis] as number;
  if (Math.abs(k) > n) {
    throw new ValueError(`${fn}: |k| = ${Math.abs(k)} is larger than axis ${axis} (${n})`);
  }
  const splitEvery = opts.splitEvery ?? config.splitEvery;
  if (!Number.isSafeInteger(splitEvery) || splitEvery < 2) {
    throw new ValueError(`${fn}: splitEvery ${formatValue(splitEvery)} must be an integer >= 2`);
  }
  return { a, axis, k, splitEvery, chunks: chunks as number[] };
}

function build(fn: string, x: ArrayLike, k: number, opts: TopkOptions, arg: boolean): LazyArray {
  const a = asLazy(x, fn);
  const r = selected(fn, a, k, opts, arg);
  // float16 values were widened exactly, so narrowing the selected ones back is exact too
  return !arg && a.dtype === 'float16' ? astype(r, 'float16') : r;
}

function selected(fn: string, x: ArrayLike, k: number, opts: TopkOptions, arg: boolean): LazyArray {
  const { a, axis, splitEvery, chunks } = checkArgs(fn, x, k, opts);
  const m = Math.abs(k);
  const axisChunks = (sizes: readonly number[]) => sizes.map((s) => Math.min(s, m));
  const withAxis = (c: readonly Size[]) =>
    a.chunks.map((ac, ax) => (ax === axis ? [...c] : [...ac]));
  const offsets = chunkOffsets(chunks);
  const single = chunks.length === 1;
  let sizes = axisChunks(chunks);
  let layer: Layer = defineLayer({
    op: `${fn}-partial`,
    token: [axis, k],
    deps: [a.layer],
    chunks: withAxis(sizes),
    dtype: single && arg ? 'int32' : a.dtype,
    fusable: true,
    task: (b) => {
      const params: TopkParams = { axis, k, arg, last: single, offsets: [offsets[b[axis]!]!] };
      return { kernel: 'topk-block', inputs: [[0, b]], params };
    },
  });
  for (let level = 0; sizes.length > 1; level++) {
    const groups = Math.ceil(sizes.length / splitEvery);
    const last = groups === 1;
    const prev = sizes;
    sizes = Array.from({ length: groups }, (_, g) =>
      Math.min(
        m,
        prev.slice(g * splitEvery, (g + 1) * splitEvery).reduce((s, c) => s + c, 0),
      ),
    );
    const params: TopkParams = { axis, k, arg, last };
    layer = defineLayer({
      op: last ? `${fn}-aggregate` : `${fn}-combine`,
      token: [axis, k, splitEvery, level],
      deps: [layer],
      chunks: withAxis(sizes),
      dtype: last && arg ? 'int32' : a.dtype,
      task: (b) => {
        const inputs: BlockRef[] = [];
        const g = b[axis]!;
        for (let j = g * splitEvery; j < Math.min(prev.length, (g + 1) * splitEvery); j++) {
          inputs.push([0, b.map((i, ax) => (ax === axis ? j : i))]);
        }
        return { kernel: 'topk-block', inputs, params };
      },
    });
  }
  return new LazyArray(layer);
}

/**
 * The `k` largest elements along `axis` (default -1), sorted largest first; a negative `k`
 * gives the `-k` smallest, smallest first (dask.array.topk). Each block keeps its own best
 * `|k|`, and a tree merges `splitEvery` neighbouring blocks at a time, so no task holds more
 * than `splitEvery · |k|` candidates per lane. NaN counts as the largest value, as NumPy
 * sorts it. The axis becomes `|k|` long (one chunk).
 * @example
 * topk(fromArray([5, 1, 9, 3, 7], { chunks: 2 }), 2).compute(); // [9, 7]
 */
export function topk<X extends ArrayLike>(
  x: X,
  k: number,
  opts: TopkOptions = {},
): LazyArray<KnownIn<[X]>> {
  return build('topk', x, k, opts, false) as LazyArray<KnownIn<[X]>>;
}

/**
 * The indices (int32) along `axis` of topk's elements, in the same order
 * (dask.array.argtopk): `k > 0` largest first, `k < 0` smallest first; equal values keep
 * their index order.
 * @example
 * argtopk(fromArray([5, 1, 9, 3, 7], { chunks: 2 }), -2).compute(); // [1, 3]
 */
export function argtopk<X extends ArrayLike>(
  x: X,
  k: number,
  opts: TopkOptions = {},
): LazyArray<KnownIn<[X]>> {
  return build('argtopk', x, k, opts, true) as LazyArray<KnownIn<[X]>>;
}
