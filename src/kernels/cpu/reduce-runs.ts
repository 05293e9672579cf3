// The loops under every block reduction: a block is cut into contiguous runs, each folded
// into one output element (reduced innermost axis) or accumulated into an output row.

import type { TypedArray } from '../../array/dtype.ts';

/**
 * A block reduction as runs: `n` contiguous input elements per run; `reduced` says whether
 * a run folds into one output element or accumulates element-wise into an output row.
 * The outer axes (merged, unit axes dropped) are walked by an odometer.
 */
export interface RunLayout {
  readonly n: number;
  readonly reduced: boolean;
  readonly outer: readonly { size: number; srcStride: number; outStride: number }[];
  /** Elements of the keepdims output. */
  readonly outSize: number;
}

/**
 * Cut a C-contiguous block of `shape` reduced over `axes` into runs: adjacent axes of the
 * same kind merge, so reducing all axes, the last axes or the first axes is one loop nest.
 * @example
 * runLayout([4, 5], [1]); // n 5, reduced, one outer axis of 4 (rows fold to values)
 */
export function runLayout(shape: readonly number[], axes: readonly number[]): RunLayout {
  const red = new Set(axes);
  const groups: { size: number; reduced: boolean }[] = [];
  for (let ax = 0; ax < shape.length; ax++) {
    const size = shape[ax]!;
    if (size === 1) continue;
    const reduced = red.has(ax);
    const last = groups[groups.length - 1];
    if (last !== undefined && last.reduced === reduced) last.size *= size;
    else groups.push({ size, reduced });
  }
  let outSize = 1;
  for (let ax = 0; ax < shape.length; ax++) if (!red.has(ax)) outSize *= shape[ax]!;
  const inner = groups.pop() ?? { size: 1, reduced: true };
  const outer: { size: number; srcStride: number; outStride: number }[] = [];
  let srcStride = inner.size;
  let outStride = inner.reduced ? 1 : inner.size;
  for (let g = groups.length - 1; g >= 0; g--) {
    const { size, reduced } = groups[g]!;
    outer.unshift({ size, srcStride, outStride: reduced ? 0 : outStride });
    srcStride *= size;
    if (!reduced) outStride *= size;
  }
  return { n: inner.size, reduced: inner.reduced, outer, outSize };
}

/** Calls `visit(srcOffset, outOffset)` for every run of a layout, in C order. */
export function forEachRun(
  layout: RunLayout,
  visit: (srcOffset: number, outOffset: number) => void,
): void {
  const { outer } = layout;
  const nd = outer.length;
  for (const g of outer) if (g.size === 0) return;
  if (layout.n === 0) return;
  const idx = new Array<number>(nd).fill(0);
  let s = 0;
  let o = 0;
  for (;;) {
    visit(s, o);
    let ax = nd - 1;
    for (; ax >= 0; ax--) {
      const g = outer[ax]!;
      idx[ax]!++;
      s += g.srcStride;
      o += g.outStride;
      if (idx[ax]! < g.size) break;
      s -= g.size * g.srcStride;
      o -= g.size * g.outStride;
      idx[ax] = 0;
    }
    if (ax < 0) return;
  }
}

/**
 * One reduction operation over runs: `fold` combines `src[s..s+n)` into `acc[o]`,
 * `accumulate` combines `src[s+i]` into `acc[o+i]`. `aux` is per-output side data
 * (the mean for squared deviations).
 */
export interface RunOp {
  fold(src: TypedArray, s: number, n: number, acc: TypedArray, o: number, aux?: Float64Array): void;
  accumulate(
    src: TypedArray,
    s: number,
    n: number,
    acc: TypedArray,
    o: number,
    aux?: Float64Array,
  ): void;
}

/** Fold every run of `src` into `acc` (pre-filled with the operation's identity). */
export function reduceRuns(
  op: RunOp,
  layout: RunLayout,
  src: TypedArray,
  acc: TypedArray,
  aux?: Float64Array,
): void {
  const { n } = layout;
  const f = layout.reduced ? op.fold : op.accumulate;
  if (layout.outer.length === 0) {
    if (n > 0) f(src, 0, n, acc, 0, aux);
    return;
  }
  forEachRun(layout, (s, o) => f(src, s, n, acc, o, aux));
}

