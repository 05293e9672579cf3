// The loops under every block reduction: a block is cut into contiguous runs, each folded
// into one output element (reduced innermost axis) or accumulated into an output row.

import type { NumberArray } from '../../../array/dtype.ts';

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
  const red = axes; // a few axes: includes() beats building a Set per call
  const groups: { size: number; reduced: boolean }[] = [];
  for (let ax = 0; ax < shape.length; ax++) {
    const size = shape[ax]!;
    if (size === 1) continue;
    const reduced = red.includes(ax);
    const last = groups[groups.length - 1];
    if (last !== undefined && last.reduced === reduced) last.size *= size;
    else groups.push({ size, reduced });
  }
  let outSize = 1;
  for (let ax = 0; ax < shape.length; ax++) if (!red.includes(ax)) outSize *= shape[ax]!;
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

/** An outer (odometer) axis group of a layout. */
export type OuterGroup = RunLayout['outer'][number];

/** Calls `visit(srcOffset, outOffset)` at every position of the `groups` odometer, C order. */
export function forEachPosition(
  groups: readonly OuterGroup[],
  visit: (srcOffset: number, outOffset: number) => void,
): void {
  const nd = groups.length;
  for (const g of groups) if (g.size === 0) return;
  const idx = new Array<number>(nd).fill(0);
  let s = 0;
  let o = 0;
  for (;;) {
    visit(s, o);
    let ax = nd - 1;
    for (; ax >= 0; ax--) {
      const g = groups[ax]!;
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
 * One reduction operation as two loop nests over `rows` runs of `n` contiguous elements
 * (run g starts at `s + g·ss` in `src` and lands at `o + g·os` in `acc`):
 * `foldRows` combines each run into one accumulator element, `accumulateRows` combines
 * run element i into `acc[… + i]`. `aux` is per-output side data (a mean). Number storage
 * only: callers narrow blocks with numberData (no int64 or uint64 reaches a reduction loop).
 */
export interface RunOp {
  foldRows: RowLoop;
  accumulateRows: RowLoop;
}

export type RowLoop = (
  src: NumberArray,
  s: number,
  ss: number,
  rows: number,
  n: number,
  acc: NumberArray,
  o: number,
  os: number,
  aux?: Float64Array,
) => void;

/**
 * Fold every run of `src` into `acc` (pre-filled with the operation's identity). The last
 * outer group is looped inside the operation, so a 2-d view costs one call.
 * @example
 * reduceRuns(sumRuns, runLayout([4, 5], [1]), x.data, acc); // row sums into acc[0..4)
 */
export function reduceRuns(
  op: RunOp,
  layout: RunLayout,
  src: NumberArray,
  acc: NumberArray,
  aux?: Float64Array,
): void {
  const { n, outer } = layout;
  if (n === 0) return;
  const f = layout.reduced ? op.foldRows : op.accumulateRows;
  const last = outer[outer.length - 1];
  if (last === undefined) {
    f(src, 0, 0, 1, n, acc, 0, 0, aux);
    return;
  }
  const { size, srcStride, outStride } = last;
  forEachPosition(outer.slice(0, -1), (s, o) =>
    f(src, s, srcStride, size, n, acc, o, outStride, aux),
  );
}
