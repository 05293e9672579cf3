// coarsen (dask.array.coarsen): non-overlapping windows of `factor` elements per axis each
// reduced to one, block by block after chunks are aligned to multiples of the factors.

import { type DType, isBigDType, isFloat, kindOf } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import { LazyArray } from '../array/lazy-array.ts';
import { type CoarsenParams, coarsenAxes } from '../backends/cpu-js/reduce/coarsen.ts';
import type { ReduceParams } from '../backends/cpu-js/reduce/reduce.ts';
import { formatTuple, formatValue } from '../chunking/format.ts';
import { ChunkError, ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import { normalizeAxis } from './axis-args.ts';
import { astype } from './elementwise-logic.ts';
import { type PadMode, pad } from './pad.ts';
import { rechunk } from './rechunk.ts';
import { all, any, max, mean, min, prod, std, sum, variance } from './reductions.ts';
import { getitem } from './slicing.ts';

/** The reductions coarsen applies to each window, by name. */
export type CoarsenReductionName =
  | 'sum'
  | 'prod'
  | 'mean'
  | 'min'
  | 'max'
  | 'any'
  | 'all'
  | 'var'
  | 'std';

/** A reduction name, or the library's reduction function itself (`coarsen(mean, …)`). */
export type CoarsenReduction = CoarsenReductionName | ((x: LazyArray) => LazyArray);

/** Options of coarsen: what to do with a remainder (by default it is an error, as Dask's). */
export interface CoarsenOptions {
  /** Drop the elements past the last whole window (Dask's `trim_excess`). */
  readonly trimExcess?: boolean;
  /** Pad the end of each axis to a whole window: a constant, or a pad mode ('edge', …). */
  readonly pad?: number | PadMode;
}

// int64 and uint64 sum and multiply in their own dtype (exact modulo 2^64, as NumPy)
const intSum = (d: DType): DType =>
  isFloat(d) || isBigDType(d) ? d : kindOf(d) === 'uint' ? 'uint32' : 'int32';
const floating = (d: DType): DType => (isFloat(d) ? d : 'float64');
/** int64 and uint64 windows' moments are computed in float64, as NumPy's var and std. */
const castBig = (d: DType) => (isBigDType(d) ? { castTo: 'float64' as const } : {});

/** Output dtype and kernel params (less axes) of each reduction. */
type WindowReduce = Exclude<ReduceParams, { op: 'argmin' | 'argmax' }>;
const REDUCTIONS: Record<CoarsenReductionName, (d: DType) => Omit<WindowReduce, 'axes'>> = {
  sum: (d) => ({ op: 'sum', dtype: intSum(d) }),
  prod: (d) => ({ op: 'prod', dtype: intSum(d) }),
  mean: (d) => ({ op: 'mean', dtype: floating(d) }),
  min: (d) => ({ op: 'min', dtype: d }),
  max: (d) => ({ op: 'max', dtype: d }),
  any: () => ({ op: 'any', dtype: 'bool' }),
  all: () => ({ op: 'all', dtype: 'bool' }),
  var: (d) => ({ op: 'var', correction: 0, sqrt: false, dtype: floating(d), ...castBig(d) }),
  std: (d) => ({ op: 'var', correction: 0, sqrt: true, dtype: floating(d), ...castBig(d) }),
};

const BY_FUNCTION = new Map<unknown, CoarsenReductionName>([
  [sum, 'sum'],
  [prod, 'prod'],
  [mean, 'mean'],
  [min, 'min'],
  [max, 'max'],
  [any, 'any'],
  [all, 'all'],
  [variance, 'var'],
  [std, 'std'],
]);

function reductionName(fn: string, r: unknown): CoarsenReductionName {
  const name = typeof r === 'function' ? BY_FUNCTION.get(r) : r;
  if (typeof name === 'string' && Object.hasOwn(REDUCTIONS, name)) {
    return name as CoarsenReductionName;
  }
  const what = typeof r === 'function' ? `function ${r.name || '(anonymous)'}` : formatValue(r);
  throw new ValueError(
    `${fn}: reduction ${what} must be one of ${Object.keys(REDUCTIONS).join(', ')} (a name or the library's function)`,
  );
}

/** Factor per axis from the `{ axis: factor }` record (1 where absent). */
function factorsOf(fn: string, axes: unknown, ndim: number): number[] {
  if (axes === null || typeof axes !== 'object' || Array.isArray(axes)) {
    throw new ValueError(`${fn}: axes ${formatValue(axes)} must be a record { axis: factor }`);
  }
  const out = new Array<number>(ndim).fill(1);
  for (const [k, f] of Object.entries(axes)) {
    const ax = normalizeAxis(fn, Number(k), ndim);
    if (typeof f !== 'number' || !Number.isSafeInteger(f) || f < 1) {
      throw new ValueError(
        `${fn}: factor ${formatValue(f)} on axis ${ax} is not a positive integer`,
      );
    }
    out[ax] = f;
  }
  return out;
}

/**
 * Chunks of one axis (summing to a multiple of `f`) that are all multiples of `f`: each
 * chunk rounded down, its remainder carried into the next.
 * @example
 * alignedChunks([5, 5, 2], 3); // [3, 6, 3]
 */
export function alignedChunks(chunks: readonly number[], f: number): number[] {
  const out: number[] = [];
  let carry = 0;
  for (const c of chunks) {
    const take = Math.floor((c + carry) / f) * f;
    if (take > 0) out.push(take);
    carry += c - take;
  }
  return out.length === 0 ? [0] : out;
}

/** `a` with every coarsened axis a whole number of windows (trimmed, padded, or an error). */
function fitWindows(fn: string, a: LazyArray, factors: number[], opts: CoarsenOptions): LazyArray {
  const sizes = a.shape;
  // axes not coarsened (factor 1) may be of unknown size: they never have an excess
  const excess = sizes.map((n, ax) => (factors[ax] === 1 ? 0 : (n as number) % factors[ax]!));
  if (excess.every((e) => e === 0)) return a;
  if (opts.trimExcess === true) {
    return getitem(
      a,
      sizes.map((n, ax) =>
        excess[ax] === 0 ? {} : { start: 0, stop: (n as number) - excess[ax]! },
      ),
    );
  }
  if (opts.pad !== undefined) {
    const widths = excess.map((e, ax) => [0, e === 0 ? 0 : factors[ax]! - e] as [number, number]);
    return typeof opts.pad === 'number'
      ? pad(a, widths, { mode: 'constant', constantValues: opts.pad })
      : pad(a, widths, { mode: opts.pad });
  }
  const given = Object.fromEntries(factors.flatMap((f, ax) => (f === 1 ? [] : [[ax, f]])));
  throw new ValueError(
    `${fn}: coarsening factors ${JSON.stringify(given)} do not divide the shape ${formatTuple(sizes)}; pass { trimExcess: true } or { pad }`,
  );
}

/**
 * Reduce every non-overlapping window of `factor` elements along each axis of `axes` to one
 * element (dask.array.coarsen): `coarsen('mean', x, { 0: 2, 1: 2 })` halves a raster. The
 * reduction is a name or the library's function (sum prod mean min max any all var std;
 * dtypes as those give). Chunks that are not multiples of their factor are first rechunked
 * to multiples (each rounded down, the remainder carried into the next), so every window
 * lies in one block and each block is coarsened on its own. An axis that is not a whole
 * number of windows is an error, as in Dask, unless `trimExcess` drops the remainder or
 * `pad` fills the last window (a constant or a pad mode such as 'edge').
 * @example
 * coarsen('mean', fromArray([1, 2, 3, 4, 5, 6], { chunks: 3 }), { 0: 2 }).compute(); // [1.5, 3.5, 5.5]
 */
export function coarsen<X extends ArrayLike>(
  reduction: CoarsenReduction,
  x: X,
  axes: Readonly<Record<number, number>>,
  opts: CoarsenOptions = {},
): LazyArray<KnownIn<[X]>> {
  const fn = 'coarsen';
  const name = reductionName(fn, reduction);
  let a: LazyArray = asLazy(x, fn);
  if (a.dtype === 'float16') {
    // as NumPy's float16 reductions: accumulate in float32, round the result once
    const r: LazyArray = coarsen(reduction, astype(a, 'float32'), axes, opts);
    return (r.dtype === 'float32' ? astype(r, 'float16') : r) as LazyArray<KnownIn<[X]>>;
  }
  const factors = factorsOf(fn, axes, a.ndim);
  if (opts.trimExcess === true && opts.pad !== undefined) {
    throw new ValueError(`${fn}: pass trimExcess or pad, not both`);
  }
  factors.forEach((f, ax) => {
    if (f > 1 && a.chunks[ax]!.includes(null)) {
      throw new ChunkError(
        `${fn}: axis ${ax} has unknown chunk sizes; call computeChunkSizes(x) first`,
      );
    }
  });
  a = fitWindows(fn, a, factors, opts);
  const spec: Record<number, number[]> = {};
  factors.forEach((f, ax) => {
    const c = a.chunks[ax] as number[];
    if (f > 1 && c.some((n) => n % f !== 0)) spec[ax] = alignedChunks(c, f);
  });
  if (Object.keys(spec).length > 0) a = rechunk(a, spec);
  const reduce = { ...REDUCTIONS[name](a.dtype), axes: coarsenAxes(factors) } as WindowReduce;
  const params: CoarsenParams = { factors, reduce };
  const layer = defineLayer({
    op: `coarsen-${name}`,
    token: [factors, reduce],
    deps: [a.layer],
    chunks: a.chunks.map((c, ax) => c.map((n) => (n === null ? null : n / factors[ax]!))),
    dtype: reduce.dtype,
    fusable: true,
    task: (b) => ({ kernel: 'coarsen-block', inputs: [[0, b]], params }),
  });
  return new LazyArray(layer);
}
