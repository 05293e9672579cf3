// Reductions of device (GPU) data that the device has no one-pass kernel for, composed from
// the operations it does have: var/std in two passes, argmin/argmax from a min (max) and the
// smallest index that reaches it. Same results as the CPU's (float32 tolerance for moments).

import { arange } from '../array/creation.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import { moveLayer } from '../devices/device-scope.ts';
import { expandDims } from './axes.ts';
import { add, divide, multiply, sqrt, subtract } from './elementwise-arith.ts';
import { equal, isnan, less, where } from './elementwise-logic.ts';
import { type MomentOptions, max, mean, min, sum } from './reductions.ts';

/**
 * var/std of device data in two passes of the device's own kernels: the mean, then the mean
 * of squared deviations from it (the CPU's one-pass merge has no GPU kernel).
 */
export function deviceMoments(
  fn: 'var' | 'std',
  a: LazyArray,
  axes: readonly number[],
  correction: number,
  opts: MomentOptions,
): LazyArray {
  const keep = {
    axis: axes,
    keepdims: true,
    ...(opts.splitEvery ? { splitEvery: opts.splitEvery } : {}),
  };
  const count = axes.reduce((n, ax) => n * (a.shape[ax] ?? Number.NaN), 1);
  const d = subtract(a, mean(a, keep));
  const v = divide(
    sum(multiply(d, d), { ...keep, keepdims: opts.keepdims ?? false }),
    Math.max(count - correction, 0),
  );
  return fn === 'std' ? sqrt(v) : v;
}

/** int32 index of the largest: a stand-in that loses every min. */
const NONE = 2 ** 31 - 1;

/** The index along `axis` of every element of `x`, on `x`'s device (broadcast). */
function indexAlong(x: LazyArray, axis: number): LazyArray {
  const n = x.shape[axis]!;
  const line = arange(n, { dtype: 'int32', chunks: [x.chunks[axis]!.map(Number)] });
  const others = x.shape.map((_, ax) => ax).filter((ax) => ax !== axis);
  const shaped = others.length === 0 ? line : expandDims(line, { axis: others });
  return moveLayer(shaped, x.device);
}

/**
 * argmin/argmax of device data: the smallest index (flat over `axes` when several) whose
 * value equals the min (max); a NaN wins, as on the CPU.
 */
export function deviceArgReduction(
  fn: 'argmin' | 'argmax',
  x: LazyArray,
  axes: readonly number[],
  keepdims: boolean,
): LazyArray {
  const flat = axes.length !== 1;
  let index: LazyArray | undefined;
  let stride = 1;
  for (let ax = x.ndim - 1; ax >= 0; ax--) {
    if (!flat && ax !== axes[0]) continue;
    const term = multiply(indexAlong(x, ax), stride);
    index = index === undefined ? term : add(term, index);
    stride *= x.shape[ax]!;
  }
  const over = { axis: axes, keepdims };
  const best = (fn === 'argmin' ? min : max)(x, { axis: axes, keepdims: true });
  const first = (mask: LazyArray): LazyArray => min(where(mask, index!, NONE), over);
  const atBest = first(equal(x, best));
  const atNaN = first(isnan(x));
  return where(less(atNaN, NONE), atNaN, atBest);
}
