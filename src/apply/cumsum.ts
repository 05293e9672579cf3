// cumsum: a scan inside every block, a sequential chain of carries between blocks along
// the axis, and an add of each block's carry (Dask's cumreduction, method 'sequential').

import { checkOptions } from '../array/check-options.ts';
import { checkDType, type DType, sumDType } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import { LazyArray } from '../array/lazy-array.ts';
import type { ScanOp } from '../backends/cpu-js/reduce/scan.ts';
import { formatValue } from '../chunking/format.ts';
import { ShapeError, ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import type { BlockRef, Layer } from '../graph/layer.ts';
import { normalizeAxis } from './axis-args.ts';
import { reduceViaFloat32 } from './float16-widen.ts';

export interface CumsumOptions {
  /** The axis to accumulate along; required when x has more than one axis. */
  axis?: number;
  /**
   * Output dtype; by default integers and bool accumulate in int64 (uint64 if unsigned), as
   * the Array API says and as `sum` does, wrapping modulo 2^64; floats keep theirs.
   */
  dtype?: DType;
}

/** The carry of block k (k >= 1) along the axis: a chain, carry_k = carry_{k-1} + total_{k-1}. */
function carryLayers(totals: Layer, axis: number, dtype: DType, op: ScanOp): Layer[] {
  const n = totals.chunks[axis]!.length;
  const chunks = totals.chunks.map((c, ax) => (ax === axis ? [1] : [...c]));
  const carries: Layer[] = [];
  for (let k = 1; k < n; k++) {
    const prev = carries[k - 2];
    const deps = prev ? [totals, prev] : [totals];
    carries.push(
      defineLayer({
        op: 'cumsum-carry',
        token: [axis, k, op],
        deps,
        chunks,
        dtype,
        task: (b) => {
          const total: BlockRef = [0, b.map((i, ax) => (ax === axis ? k - 1 : i))];
          return {
            kernel: 'cumsum-carry',
            inputs: prev ? [[1, b], total] : [total],
            params: { op },
          };
        },
      }),
    );
  }
  return carries;
}

/**
 * Inclusive cumulative sum along `axis`. Output chunks equal the input's; unknown sizes
 * along the axis work (only block counts are needed).
 * @example
 * await compute(cumsum(fromArray([1, 2, 3, 4], { chunks: 2 }))); // [1, 3, 6, 10]
 */
export function cumsum<X extends ArrayLike>(
  x: X,
  cumsumOpts?: CumsumOptions,
): LazyArray<KnownIn<[X]>> {
  return scan('cumsum', 'sum', x, cumsumOpts) as LazyArray<KnownIn<[X]>>;
}

/** The inclusive scan of `x` by `op` along an axis (cumsum, cumulativeSum, cumulativeProd). */
export function scan(fn: string, op: ScanOp, x: ArrayLike, scanOpts?: CumsumOptions): LazyArray {
  const opts = checkOptions(fn, scanOpts);
  const a = asLazy(x, fn);
  if (a.ndim === 0) throw new ShapeError(`${fn}: x must have at least one axis, got a 0-d array`);
  if (opts.axis === undefined && a.ndim > 1) {
    throw new ValueError(
      `${fn}: axis is required for a ${a.ndim}-d array (got ${formatValue(opts.axis)})`,
    );
  }
  const axis = normalizeAxis(fn, opts.axis ?? 0, a.ndim);
  const dtype = opts.dtype === undefined ? sumDType(a.dtype) : checkDType(fn, opts.dtype);
  const half = reduceViaFloat32(a, opts.dtype, dtype, (w, given) =>
    scan(fn, op, w, { ...opts, ...(given === undefined ? {} : { dtype: given }) }),
  );
  if (half !== undefined) return half;
  const scanned = defineLayer({
    op: `${fn}-block`,
    token: [axis, op],
    deps: [a.layer],
    chunks: a.chunks,
    dtype,
    fusable: true,
    task: (b) => ({ kernel: 'cumsum-block', inputs: [[0, b]], params: { axis, dtype, op } }),
  });
  if (a.numBlocks[axis]! <= 1) return new LazyArray(scanned);
  const totals = defineLayer({
    op: `${fn}-total`,
    token: [axis, op],
    deps: [scanned],
    chunks: a.chunks.map((c, ax) => (ax === axis ? c.map(() => 1) : [...c])),
    dtype,
    task: (b) => ({ kernel: 'cumsum-total', inputs: [[0, b]], params: { axis, op } }),
  });
  const carries = carryLayers(totals, axis, dtype, op);
  const layer = defineLayer({
    op: fn,
    token: [axis, op],
    deps: [scanned, ...carries],
    chunks: a.chunks,
    dtype,
    task: (b) => {
      const k = b[axis]!;
      const inputs: BlockRef[] = [[0, b]];
      if (k > 0) inputs.push([k, b.map((i, ax) => (ax === axis ? 0 : i))]);
      return { kernel: 'cumsum-add', inputs, params: { axis, op } };
    },
  });
  return new LazyArray(layer);
}
