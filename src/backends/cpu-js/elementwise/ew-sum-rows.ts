// Fused sums row by row: the block of an elementwise expression is walked as rows (runs of
// the reduction, or pieces of them) and summed by compiled row loops straight from the
// inputs (ew-rows.ts), in an order fixed by the block's shape and views alone.

import type { TypedArray } from '../../../array/dtype.ts';
import type { RunLayout } from '../reduce/reduce-runs.ts';
import { accumulateRowsLoop, foldRowsLoop, type RowMode } from './ew-rows.ts';
import type { TileEvaluator } from './ew-view.ts';

/** Rows shorter than this cost more in calls than they save: other paths take them. */
const MIN_ROW = 8;

/** Output offset of run `r` (runs in C order over the layout's outer groups). */
export function runOutput(layout: RunLayout, r: number): number {
  let o = 0;
  for (let g = layout.outer.length - 1; g >= 0; g--) {
    const { size, outStride } = layout.outer[g]!;
    o += (r % size) * outStride;
    r = Math.floor(r / size);
  }
  return o;
}

/**
 * Length of the rows: the shorter of the reduction's runs and the longest suffix of axes
 * every input steps through evenly (both are products of trailing axes, so one divides
 * the other), and the first axis of that suffix.
 */
function rowShape(ev: TileEvaluator, n: number): { len: number; first: number } {
  const { shape, full } = ev;
  let len = 1;
  let first = shape.length;
  let prev = -1;
  for (let ax = shape.length - 1; ax >= 0; ax--) {
    if (shape[ax] === 1) {
      if (len > 1) first = ax;
      continue;
    }
    if (prev >= 0 && !full.every((st) => st[ax] === st[prev]! * shape[prev]!)) break;
    if (len * shape[ax]! > n) break;
    len *= shape[ax]!;
    first = ax;
    prev = ax;
  }
  return { len, first };
}

/** A fused sum prepared for one block layout, run over inputs at any base offsets. */
export interface SumRowsPlan {
  /**
   * Sum into `acc` with input k's first element at `ins[k][base[k]]` (its strides as
   * planned): the same additions in the same order as sumRows at those inputs.
   */
  run(ins: readonly TypedArray[], base: readonly number[], acc: TypedArray): void;
}

/**
 * The row walk of sumRows for `ev` and `layout`, or undefined when the rows would be too
 * short (the caller takes another path). One compiled call sums the rows along the axis
 * before them; an odometer walks the axes further out.
 * @example
 * sumRowsPlan(ev, layout)?.run(ev.ops.map((o) => o.data), [0], acc);
 */
export function sumRowsPlan(ev: TileEvaluator, layout: RunLayout): SumRowsPlan | undefined {
  if ('const' in ev.expr) return undefined;
  const { shape, full } = ev;
  const { n, reduced } = layout;
  const { len, first } = rowShape(ev, n);
  if (len < MIN_ROW || n % len !== 0) return undefined;
  let last = shape.length - 1;
  while (last > 0 && shape[last] === 1) last--;
  let ra = first - 1;
  while (ra >= 0 && shape[ra] === 1) ra--;
  const st = full.map((s) => s[last] ?? 0);
  const rs = full.map((s) => (ra >= 0 ? s[ra]! : 0));
  const rows = ra >= 0 ? shape[ra]! : 1;
  const modes = st.map((s): RowMode => (s === 1 ? 'c' : s === 0 ? 's' : 'g'));
  const dtypes = ev.ops.map((o) => o.dtype);
  // consecutive runs along the row axis land `os` apart (rows inside one run: len apart)
  const runStride = layout.outer[layout.outer.length - 1]?.outStride ?? 0;
  const os = len < n ? (reduced ? 0 : len) : runStride;
  const fold = reduced ? foldRowsLoop(ev.expr, dtypes, modes) : undefined;
  const accumulate = reduced ? undefined : accumulateRowsLoop(ev.expr, dtypes, modes);
  const lane = new Float64Array(4);
  const p = ev.ops.map(() => 0);
  const outer = Math.max(ra, 0);
  const idx = new Array<number>(outer).fill(0);
  const step = rows * len;
  const calls = shape.reduce((a, b) => a * b, 1) / step;
  const run = (ins: readonly TypedArray[], base: readonly number[], acc: TypedArray): void => {
    for (let k = 0; k < p.length; k++) p[k] = base[k]!;
    idx.fill(0);
    for (let c = 0, e = 0; c < calls; c++, e += step) {
      const j = e % n;
      const o = runOutput(layout, Math.floor(e / n));
      if (fold) {
        if (j === 0) lane.fill(0);
        fold(ins, p, st, rs, rows, len, lane, j, n, acc, o, os);
      } else accumulate!(ins, p, st, rs, rows, len, acc, o + j, os);
      for (let ax = outer - 1; ax >= 0; ax--) {
        for (let k = 0; k < p.length; k++) p[k]! += full[k]![ax]!;
        if (++idx[ax]! < shape[ax]!) break;
        for (let k = 0; k < p.length; k++) p[k]! -= full[k]![ax]! * shape[ax]!;
        idx[ax] = 0;
      }
    }
  };
  return { run };
}

/**
 * Sum (or mean's sum) of the expression of `ev` into `acc` along `layout`; false when the
 * rows would be too short (the caller takes another path).
 * @example
 * if (!sumRows(ev, runLayout(ev.shape, [0, 1]), acc)) foldTiles(ev, layout, runs, fold, acc);
 */
export function sumRows(ev: TileEvaluator, layout: RunLayout, acc: TypedArray): boolean {
  const plan = sumRowsPlan(ev, layout);
  if (plan === undefined) return false;
  plan.run(
    ev.ops.map((o) => o.data),
    ev.ops.map(() => 0),
    acc,
  );
  return true;
}
