// Counting kernels (numpy.histogram, histogram2d and bincount): per-block counts in float64,
// 'sum-blocks' to merge them in a tree, and the edges and density of a histogram.

import { numberData, type TypedArray } from '../../../array/dtype.ts';
import { roundToFloat16 } from '../../../array/float16.ts';
import { castNDArray, NDArray } from '../../../array/ndarray.ts';
import { ValueError } from '../../../errors.ts';
import { arrayBlock } from '../../../kernels/array-block.ts';
import type { Chunk, Kernel } from '../../../kernels/types.ts';

/** The dtype of a histogram's edges: x's float dtype for equal bins, else float64. */
export type EdgeDType = 'float16' | 'float32' | 'float64';

/** `v` rounded to `dtype` (edges and their widths are NumPy's values in that dtype). */
function roundTo(dtype: EdgeDType, v: number): number {
  return dtype === 'float32' ? Math.fround(v) : dtype === 'float16' ? roundToFloat16(v) : v;
}

/**
 * The bins of one histogram axis: explicit `edges`, or (edges null) `bins` equal bins
 * between the task's lo and hi inputs, as numpy.linspace makes them in `edgeDtype`.
 */
export interface BinParams {
  readonly bins: number;
  readonly edges: readonly number[] | null;
  /** Equal bins: a first guess by arithmetic, then corrected against the edges. */
  readonly uniform: boolean;
  readonly edgeDtype: EdgeDType;
}

/** Params of 'histogram-block': inputs x, then weights if `weighted`, then lo and hi if
 * the range is computed. */
export interface HistogramBlockParams extends BinParams {
  readonly weighted: boolean;
}

/** Params of 'histogram2d-block': inputs x, y, then weights if `weighted`. */
export interface Histogram2dBlockParams {
  readonly x: BinParams;
  readonly y: BinParams;
  readonly weighted: boolean;
}

/** Params of 'bincount-block': `minlength` and whether it is the declared output size. */
export interface BincountBlockParams {
  readonly minlength: number;
  readonly known: boolean;
  readonly weighted: boolean;
}

/**
 * numpy.linspace(lo, hi, bins + 1) in `dtype`, after numpy.histogram's checks and its
 * widening of an empty range by 0.5 each side.
 * @example
 * linspaceEdges(0, 1, 4, 'float64'); // [0, 0.25, 0.5, 0.75, 1]
 */
export function linspaceEdges(
  lo: number,
  hi: number,
  bins: number,
  dtype: EdgeDType,
): Float64Array {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) {
    throw new ValueError(`histogram: autodetected range of [${lo}, ${hi}] is not finite`);
  }
  let first = lo;
  let last = hi;
  if (first === last) {
    first -= 0.5;
    last += 0.5;
  }
  const step = (last - first) / bins;
  const e = new Float64Array(bins + 1);
  for (let i = 0; i < bins; i++) e[i] = i * step + first;
  e[bins] = last;
  if (dtype !== 'float64') for (let i = 0; i <= bins; i++) e[i] = roundTo(dtype, e[i]!);
  return e;
}

/** The edges of one histogram axis: known, or equal bins between the task's lo and hi. */
function edgesOf(p: BinParams, lohi: Chunk[]): Float64Array {
  return p.edges === null
    ? linspaceEdges(
        numberData(arrayBlock(lohi[0], 'histogram').data, 'histogram')[0]!,
        numberData(arrayBlock(lohi[1], 'histogram').data, 'histogram')[0]!,
        p.bins,
        p.edgeDtype,
      )
    : Float64Array.from(p.edges);
}

/** A function from a value to its bin (-1 outside): each bin [e_i, e_i+1), the last closed. */
function binner(p: BinParams, lohi: Chunk[]): { edges: Float64Array; bin: (v: number) => number } {
  const e = edgesOf(p, lohi);
  const n = p.bins;
  const lo = e[0]!;
  const hi = e[n]!;
  const norm = n / (hi - lo);
  const bin = (v: number): number => {
    if (!(v >= lo && v <= hi)) return -1; // NaN falls here too
    let i = p.uniform ? Math.floor((v - lo) * norm) : searchRight(e, v) - 1;
    if (i > n - 1) i = n - 1;
    if (i < 0) i = 0;
    while (i > 0 && v < e[i]!) i--;
    while (i < n - 1 && v >= e[i + 1]!) i++;
    return i;
  };
  return { edges: e, bin };
}

/**
 * Add one to `counts` for each value of `x` in a bin of `edges` (each bin [e_i, e_i+1), the
 * last closed; NaN and values outside not counted). Equal bins guess the bin by one
 * multiplication and correct it against the edges, so a value on an edge lands where a
 * search of the edges puts it (numpy.histogram's rule).
 * @example
 * countValues(Float32Array.of(0, 0.5, 1, 2), Float64Array.of(0, 0.5, 1), true, counts); // [1, 2]
 */
export function countValues(
  data: TypedArray,
  edges: Float64Array,
  uniform: boolean,
  counts: Float64Array,
): void {
  const x = numberData(data, 'histogram');
  const n = edges.length - 1;
  const lo = edges[0]!;
  const hi = edges[n]!;
  if (!uniform) {
    for (let i = 0; i < x.length; i++) {
      const v = x[i]!;
      if (!(v >= lo && v <= hi)) continue;
      const k = searchRight(edges, v) - 1;
      counts[k < n ? k : n - 1]!++;
    }
    return;
  }
  const norm = n / (hi - lo);
  const top = n - 1;
  for (let i = 0; i < x.length; i++) {
    const v = x[i]!;
    if (!(v >= lo && v <= hi)) continue; // NaN falls here too
    // (v - lo)·norm is in [0, n] up to rounding (or NaN for a range too narrow for norm)
    let k = ((v - lo) * norm) | 0;
    if (k > top) k = top;
    while (k > 0 && v < edges[k]!) k--;
    while (k < top && v >= edges[k + 1]!) k++;
    counts[k]!++;
  }
}

