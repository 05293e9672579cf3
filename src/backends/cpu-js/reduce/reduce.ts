// Reduction kernels: 'reduce-partial' (one input block), 'reduce-combine' (merge intermediates
// in tree order) and 'reduce-aggregate' (merge, finalize, drop reduced axes unless keepdims).

import type { DType } from '../../../array/dtype.ts';
import { emptyNDArray, NDArray } from '../../../array/ndarray.ts';
import { arrayBlock } from '../../../kernels/array-block.ts';
import type { Chunk, Kernel } from '../../../kernels/types.ts';
import { type ArgParams, argFinalize, argMerge, argPartial } from './arg-reduce.ts';
import { type MonoidParams, monoidFinalize, monoidMerge, monoidPartial } from './reduce-monoid.ts';
import {
  type NanMeanParams,
  nanMeanFinalize,
  nanMeanMerge,
  nanMeanPartial,
} from './reduce-nanmean.ts';
import { type MomentParams, momentFinalize, momentMerge, momentPartial } from './reduce-stats.ts';

/** Params of every reduction step; `op` picks the reducer. */
export type ReduceParams = MonoidParams | MomentParams | ArgParams | NanMeanParams;

/** Params of the aggregate step. */
export type AggregateParams = ReduceParams & {
  readonly keepdims: boolean;
  /**
   * When the reduced grid has no blocks at all (an axis with zero blocks): the input
   * block to reduce instead (shape with zeros along reduced axes, input dtype).
   */
  readonly empty?: { readonly shape: readonly number[]; readonly dtype: DType };
};

interface Reducer {
  partial(x: NDArray, p: ReduceParams): Chunk;
  merge(parts: readonly Chunk[], p: ReduceParams): Chunk;
  finalize(part: Chunk, p: ReduceParams): NDArray;
}

const monoid: Reducer = {
  partial: (x, p) => monoidPartial(x, p as MonoidParams),
  merge: (parts, p) => monoidMerge(parts, p as MonoidParams),
  finalize: (part, p) => monoidFinalize(part, p as MonoidParams),
};

const moments: Reducer = {
  partial: (x, p) => momentPartial(x, p as MomentParams),
  merge: (parts) => momentMerge(parts),
  finalize: (part, p) => momentFinalize(part, p as MomentParams),
};

const nanMean: Reducer = {
  partial: (x, p) => nanMeanPartial(x, p as NanMeanParams),
  merge: (parts) => nanMeanMerge(parts),
  finalize: (part, p) => nanMeanFinalize(part, p as NanMeanParams),
};

const arg: Reducer = {
  partial: (x, p) => argPartial(x, p as ArgParams),
  merge: (parts, p) => argMerge(parts, p as ArgParams),
  finalize: (part, p) => argFinalize(part, p as ArgParams),
};

const reducers: Record<ReduceParams['op'], Reducer> = {
  sum: monoid,
  prod: monoid,
  min: monoid,
  max: monoid,
  any: monoid,
  all: monoid,
  mean: monoid,
  var: moments,
  argmin: arg,
  argmax: arg,
  nanmean: nanMean,
};

/**
 * Merge intermediates, finalize, and drop the reduced axes unless `keepdims`.
 * @example
 * aggregate([monoidPartial(x, p)], { ...p, keepdims: false }); // x reduced over p.axes
 */
export function aggregate(parts: readonly Chunk[], p: AggregateParams): NDArray {
  const r = reducers[p.op];
  const inputs =
    parts.length > 0 || p.empty === undefined
      ? parts
      : [r.partial(emptyNDArray(p.empty.shape, p.empty.dtype), p)];
  const out = r.finalize(r.merge(inputs, p), p);
  if (p.keepdims) return out;
  return new NDArray(
    out.data,
    out.shape.filter((_, ax) => !p.axes.includes(ax)),
    out.dtype,
  );
}

/** Reduction kernels by name; registered in backends/cpu-js/registry. */
export const reduceKernels: Record<string, Kernel<never>> = {
  /** Reduce one input block along `axes` to an intermediate (keepdims shape). */
  'reduce-partial': ((inputs: Chunk[], p: ReduceParams) =>
    reducers[p.op].partial(arrayBlock(inputs[0], 'reduce-partial'), p)) as Kernel<never>,
  /** Merge intermediates in the order given (the tree's order). */
  'reduce-combine': ((inputs: Chunk[], p: ReduceParams) =>
    reducers[p.op].merge(inputs, p)) as Kernel<never>,
  /** Merge, finalize to the output dtype, and drop reduced axes unless keepdims. */
  'reduce-aggregate': ((inputs: Chunk[], p: AggregateParams) =>
    aggregate(inputs, p)) as Kernel<never>,
};