/** Sum with four accumulators: enough independent adds to keep up with memory. */
export const sumRuns: RunOp = {
  fold(src, s, n, acc, o) {
    let a0 = 0;
    let a1 = 0;
    let a2 = 0;
    let a3 = 0;
    const end = s + n;
    let i = s;
    for (; i + 3 < end; i += 4) {
      a0 += src[i]!;
      a1 += src[i + 1]!;
      a2 += src[i + 2]!;
      a3 += src[i + 3]!;
    }
    for (; i < end; i++) a0 += src[i]!;
    acc[o] = acc[o]! + (a0 + a1 + (a2 + a3));
  },
  accumulate(src, s, n, acc, o) {
    for (let i = 0; i < n; i++) acc[o + i] = acc[o + i]! + src[s + i]!;
  },
};

/** Product in float64 (floats). */
export const prodRuns: RunOp = {
  fold(src, s, n, acc, o) {
    let p0 = 1;
    let p1 = 1;
    const end = s + n;
    let i = s;
    for (; i + 1 < end; i += 2) {
      p0 *= src[i]!;
      p1 *= src[i + 1]!;
    }
    if (i < end) p0 *= src[i]!;
    acc[o] = acc[o]! * (p0 * p1);
  },
  accumulate(src, s, n, acc, o) {
    for (let i = 0; i < n; i++) acc[o + i] = acc[o + i]! * src[s + i]!;
  },
};

/** Product of integers with 32-bit wrap-around (as NumPy's int32 product). */
export const imulRuns: RunOp = {
  fold(src, s, n, acc, o) {
    let p = acc[o]!;
    for (let i = s; i < s + n; i++) p = Math.imul(p, src[i]!);
    acc[o] = p;
  },
  accumulate(src, s, n, acc, o) {
    for (let i = 0; i < n; i++) acc[o + i] = Math.imul(acc[o + i]!, src[s + i]!);
  },
};

/** Minimum; a NaN wins and stays (NumPy's propagation). */
export const minRuns: RunOp = {
  fold(src, s, n, acc, o) {
    let m = acc[o]!;
    for (let i = s; i < s + n; i++) {
      const v = src[i]!;
      if (v < m || Number.isNaN(v)) m = v;
    }
    acc[o] = m;
  },
  accumulate(src, s, n, acc, o) {
    for (let i = 0; i < n; i++) {
      const v = src[s + i]!;
      if (v < acc[o + i]! || Number.isNaN(v)) acc[o + i] = v;
    }
  },
};

/** Maximum; a NaN wins and stays. */
export const maxRuns: RunOp = {
  fold(src, s, n, acc, o) {
    let m = acc[o]!;
    for (let i = s; i < s + n; i++) {
      const v = src[i]!;
      if (v > m || Number.isNaN(v)) m = v;
    }
    acc[o] = m;
  },
  accumulate(src, s, n, acc, o) {
    for (let i = 0; i < n; i++) {
      const v = src[s + i]!;
      if (v > acc[o + i]! || Number.isNaN(v)) acc[o + i] = v;
    }
  },
};

/** Logical or (NaN is truthy); stops a run at the first true. */
export const anyRuns: RunOp = {
  fold(src, s, n, acc, o) {
    if (acc[o]) return;
    for (let i = s; i < s + n; i++) {
      if (src[i] !== 0) {
        acc[o] = 1;
        return;
      }
    }
  },
  accumulate(src, s, n, acc, o) {
    for (let i = 0; i < n; i++) if (src[s + i] !== 0) acc[o + i] = 1;
  },
};

/** Logical and; stops a run at the first false. */
export const allRuns: RunOp = {
  fold(src, s, n, acc, o) {
    if (!acc[o]) return;
    for (let i = s; i < s + n; i++) {
      if (src[i] === 0) {
        acc[o] = 0;
        return;
      }
    }
  },
  accumulate(src, s, n, acc, o) {
    for (let i = 0; i < n; i++) if (src[s + i] === 0) acc[o + i] = 0;
  },
};

/** Sum of squared deviations from `aux` (the per-output mean): the second pass of a variance. */
export const sqdevRuns: RunOp = {
  fold(src, s, n, acc, o, aux) {
    const m = aux![o]!;
    let a0 = 0;
    let a1 = 0;
    const end = s + n;
    let i = s;
    for (; i + 1 < end; i += 2) {
      const d0 = src[i]! - m;
      const d1 = src[i + 1]! - m;
      a0 += d0 * d0;
      a1 += d1 * d1;
    }
    if (i < end) {
      const d = src[i]! - m;
      a0 += d * d;
    }
    acc[o] = acc[o]! + (a0 + a1);
  },
  accumulate(src, s, n, acc, o, aux) {
    for (let i = 0; i < n; i++) {
      const d = src[s + i]! - aux![o + i]!;
      acc[o + i] = acc[o + i]! + d * d;
    }
  },
};
