// uniformFilter and gaussianFilter (scipy.ndimage's): separable, one 1-D correlation per
// axis; the halos of every axis taken once and the passes run in one 'correlate-axes' task
// per block (a constant boundary: one overlap and pass per axis, as scipy pads each pass).

import type { ArrayLike } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import { LazyArray } from '../array/lazy-array.ts';
import type { CorrelateAxisParams } from '../backends/cpu-js/stencil/correlate.ts';
import { formatValue } from '../chunking/format.ts';
import type { AxisDepth, EdgeRule } from '../chunking/overlap-plan.ts';
import { ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import { edgeRuleOf, type FilterOptions, filterInput, perAxis } from './filter-mode.ts';
import { overlapRules } from './overlap.ts';

export type { FilterMode, FilterOptions } from './filter-mode.ts';

/** Options of gaussianFilter. */
export interface GaussianFilterOptions extends FilterOptions {
  /** The kernel's radius in standard deviations (default 4, as scipy's). */
  readonly truncate?: number;
}

/** One 1-D correlation pass of a separable filter. */
interface Pass {
  readonly axis: number;
  readonly weights: readonly number[];
  readonly before: number;
  readonly order: CorrelateAxisParams['order'];
}

/**
 * The passes of a separable filter, one 1-D correlation per axis in axis order. With a
 * reflecting, repeating or wrapping boundary every halo is taken once, for all axes, and one
 * task per block runs all the passes (each consuming its own axis's halo): reflecting the
 * input and filtering along another axis commute exactly. A constant boundary pads every
 * pass's input with the constant (scipy's order), so there each pass takes its own halo.
 */
function correlatePasses(
  fn: string,
  x: LazyArray,
  passes: readonly Pass[],
  boundary: EdgeRule,
): LazyArray {
  if (passes.length === 0) return x;
  const groups = typeof boundary === 'number' ? passes.map((p) => [p]) : [passes];
  let y = x;
  for (const group of groups) y = correlateGroup(fn, y, group, boundary);
  return y;
}

function correlateGroup(
  fn: string,
  x: LazyArray,
  passes: readonly Pass[],
  boundary: EdgeRule,
): LazyArray {
  const params = passes.map(
    (p): CorrelateAxisParams => ({ ...p, after: p.weights.length - 1 - p.before }),
  );
  const depths = x.shape.map((): AxisDepth => [0, 0]);
  for (const p of params) depths[p.axis] = [p.before, p.after];
  const rules = x.shape.map((): EdgeRule => boundary);
  const y = overlapRules(fn, x, depths, rules);
  const layer = defineLayer({
    op: fn,
    token: params.map((p) => [p.axis, p.weights, p.before, p.order ?? 'taps']),
    deps: [y.layer],
    chunks: y.chunks.map((c, ax) => {
      const [before, after] = depths[ax]!;
      return c.map((s) => s! - before - after);
    }),
    dtype: x.dtype,
    fusable: true,
    task: (b) => ({ kernel: 'correlate-axes', inputs: [[0, b]], params: { passes: params } }),
  });
  return new LazyArray(layer);
}

/**
 * The mean over a `size`-wide window along every axis (scipy.ndimage's `uniform_filter`):
 * one pass per axis, the window `[i - size // 2, i + (size - 1) // 2]`, the input extended
 * by `mode` (default 'reflect', edge repeated). Same shape and dtype (integers truncate;
 * an integer array takes `cval` cast to its dtype).
 * @example
 * uniformFilter(fromArray([0, 10, 0, 3, 7], { chunks: 2 }), 3).compute(); // ≈ [3.33, 3.33, 4.33, 3.33, 5.67]
 */
export function uniformFilter<X extends ArrayLike>(
  x: X,
  size: number | readonly number[],
  opts: FilterOptions = {},
): LazyArray<KnownIn<[X]>> {
  const fn = 'uniformFilter';
  const y = filterInput(fn, x);
  const sizes = perAxis(fn, 'size', size, y.ndim);
  const boundary = edgeRuleOf(fn, opts);
  const passes: Pass[] = [];
  sizes.forEach((s, axis) => {
    if (!Number.isInteger(s) || s < 1) {
      throw new ValueError(
        `${fn}: size ${formatValue(s)} on axis ${axis} is not a positive integer`,
      );
    }
    if (s === 1) return;
    const weights = new Array<number>(s).fill(1 / s);
    passes.push({ axis, weights, before: Math.floor(s / 2), order: 'mean' });
  });
  return correlatePasses(fn, y, passes, boundary) as LazyArray<KnownIn<[X]>>;
}

/** NumPy's pairwise sum for up to 128 values (8 accumulators), so weights match bit for bit. */
function numpySum(v: readonly number[]): number {
  if (v.length < 8) return v.reduce((s, x) => s + x, 0);
  const r = v.slice(0, 8);
  let i = 8;
  for (; i + 8 <= v.length; i += 8) for (let k = 0; k < 8; k++) r[k]! += v[i + k]!;
  let s = r[0]! + r[1]! + (r[2]! + r[3]!) + (r[4]! + r[5]! + (r[6]! + r[7]!));
  for (; i < v.length; i++) s += v[i]!;
  return s;
}

/** scipy's _gaussian_kernel1d (order 0): exp(-x² / 2σ²) on [-radius, radius], normalized. */
function gaussianWeights(sigma: number, radius: number): number[] {
  const a = -0.5 / (sigma * sigma);
  const w: number[] = [];
  for (let k = -radius; k <= radius; k++) w.push(Math.exp(a * (k * k)));
  const total = radius <= 63 ? numpySum(w) : w.reduce((s, v) => s + v, 0);
  return w.map((v) => v / total);
}

/**
 * A Gaussian blur with standard deviation `sigma` per axis (scipy.ndimage's
 * `gaussian_filter`, order 0): one pass per axis with radius `int(truncate · sigma + 0.5)`,
 * the input extended by `mode` (default 'reflect'). Axes with sigma 0 are left alone; the
 * radius may not exceed an axis's length. Same dtype; integer results truncate, and one
 * whose exact value is a whole number may come out one lower than scipy's (the weights'
 * exp differs from NumPy's by an ulp).
 * @example
 * const smooth = gaussianFilter(image, [2, 2], { mode: 'nearest' }); // same shape and chunks
 */
export function gaussianFilter<X extends ArrayLike>(
  x: X,
  sigma: number | readonly number[],
  opts: GaussianFilterOptions = {},
): LazyArray<KnownIn<[X]>> {
  const fn = 'gaussianFilter';
  const y = filterInput(fn, x);
  const sigmas = perAxis(fn, 'sigma', sigma, y.ndim);
  const boundary = edgeRuleOf(fn, opts);
  const truncate = opts.truncate ?? 4;
  const passes: Pass[] = [];
  if (typeof truncate !== 'number' || !Number.isFinite(truncate) || truncate < 0) {
    throw new ValueError(`${fn}: truncate ${formatValue(truncate)} is not a non-negative number`);
  }
  sigmas.forEach((s, axis) => {
    if (typeof s !== 'number' || !Number.isFinite(s) || s < 0) {
      throw new ValueError(
        `${fn}: sigma ${formatValue(s)} on axis ${axis} is not a non-negative number`,
      );
    }
    if (s <= 1e-15) return;
    const radius = Math.trunc(truncate * s + 0.5);
    passes.push({ axis, weights: gaussianWeights(s, radius), before: radius, order: 'symmetric' });
  });
  return correlatePasses(fn, y, passes, boundary) as LazyArray<KnownIn<[X]>>;
}
