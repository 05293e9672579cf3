// 'quantile-block': quantiles over the reduced axes of one block (the axes lie whole in it):
// per output element its values are gathered, their needed order statistics selected.

import { allocate, type DType, isFloat, numberData } from '../../../array/dtype.ts';
import { cStrides, NDArray } from '../../../array/ndarray.ts';
import { arrayBlock } from '../../../kernels/array-block.ts';
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

/** The order statistics quantiles of n values need (picks per q, ranks ascending). */
function plan(p: QuantileBlockParams, n: number) {
  const picks = p.qs.map((q) => quantilePick(p.method, n, q));
  const ranks = [...new Set(picks.flatMap((k) => [k.prev, k.next]))].sort((a, b) => a - b);
  return { n, picks, ranks };
}

/** Copy the values of output element o into buf: [count of non-NaN copied, any NaN]. */
type Gather = (o: number) => [number, boolean];

function gatherer(x: NDArray, p: QuantileBlockParams, buf: Float64Array): Gather {
  const kept = x.shape.map((_, ax) => ax).filter((ax) => !p.axes.includes(ax));
  const inner = offsetsOver(x.shape, p.axes);
  const bases = offsetsOver(x.shape, kept);
  const m = inner.length;
  const contiguous = inner.every((off, k) => off === k);
  const src = numberData(x.data, 'quantile');
  const float = isFloat(x.dtype);
  const scan = (n: number): [number, boolean] => {
    if (!float) return [n, false];
    let w = 0;
    for (let k = 0; k < n; k++) {
      const v = buf[k]!;
      if (Number.isNaN(v)) {
        if (!p.skipNaN) return [0, true];
      } else buf[w++] = v;
    }
    return [w, w < n];
  };
  if (contiguous) {
    return (o) => {
      buf.set(src.subarray(bases[o]!, bases[o]! + m));
      return scan(m);
    };
  }
  return (o) => {
    const base = bases[o]!;
    for (let k = 0; k < m; k++) buf[k] = src[base + inner[k]!]!;
    return scan(m);
  };
}

/**
 * The block's quantiles: shape [nq?] + the block's shape with reduced axes dropped (or 1).
 * @example
 * quantileBlock(x, { axes: [1], qs: [0.5], qAxis: false, method: 'linear', … }); // row medians
 */
export function quantileBlock(x: NDArray, p: QuantileBlockParams): NDArray {
  const m = offsetsOver(x.shape, p.axes).length;
  const count = x.shape.reduce((n, s, ax) => (p.axes.includes(ax) ? n : n * s), 1);
  const out = numberData(allocate(p.dtype, count * p.qs.length), 'quantile');
  const buf = new Float64Array(m);
  const gather = gatherer(x, p, buf);
  let at = m > 0 ? plan(p, m) : undefined;
  for (let o = 0; o < count; o++) {
    const [n, nan] = m > 0 ? gather(o) : [0, false];
    if ((nan && !p.skipNaN) || n === 0) {
      for (let i = 0; i < p.qs.length; i++) out[o + i * count] = Number.NaN;
      continue;
    }
    if (at === undefined || at.n !== n) at = plan(p, n);
    selectRanks(buf, n, at.ranks);
    for (let i = 0; i < at.picks.length; i++) {
      const k = at.picks[i]!;
      out[o + i * count] =
        k.prev === k.next ? buf[k.prev]! : lerp(buf[k.prev]!, buf[k.next]!, k.gamma);
    }
  }
  const keptShape = x.shape.flatMap((s, ax) =>
    p.axes.includes(ax) ? (p.keepdims ? [1] : []) : [s],
  );
  return new NDArray(out, p.qAxis ? [p.qs.length, ...keptShape] : keptShape, p.dtype);
}

/** Kernels by name; registered in backends/cpu-js/registry. */
export const quantileKernels: Record<string, Kernel<never>> = {
  'quantile-block': ((inputs: Chunk[], p: QuantileBlockParams) => {
    return quantileBlock(arrayBlock(inputs[0], 'quantile-block'), p);
  }) as Kernel<never>,
};
