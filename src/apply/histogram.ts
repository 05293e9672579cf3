// histogram and histogram2d (numpy.histogram, numpy.histogram2d; dask.array.histogram):
// per-block counts against known edges, summed by a tree; the output shape is the bins.

import { checkOptions } from '../array/check-options.ts';
import type { DType } from '../array/dtype.ts';
import { type ArrayLike, asLazy, fromArray } from '../array/from-array.ts';
import { LazyArray } from '../array/lazy-array.ts';
import {
  type BinParams,
  type EdgeDType,
  type Histogram2dBlockParams,
  type HistogramBlockParams,
  linspaceEdges,
} from '../backends/cpu-js/reduce/histogram.ts';
import { formatTuple, formatValue } from '../chunking/format.ts';
import { ShapeError, ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import type { BlockRef } from '../graph/layer.ts';
import { partialCounts, sumTree } from './count-tree.ts';
import { widenFloat16 } from './float16-widen.ts';
import { rechunk } from './rechunk.ts';
import { max, min } from './reductions.ts';

/** Bins: a count of equal bins, or the edges (increasing, at least two). */
export type Bins = number | readonly number[] | Float64Array | Float32Array;

/** Options of histogram. */
export interface HistogramOptions {
  /** Number of equal bins (default 10) or their edges. */
  readonly bins?: Bins;
  /** `[lo, hi]` of equal bins; computed lazily from x's min and max when omitted. */
  readonly range?: readonly [number, number];
  /** One weight per element of x (same shape); each element counts its weight. */
  readonly weights?: ArrayLike;
  /** Return the probability density (integrates to 1 over the range) instead of counts. */
  readonly density?: boolean;
}

/** Options of histogram2d. */
export interface Histogram2dOptions {
  /** Equal bins for both axes, `[bx, by]`, or `[xEdges, yEdges]` (default 10). */
  readonly bins?: number | readonly [number, number] | readonly [Bins, Bins];
  /** `[[xlo, xhi], [ylo, yhi]]`: needed with bin counts (as Dask's). */
  readonly range?: readonly [readonly [number, number], readonly [number, number]];
  /** One weight per element. */
  readonly weights?: ArrayLike;
}

/** Known bins of one axis from a count and a range, or from explicit edges. */
function binsOf(
  fn: string,
  bins: unknown,
  range: unknown,
  edgeDtype: EdgeDType,
): BinParams | { bins: number } {
  if (typeof bins === 'number') {
    if (!Number.isSafeInteger(bins) || bins < 1) {
      throw new ValueError(`${fn}: bins ${formatValue(bins)} must be a positive integer`);
    }
    if (range === undefined) return { bins };
    const r = range as readonly number[];
    if (!Array.isArray(r) || r.length !== 2 || !r.every((v) => typeof v === 'number')) {
      throw new ValueError(`${fn}: range ${formatValue(range)} must be [lo, hi]`);
    }
    if (!Number.isFinite(r[0]) || !Number.isFinite(r[1])) {
      throw new ValueError(`${fn}: range ${formatTuple(r)} is not finite`);
    }
    if (r[0] > r[1]) {
      throw new ValueError(`${fn}: range ${formatTuple(r)}: max must be larger than min`);
    }
    const edges = Array.from(linspaceEdges(r[0]!, r[1]!, bins, edgeDtype));
    return { bins, edges, uniform: true, edgeDtype };
  }
  const e = ArrayBuffer.isView(bins) ? Array.from(bins as Float64Array) : bins;
  if (!Array.isArray(e) || e.length < 2 || !e.every((v) => typeof v === 'number')) {
    throw new ValueError(
      `${fn}: bins ${formatValue(bins)} must be a positive integer or at least two edges`,
    );
  }
  if (!e.every(Number.isFinite))
    throw new ValueError(`${fn}: bins hold a value that is not finite`);
  for (let i = 1; i < e.length; i++) {
    if (e[i]! < e[i - 1]!) {
      throw new ValueError(
        `${fn}: bins must increase monotonically; edge ${i} (${e[i]}) is below edge ${i - 1} (${e[i - 1]})`,
      );
    }
  }
  return { bins: e.length - 1, edges: e, uniform: false, edgeDtype: 'float64' };
}

/** `x` as a LazyArray whose values the counting kernels read: float16 widened to float32. */
function countable(fn: string, x: ArrayLike): LazyArray {
  return widenFloat16(asLazy(x, fn)); // exact: every float16 value is a float32 value
}

/** `w` as an array of x's shape and chunks (rechunked when its chunks differ). */
function alignedWith(fn: string, what: string, w: ArrayLike, x: LazyArray): LazyArray {
  const a = countable(fn, w);
  if (a.shape.length !== x.shape.length || a.shape.some((n, ax) => n !== x.shape[ax])) {
    throw new ShapeError(
      `${fn}: ${what} of shape ${formatTuple(a.shape)} must have x's shape ${formatTuple(x.shape)}`,
    );
  }
  const same = a.chunks.every(
    (c, ax) => c.length === x.chunks[ax]!.length && c.every((s, k) => s === x.chunks[ax]![k]),
  );
  return same ? a : rechunk(a, x.chunks as number[][]);
}

/** The edges as a LazyArray: a constant when known, else computed from lo and hi. */
function edgesArray(p: BinParams, lohi: readonly LazyArray[]): LazyArray {
  if (p.edges !== null) {
    return fromArray(Float64Array.from(p.edges), { dtype: p.edgeDtype });
  }
  const layer = defineLayer({
    op: 'histogram-edges',
    token: [p],
    deps: lohi.map((a) => a.layer),
    chunks: [[p.bins + 1]],
    dtype: p.edgeDtype as DType,
    task: () => ({
      kernel: 'histogram-edges',
      inputs: [
        [0, []],
        [1, []],
      ],
      params: p,
    }),
  });
  return new LazyArray(layer);
}

/**
 * The histogram of `x`'s values (numpy.histogram, as dask.array.histogram computes it):
 * `bins` equal bins over `range`, or explicit increasing edges; every bin is half-open
 * `[e_i, e_i+1)` except the last, which is closed; values outside, and NaN, are not
 * counted. Returns `[hist, edges]`, both of known shape (bins, bins + 1) even when `range`
 * is omitted — then it is x's min and max, computed lazily. Each block is counted by its own
 * task, the counts summed by a tree. Counts are float64 — exact to 2^53, so a billion
 * values never overflow (NumPy gives int64; tessera has no int64); weighted sums and
 * `density` are float64 too. Equal bins' edges are in x's float dtype (float32, float16), as
 * NumPy's; float16 values are counted as the float32 values they equal.
 * @example
 * const [hist, edges] = histogram(x, { bins: 4, range: [0, 1] });
 * const counts = await hist.compute(); // 4 counts
 */
export function histogram(
  x: ArrayLike,
  histOpts?: HistogramOptions,
): [LazyArray<true>, LazyArray<true>] {
  const fn = 'histogram';
  const opts = checkOptions(fn, histOpts);
  const given = asLazy(x, fn);
  const a = countable(fn, given);
  // NumPy's equal bins are linspace in x's float dtype; explicit edges stay float64
  const edgeDtype: EdgeDType =
    given.dtype === 'float32' || given.dtype === 'float16' ? given.dtype : 'float64';
  let bins = binsOf(fn, opts.bins ?? 10, opts.range, edgeDtype);
  const lohi: LazyArray[] = [];
  if (!('edges' in bins)) {
    if (a.size === 0) bins = binsOf(fn, bins.bins, [0, 1], edgeDtype);
    else lohi.push(min(a), max(a));
  }
  const p: BinParams =
    'edges' in bins ? bins : { bins: bins.bins, edges: null, uniform: true, edgeDtype };
  const w = opts.weights === undefined ? undefined : alignedWith(fn, 'weights', opts.weights, a);
  const params: HistogramBlockParams = { ...p, weighted: w !== undefined };
  const partial = partialCounts({
    op: `${fn}-partial`,
    token: [],
    x: a,
    deps: [...(w ? [w] : []), ...lohi],
    blockShape: [p.bins],
    kernel: 'histogram-block',
    params,
  });
  let hist = new LazyArray(sumTree(fn, partial));
  if (opts.density === true) {
    const inputs: BlockRef[] = [[0, [0]], ...lohi.map((_, i): BlockRef => [i + 1, []])];
    const layer = defineLayer({
      op: 'histogram-density',
      token: [p],
      deps: [hist.layer, ...lohi.map((l) => l.layer)],
      chunks: [[p.bins]],
      dtype: 'float64',
      task: () => ({ kernel: 'histogram-density', inputs, params: p }),
    });
    hist = new LazyArray(layer);
  }
  // the bins are eager, so both sizes are known even for an input of unknown size
  return [hist, edgesArray(p, lohi)] as [LazyArray<true>, LazyArray<true>];
}

/**
 * The 2-D histogram of the pairs `(x[i], y[i])` (numpy.histogram2d): `bins` per axis as a
 * count (with `range`, required then, as in Dask) or edges; bins half-open except the
 * last, pairs outside either range not counted. Returns `[hist, xEdges, yEdges]`, hist of
 * shape (bx, by), float64 counts (exact to 2^53); each block counted by its own task and the
 * counts summed by a tree.
 * @example
 * const [h] = histogram2d(xs, ys, { bins: [8, 4], range: [[0, 1], [-1, 1]] });
 */
export function histogram2d(
  x: ArrayLike,
  y: ArrayLike,
  histOpts?: Histogram2dOptions,
): [LazyArray<true>, LazyArray<true>, LazyArray<true>] {
  const fn = 'histogram2d';
  const opts = checkOptions(fn, histOpts);
  const a = countable(fn, x);
  const b = alignedWith(fn, 'y', y, a);
  const spec = opts.bins ?? 10;
  const pair = typeof spec === 'number' ? [spec, spec] : spec;
  if (!Array.isArray(pair) || pair.length !== 2) {
    throw new ValueError(
      `${fn}: bins ${formatValue(spec)} must be a count, [bx, by] or [xEdges, yEdges]`,
    );
  }
  const range = opts.range;
  if (range !== undefined && (!Array.isArray(range) || range.length !== 2)) {
    throw new ValueError(`${fn}: range ${formatValue(range)} must be [[xlo, xhi], [ylo, yhi]]`);
  }
  const axes = pair.map((bins, i) => {
    const r = range?.[i];
    if (typeof bins === 'number' && r === undefined) {
      throw new ValueError(`${fn}: bins given as counts need range [[xlo, xhi], [ylo, yhi]]`);
    }
    return binsOf(fn, bins, r, 'float64') as BinParams;
  });
  const w = opts.weights === undefined ? undefined : alignedWith(fn, 'weights', opts.weights, a);
  const params: Histogram2dBlockParams = { x: axes[0]!, y: axes[1]!, weighted: w !== undefined };
  const partial = partialCounts({
    op: `${fn}-partial`,
    token: [],
    x: a,
    deps: [b, ...(w ? [w] : [])],
    blockShape: [axes[0]!.bins, axes[1]!.bins],
    kernel: 'histogram2d-block',
    params,
  });
  const hist = new LazyArray(sumTree(fn, partial));
  return [hist, edgesArray(axes[0]!, []), edgesArray(axes[1]!, [])] as [
    LazyArray<true>,
    LazyArray<true>,
    LazyArray<true>,
  ];
}