/** The number of edges <= v (NumPy's searchsorted, side 'right'). */
function searchRight(e: Float64Array, v: number): number {
  let lo = 0;
  let hi = e.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (e[mid]! <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function histogramBlock(inputs: Chunk[], p: HistogramBlockParams): NDArray {
  const x = numberData(arrayBlock(inputs[0], 'histogram').data, 'histogram');
  const w = p.weighted
    ? numberData(arrayBlock(inputs[1], 'histogram').data, 'histogram')
    : undefined;
  const counts = new Float64Array(p.bins);
  if (w === undefined) {
    countValues(x, edgesOf(p, inputs.slice(1)), p.uniform, counts);
    return new NDArray(counts, [p.bins], 'float64');
  }
  const { bin } = binner(p, inputs.slice(2));
  for (let i = 0; i < x.length; i++) {
    const k = bin(x[i]!);
    if (k >= 0) counts[k]! += w[i]!;
  }
  return new NDArray(counts, [p.bins], 'float64');
}

function histogram2dBlock(inputs: Chunk[], p: Histogram2dBlockParams): NDArray {
  const x = numberData(arrayBlock(inputs[0], 'histogram').data, 'histogram2d');
  const y = numberData(arrayBlock(inputs[1], 'histogram').data, 'histogram2d');
  const w = p.weighted
    ? numberData(arrayBlock(inputs[2], 'histogram').data, 'histogram2d')
    : undefined;
  const bx = binner(p.x, []).bin;
  const by = binner(p.y, []).bin;
  const counts = new Float64Array(p.x.bins * p.y.bins);
  for (let i = 0; i < x.length; i++) {
    const kx = bx(x[i]!);
    const ky = kx < 0 ? -1 : by(y[i]!);
    if (ky >= 0) counts[kx * p.y.bins + ky]! += w === undefined ? 1 : w[i]!;
  }
  return new NDArray(counts, [p.x.bins, p.y.bins], 'float64');
}

function bincountBlock(inputs: Chunk[], p: BincountBlockParams): NDArray {
  const x = numberData(arrayBlock(inputs[0], 'histogram').data, 'bincount');
  const w = p.weighted
    ? numberData(arrayBlock(inputs[1], 'histogram').data, 'bincount')
    : undefined;
  let top = -1;
  for (let i = 0; i < x.length; i++) {
    const v = x[i]!;
    if (v < 0) {
      throw new ValueError(`bincount: x holds a negative value (${v}); counts need values >= 0`);
    }
    if (v > top) top = v;
  }
  if (p.known && top >= p.minlength) {
    throw new ValueError(
      `bincount: x holds ${top}, not below minlength ${p.minlength} (the declared output size); pass a larger minlength, or none for an unknown size`,
    );
  }
  const counts = new Float64Array(Math.max(p.minlength, top + 1));
  for (let i = 0; i < x.length; i++) counts[x[i]!]! += w === undefined ? 1 : w[i]!;
  return new NDArray(counts, [counts.length], 'float64');
}

/** Elementwise sum of float64 count blocks; 1-D blocks of different lengths are zero-padded. */
function sumBlocks(inputs: Chunk[]): NDArray {
  const parts = inputs.map((c) => arrayBlock(c, 'histogram'));
  const longest = parts.reduce((a, b) => (b.data.length > a.data.length ? b : a));
  const out = new Float64Array(longest.data.length);
  for (const part of parts) {
    const d = numberData(part.data, 'histogram');
    for (let i = 0; i < d.length; i++) out[i]! += d[i]!;
  }
  return new NDArray(out, longest.shape, 'float64');
}

/** The edges of a histogram: inputs lo and hi when params.edges is null. */
function histogramEdges(inputs: Chunk[], p: BinParams): NDArray {
  const { edges } = binner(p, inputs);
  return castNDArray(new NDArray(edges, [edges.length], 'float64'), p.edgeDtype);
}

/** Counts to a density (NumPy's `n / diff(edges) / n.sum()`); inputs counts, then lo, hi. */
function histogramDensity(inputs: Chunk[], p: BinParams): NDArray {
  const n = numberData(arrayBlock(inputs[0], 'histogram').data, 'histogram');
  const { edges } = binner(p, inputs.slice(1));
  let total = 0;
  for (let i = 0; i < n.length; i++) total += n[i]!;
  const out = new Float64Array(n.length);
  // NumPy differences the edges in their own dtype
  for (let i = 0; i < n.length; i++) {
    out[i] = n[i]! / roundTo(p.edgeDtype, edges[i + 1]! - edges[i]!) / total;
  }
  return new NDArray(out, [n.length], 'float64');
}

/** Counting kernels, registered in backends/cpu-js/registry. */
export const histogramKernels: Record<string, Kernel<never>> = {
  'histogram-block': histogramBlock as Kernel<never>,
  'histogram2d-block': histogram2dBlock as Kernel<never>,
  'bincount-block': bincountBlock as Kernel<never>,
  'sum-blocks': sumBlocks as Kernel<never>,
  'histogram-edges': histogramEdges as Kernel<never>,
  'histogram-density': histogramDensity as Kernel<never>,
};
