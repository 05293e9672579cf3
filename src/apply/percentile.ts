// percentile / quantile / median and their NaN-skipping forms (NumPy's): exact, one task per
// block with the reduced axes whole in it; a chunked reduced axis is first rechunked whole.

import { checkOptions, optionalBoolean } from '../array/check-options.ts';
import { type DType, isFloat } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import { LazyArray } from '../array/lazy-array.ts';
import type { QuantileBlockParams } from '../backends/cpu-js/reduce/quantile.ts';
import {
  DISCRETE_METHODS,
  QUANTILE_METHODS,
  type QuantileMethod,
} from '../backends/cpu-js/reduce/quantile-methods.ts';
import { formatValue } from '../chunking/format.ts';
import type { Size } from '../chunking/types.ts';
import { ChunkError, ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import { astype } from './elementwise-logic.ts';
import { widenFloat16 } from './float16-widen.ts';
import { sketchQuantiles } from './percentile-sketch.ts';
import { rechunk } from './rechunk.ts';
import { normalizeSplitEvery, reductionAxes, type SplitEvery } from './reduction.ts';

export type { QuantileMethod };

/** Options of percentile, quantile, median and their nan forms. */
export interface QuantileOptions {
  /** Axes to reduce (every axis by default). */
  axis?: number | readonly number[] | null;
  /** NumPy's method (default 'linear'). */
  method?: QuantileMethod;
  /** Keep reduced axes as size 1 (after the leading q axis, as NumPy). */
  keepdims?: boolean;
  /**
   * Along reduced axes in several chunks, merge per-chunk summaries instead of rechunking
   * the axes whole: chunk-parallel, memory-bounded, and approximate within a rank bound
   * (see {@link percentile}). Axes already whole in one chunk stay exact either way.
   */
  approximate?: boolean;
  /** Points per summary of the approximate path (default 1000; more: tighter, slower). */
  resolution?: number;
  /** Fan-in of the approximate path's merge tree (default `config.splitEvery`). */
  splitEvery?: SplitEvery;
}

/** q checked against [0, scale] and divided by scale (NumPy divides percentiles by 100). */
function checkQ(fn: string, q: unknown, scale: 1 | 100): number[] {
  const list = typeof q === 'number' ? [q] : q;
  if (!Array.isArray(list) || list.length === 0) {
    throw new ValueError(`${fn}: q ${formatValue(q)} must be a number or a non-empty list`);
  }
  return list.map((v: unknown) => {
    if (typeof v !== 'number' || !(v >= 0 && v <= scale)) {
      throw new ValueError(`${fn}: q must be in [0, ${scale}], got ${formatValue(v)}`);
    }
    return scale === 100 ? v / 100 : v;
  });
}

function checkMethod(fn: string, method: unknown): QuantileMethod {
  if (method === undefined) return 'linear';
  if (!QUANTILE_METHODS.includes(method as QuantileMethod)) {
    throw new ValueError(
      `${fn}: method ${formatValue(method)} must be one of ${QUANTILE_METHODS.map((m) => `'${m}'`).join(', ')}`,
    );
  }
  return method as QuantileMethod;
}

/** Floats keep their dtype; integers stay integers under discrete methods, else float64. */
function outDType(x: DType, method: QuantileMethod): DType {
  if (isFloat(x)) return x;
  return DISCRETE_METHODS.includes(method) ? x : 'float64';
}

interface QuantileCall {
  fn: string;
  x: ArrayLike;
  qs: number[];
  qAxis: boolean;
  skipNaN: boolean;
  opts: QuantileOptions;
}

/** The options, checked under the caller's name. */
function checkQuantileOptions(fn: string, opts: QuantileOptions) {
  const o = checkOptions(fn, opts);
  const keepdims = optionalBoolean(fn, 'keepdims', o.keepdims, false);
  const method = checkMethod(fn, o.method);
  const approximate = optionalBoolean(fn, 'approximate', o.approximate, false);
  const resolution = o.resolution ?? 1000;
  if (!Number.isInteger(resolution) || resolution < 2) {
    throw new ValueError(`${fn}: resolution ${formatValue(o.resolution)} must be an integer >= 2`);
  }
  return { o, keepdims, method, approximate, resolution };
}

/** One 'quantile-block' task per block of `a`, whose reduced axes are whole in it. */
function exactQuantiles(fn: string, a: LazyArray, params: QuantileBlockParams): LazyArray {
  const { axes, keepdims, qAxis } = params;
  const kept: Size[][] = a.chunks.flatMap((ch, ax) =>
    axes.includes(ax) ? (keepdims ? [[1]] : []) : [[...ch]],
  );
  const lead = qAxis ? 1 : 0;
  const layer = defineLayer({
    op: fn,
    token: [params],
    deps: [a.layer],
    chunks: qAxis ? [[params.qs.length], ...kept] : kept,
    dtype: params.dtype,
    task: (b) => {
      const src: number[] = [];
      for (let ax = 0, k = lead; ax < a.ndim; ax++) {
        if (!axes.includes(ax)) src.push(b[k++]!);
        else {
          src.push(0);
          if (keepdims) k++;
        }
      }
      return { kernel: 'quantile-block', inputs: [[0, src]], params };
    },
  });
  return new LazyArray(layer);
}

function quantileOf(c: QuantileCall): LazyArray {
  const { o, keepdims, method, approximate, resolution } = checkQuantileOptions(c.fn, c.opts);
  const given = asLazy(c.x, c.fn);
  const a0 = widenFloat16(given); // float16 bits are selected as float32 values
  const axes = reductionAxes(c.fn, o.axis, a0.ndim);
  const splitEvery = normalizeSplitEvery(c.fn, o.splitEvery, a0.ndim);
  const split = axes.filter((ax) => a0.chunks[ax]!.length > 1);
  const unknown = split.find((ax) => a0.chunks[ax]!.includes(null));
  if (unknown !== undefined && !approximate) {
    throw new ChunkError(
      `${c.fn}: axis ${unknown} has unknown chunk sizes and must be made one chunk; call computeChunkSizes(x) first, or pass approximate: true`,
    );
  }
  const params: QuantileBlockParams = {
    axes,
    qs: c.qs,
    qAxis: c.qAxis,
    method,
    skipNaN: c.skipNaN,
    keepdims,
    dtype: outDType(a0.dtype, method),
  };
  let r: LazyArray;
  if (split.length > 0 && approximate) {
    r = sketchQuantiles(c.fn, a0, params, resolution, splitEvery);
  } else {
    // exact quantiles need each reduced axis whole: rechunk the chunked ones to one chunk
    const whole = Object.fromEntries(split.map((ax) => [ax, -1]));
    r = exactQuantiles(c.fn, split.length === 0 ? a0 : rechunk(a0, whole), params);
  }
  return given.dtype === 'float16' ? astype(r, 'float16') : r;
}

const qCall = (
  fn: string,
  x: ArrayLike,
  q: number | readonly number[],
  scale: 1 | 100,
  skipNaN: boolean,
  opts: QuantileOptions,
): LazyArray =>
  quantileOf({ fn, x, qs: checkQ(fn, q, scale), qAxis: typeof q !== 'number', skipNaN, opts });

/**
 * The q-th percentiles (q in [0, 100]) over `axis` (NumPy's `percentile`), exact, with any
 * of NumPy's methods (default 'linear'). A list q adds a leading axis. A NaN in a slice
 * makes its result NaN; an empty slice gives NaN. Floats keep their dtype; integers give
 * float64 (their own dtype under the discrete methods 'lower', 'higher', 'nearest',
 * 'inverted_cdf', 'closest_observation'). Exactness needs each reduced axis whole: a reduced
 * axis in several chunks is rechunked to one chunk first (as Dask's median), each task then
 * holding whole slices; the other axes keep their chunks and run in parallel.
 *
 * With `approximate: true` a chunked reduced axis is not rechunked (Dask's percentile is
 * approximate in this way): each block is summarized by at most `resolution` of its sorted
 * non-NaN values, weighted, and the summaries merge up a tree of fan-in `splitEvery`, each
 * merge compressing back to `resolution` points. While no summary had to drop a point the
 * result is exact (small data). Otherwise the result v is a data value and an ε-approximate
 * quantile of the N non-NaN values of its slice: at most (q + ε)·N of them are below v and
 * at least (q − ε)·N are at most v, with ε = (1 + levels) / (2 · resolution), `levels` the
 * merge levels (0 while a reduced axis has at most splitEvery blocks, then 1, 2, … as the
 * block count passes splitEvery, splitEvery², …). The bound is reported on the result as
 * `result.layer.meta.rankError`. NaN handling is unchanged. Summaries are sorted where the
 * exact path only selects, so per element it costs more: it is for slices too long for one
 * task's memory, or for keeping a chunked layout, not for speed on slices that fit.
 * @example
 * await compute(percentile(fromArray([1, 2, 3, 4]), 50)); // 2.5
 */
export function percentile<X extends ArrayLike>(
  x: X,
  q: number | readonly number[],
  opts: QuantileOptions = {},
): LazyArray<KnownIn<[X]>> {
  return qCall('percentile', x, q, 100, false, opts) as LazyArray<KnownIn<[X]>>;
}

/**
 * The q-th quantiles (q in [0, 1]) over `axis` (NumPy's `quantile`); as {@link percentile}.
 * @example
 * await compute(quantile(fromArray([[1, 2], [3, 5]]), [0, 0.5], { axis: 1 })); // [[1, 3], [1.5, 4]]
 */
export function quantile<X extends ArrayLike>(
  x: X,
  q: number | readonly number[],
  opts: QuantileOptions = {},
): LazyArray<KnownIn<[X]>> {
  return qCall('quantile', x, q, 1, false, opts) as LazyArray<KnownIn<[X]>>;
}

/**
 * The median over `axis` (NumPy's `median`: quantile 0.5, method 'linear').
 * @example
 * await compute(median(fromArray([3, 1, 4, 1, 5]))); // 3
 */
export function median<X extends ArrayLike>(
  x: X,
  opts: Omit<QuantileOptions, 'method'> = {},
): LazyArray<KnownIn<[X]>> {
  return qCall('median', x, 0.5, 1, false, {
    ...checkOptions('median', opts),
    method: 'linear',
  }) as LazyArray<KnownIn<[X]>>;
}

/**
 * {@link percentile} ignoring NaNs (NumPy's `nanpercentile`); an all-NaN slice gives NaN.
 * @example
 * await compute(nanpercentile(fromArray([1, Number.NaN, 3]), 50)); // 2
 */
export function nanpercentile<X extends ArrayLike>(
  x: X,
  q: number | readonly number[],
  opts: QuantileOptions = {},
): LazyArray<KnownIn<[X]>> {
  return qCall('nanpercentile', x, q, 100, true, opts) as LazyArray<KnownIn<[X]>>;
}

/**
 * {@link quantile} ignoring NaNs (NumPy's `nanquantile`).
 * @example
 * await compute(nanquantile(fromArray([1, Number.NaN, 3]), 0.5)); // 2
 */
export function nanquantile<X extends ArrayLike>(
  x: X,
  q: number | readonly number[],
  opts: QuantileOptions = {},
): LazyArray<KnownIn<[X]>> {
  return qCall('nanquantile', x, q, 1, true, opts) as LazyArray<KnownIn<[X]>>;
}

/**
 * {@link median} ignoring NaNs (NumPy's `nanmedian`).
 * @example
 * await compute(nanmedian(fromArray([1, Number.NaN, 3, 4]))); // 3
 */
export function nanmedian<X extends ArrayLike>(
  x: X,
  opts: Omit<QuantileOptions, 'method'> = {},
): LazyArray<KnownIn<[X]>> {
  return qCall('nanmedian', x, 0.5, 1, true, {
    ...checkOptions('nanmedian', opts),
    method: 'linear',
  }) as LazyArray<KnownIn<[X]>>;
}
