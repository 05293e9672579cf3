// medianFilter and convolve (scipy.ndimage's median_filter and convolve): N-d windows, one
// overlap of the window's reach per axis, then one window kernel per block.

import type { ArrayLike } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import { LazyArray } from '../array/lazy-array.ts';
import { flattenNested, NDArray, type Nested, shapeSize } from '../array/ndarray.ts';
import type { CorrelateNdParams, RankFilterParams } from '../backends/cpu-js/stencil/window.ts';
import { formatTuple, formatValue } from '../chunking/format.ts';
import type { AxisDepth, EdgeRule } from '../chunking/overlap-plan.ts';
import { ShapeError, ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import { edgeRuleOf, type FilterOptions, filterInput, perAxis } from './filter-mode.ts';
import { overlapRules } from './overlap.ts';

/** `x` extended by `depths` under `rule`, then `kernel` run on each extended block. */
function windowLayer(
  fn: string,
  x: LazyArray,
  depths: readonly AxisDepth[],
  rule: EdgeRule,
  kernel: string,
  params: CorrelateNdParams | RankFilterParams,
): LazyArray {
  const y = overlapRules(
    fn,
    x,
    depths,
    depths.map(() => rule),
  );
  const layer = defineLayer({
    op: fn,
    token: [params],
    deps: [y.layer],
    chunks: y.chunks.map((c, ax) => c.map((s) => s! - depths[ax]![0] - depths[ax]![1])),
    dtype: x.dtype,
    fusable: true,
    task: (b) => ({ kernel, inputs: [[0, b]], params }),
  });
  return new LazyArray(layer);
}

/**
 * The median of every `size`-wide window (scipy.ndimage's `median_filter` with a box
 * footprint): the window `[i - size // 2, i + (size - 1) // 2]` per axis, the input
 * extended by `mode` (default 'reflect'). An even number of elements gives the upper of the
 * two middle values, as scipy's rank selection does. Same shape, chunks and dtype; each
 * block reads only its neighbours' halos. NaN inside a window gives an unspecified value.
 * @example
 * medianFilter(fromArray([1, 9, 2, 8, 3], { chunks: 2 }), 3).compute(); // [1, 2, 8, 3, 3]
 */
export function medianFilter<X extends ArrayLike>(
  x: X,
  size: number | readonly number[],
  opts: FilterOptions = {},
): LazyArray<KnownIn<[X]>> {
  const fn = 'medianFilter';
  const a = filterInput(fn, x);
  const sizes = perAxis(fn, 'size', size, a.ndim);
  sizes.forEach((s, axis) => {
    if (!Number.isInteger(s) || s < 1) {
      throw new ValueError(
        `${fn}: size ${formatValue(s)} on axis ${axis} is not a positive integer`,
      );
    }
  });
  const rule = edgeRuleOf(fn, opts);
  if (sizes.every((s) => s === 1)) return a as LazyArray<KnownIn<[X]>>;
  const depths = sizes.map((s): AxisDepth => [Math.floor(s / 2), s - 1 - Math.floor(s / 2)]);
  const params: RankFilterParams = { size: sizes, rank: Math.floor(shapeSize(sizes) / 2) };
  return windowLayer(fn, a, depths, rule, 'rank-filter', params) as LazyArray<KnownIn<[X]>>;
}

/** The kernel's values (C order) and shape from an NDArray or nested numbers. */
function kernelValues(fn: string, kernel: NDArray | Nested): { values: number[]; shape: number[] } {
  if (kernel instanceof NDArray) {
    if (kernel.dtype === 'float16' || kernel.dtype === 'bool') {
      throw new ValueError(`${fn}: kernel dtype '${kernel.dtype}' is not supported`);
    }
    // toArray: the elements as numbers (int64/uint64 exactly, or a ValueError beyond 2^53)
    return { values: kernel.toArray(), shape: [...kernel.shape] };
  }
  if (!Array.isArray(kernel)) {
    throw new ValueError(`${fn}: kernel ${formatValue(kernel)} is not an array of weights`);
  }
  const { values, shape } = flattenNested(fn, kernel);
  return { values: values.map(Number), shape };
}

/**
 * `x` convolved with the N-d `kernel` (scipy.ndimage's `convolve`, origin 0): output i is
 * `Σ_j kernel[j] · x[i + c - j]` with `c = size // 2` per axis, the input extended by
 * `mode` (default 'reflect'). The kernel has one axis per axis of `x`. Same shape, chunks
 * and dtype; sums accumulate in float64 and integer results truncate, as scipy's do.
 * @example
 * const edges = convolve(image, [[0, 1, 0], [1, -4, 1], [0, 1, 0]], { mode: 'nearest' });
 */
export function convolve<X extends ArrayLike>(
  x: X,
  kernel: NDArray | Nested,
  opts: FilterOptions = {},
): LazyArray<KnownIn<[X]>> {
  const fn = 'convolve';
  const a = filterInput(fn, x);
  const { values, shape } = kernelValues(fn, kernel);
  if (shape.length !== a.ndim) {
    throw new ShapeError(
      `${fn}: kernel of shape ${formatTuple(shape)} must have one axis per axis of x (${a.ndim})`,
    );
  }
  if (shape.some((s) => s === 0)) {
    throw new ValueError(`${fn}: kernel of shape ${formatTuple(shape)} is empty`);
  }
  if (values.some((v) => !Number.isFinite(v))) {
    throw new ValueError(`${fn}: kernel holds a value that is not a finite number`);
  }
  const rule = edgeRuleOf(fn, opts);
  // convolution is correlation with the flipped kernel, its centre moved back for even sizes
  const weights = [...values].reverse();
  const depths = shape.map(
    (s): AxisDepth => [Math.floor((s - 1) / 2), s - 1 - Math.floor((s - 1) / 2)],
  );
  return windowLayer(fn, a, depths, rule, 'correlate-nd', { size: shape, weights }) as LazyArray<
    KnownIn<[X]>
  >;
}
