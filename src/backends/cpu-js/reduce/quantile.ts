// 'quantile-block': quantiles over the reduced axes of one block (the axes lie whole in it):
// per output element its values are gathered, their needed order statistics selected.

import { allocate, type DType, isFloat } from '../../../array/dtype.ts';
import { cStrides, NDArray } from '../../../array/ndarray.ts';
import type { Chunk, Kernel } from '../../../kernels/types.ts';
import { lerp, type QuantileMethod, quantilePick } from './quantile-methods.ts';
import { selectRanks } from './select.ts';

/** Params of 'quantile-block'. */
export interface QuantileBlockParams {
  /** Reduced axes of the block (sorted). */
  readonly axes: readonly number[];
  /** Quantiles in [0, 1]. */
  readonly qs: readonly number[];
  /** A leading axis of length qs.length (q given as a list). */
  readonly qAxis: boolean;
  readonly method: QuantileMethod;
  /** Drop NaNs first (nanquantile); otherwise a NaN makes its slice's result NaN. */
  readonly skipNaN: boolean;
  readonly keepdims: boolean;
  readonly dtype: DType;
}

/** Relative offsets of every element of the sub-grid of `axes`, C order. */
export function offsetsOver(shape: readonly number[], axes: readonly number[]): Int32Array {
  const st = cStrides(shape);
  let offs = [0];
  for (const ax of axes) {
    const next: number[] = [];
    for (const o of offs) for (let i = 0; i < shape[ax]!; i++) next.push(o + i * st[ax]!);
    offs = next;
  }
  return Int32Array.from(offs);
}

/** Quantiles of buf[0..n) (no NaN, n >= 1) into out[o + k·stride] for each q. */
function quantilesOf(
  buf: Float64Array,
  n: number,
  p: QuantileBlockParams,
  out: { [i: number]: number },
  o: number,
  stride: number,
): void {
  const picks = p.qs.map((q) => quantilePick(p.method, n, q));
  const ranks = [...new Set(picks.flatMap((k) => [k.prev, k.next]))].sort((a, b) => a - b);
  selectRanks(buf, n, ranks);
  picks.forEach((k, i) => {
    out[o + i * stride] =
      k.prev === k.next ? buf[k.prev]! : lerp(buf[k.prev]!, buf[k.next]!, k.gamma);
  });
}

/**
 * The block's quantiles: shape [nq?] + the block's shape with reduced axes dropped (or 1).
 * @example
 * quantileBlock(x, { axes: [1], qs: [0.5], qAxis: false, method: 'linear', … }); // row medians
 */
export function quantileBlock(x: NDArray, p: QuantileBlockParams): NDArray {
  const kept = x.shape.map((_, ax) => ax).filter((ax) => !p.axes.includes(ax));
  const inner = offsetsOver(x.shape, p.axes);
  const bases = offsetsOver(x.shape, kept);
  const m = inner.length;
  const nOut = bases.length;
  const out = allocate(p.dtype, nOut * p.qs.length);
  const buf = new Float64Array(m);
  const src = x.data;
  const float = isFloat(x.dtype);
  for (let o = 0; o < nOut; o++) {
    const base = bases[o]!;
    let n = 0;
    let nan = false;
    for (let k = 0; k < m; k++) {
      const v = src[base + inner[k]!]!;
      if (float && Number.isNaN(v)) {
        nan = true;
        if (!p.skipNaN) break;
      } else buf[n++] = v;
    }
    if ((nan && !p.skipNaN) || n === 0) {
      for (let i = 0; i < p.qs.length; i++) out[o + i * nOut] = Number.NaN;
    } else quantilesOf(buf, n, p, out, o, nOut);
  }
  const keptShape = x.shape.flatMap((s, ax) =>
    p.axes.includes(ax) ? (p.keepdims ? [1] : []) : [s],
  );
  return new NDArray(out, p.qAxis ? [p.qs.length, ...keptShape] : keptShape, p.dtype);
}

/** Kernels by name; registered in backends/cpu-js/registry. */
export const quantileKernels: Record<string, Kernel<never>> = {
  'quantile-block': ((inputs: Chunk[], p: QuantileBlockParams) => {
    const x = inputs[0];
    if (!(x instanceof NDArray)) throw new TypeError('quantile-block: expected an array block');
    return quantileBlock(x, p);
  }) as Kernel<never>,
};
