// 'ew-reduce': an elementwise expression reduced as it is produced (the partial step of a
// monoid reduction fused with its input), so `(x * 2 + 1).sum()` never writes x * 2 + 1 out.
//
// Sums go row by row through compiled loops (ew-sum-rows.ts). Other reductions evaluate the
// expression tile by tile (sub-blocks of at most TILE elements) into a per-thread scratch
// buffer that stays in cache and fold each tile at once, in the exact order of
// 'reduce-partial' over the whole block. The order never depends on the scheduler, so
// 'threads' and 'sync' agree bit for bit.

import {
  allocate,
  type DType,
  isBigDType,
  isComplex,
  isFloat,
  type NumberArray,
  numberData,
  type TypedArray,
  typedArrayCtor,
} from '../../../array/dtype.ts';
import { NDArray, shapeSize } from '../../../array/ndarray.ts';
import type { Chunk, Kernel, KernelContext } from '../../../kernels/types.ts';
import {
  type MonoidParams,
  monoidPartial,
  monoidSetup,
  reducedShape,
  scalarBlock,
} from '../reduce/reduce-monoid.ts';
import { type RunLayout, type RunOp, reduceRuns, runLayout } from '../reduce/reduce-runs.ts';
import { ewReduceViews, type ReduceViewsParams } from './ew-reduce-views.ts';
import { runOutput, sumRows, sumRowsPlan } from './ew-sum-rows.ts';
import { type EwViewParams, evaluateViews, TileEvaluator, viewEvaluator } from './ew-view.ts';

/** Params of 'ew-reduce': the expression over views of the inputs, and the reduction. */
export interface EwReduceParams extends EwViewParams {
  readonly reduce: MonoidParams;
}

/** Elements per tile: 128 KiB of float64, evaluated then folded while still in L2. */
const TILE = 16384;
/** Blocks up to this many elements may be evaluated whole into scratch (short runs). */
const WHOLE_LIMIT = 2 ** 20;

const scratch = new Map<DType, TypedArray>();

/** This thread's reusable buffer of `dtype` with room for `n` elements (never shared). */
function scratchFor(dtype: DType, n: number): TypedArray {
  let s = scratch.get(dtype);
  if (s === undefined || s.length < n) {
    s = new (typedArrayCtor(dtype))(Math.max(n, TILE));
    scratch.set(dtype, s);
  }
  return s;
}

/**
 * Visit `shape` in C order as sub-blocks of at most `limit` elements: each is a range of
 * one axis with every later axis whole, so its elements are one contiguous flat range.
 */
export function forEachTile(
  shape: readonly number[],
  limit: number,
  visit: (start: readonly number[], tile: readonly number[], flat: number, size: number) => void,
): void {
  const nd = shape.length;
  const suffix = new Array<number>(nd + 1);
  suffix[nd] = 1;
  for (let ax = nd - 1; ax >= 0; ax--) suffix[ax] = suffix[ax + 1]! * shape[ax]!;
  const start = new Array<number>(nd).fill(0);
  const tile = new Array<number>(nd).fill(1);
  const walk = (ax: number, flat: number): void => {
    if (suffix[ax]! <= limit) {
      for (let k = ax; k < nd; k++) tile[k] = shape[k]!;
      visit(start, tile, flat, suffix[ax]!);
      for (let k = ax; k < nd; k++) tile[k] = 1;
      return;
    }
    const inner = suffix[ax + 1]!;
    if (inner <= limit) {
      const rows = Math.floor(limit / inner);
      for (let k = ax + 1; k < nd; k++) tile[k] = shape[k]!;
      for (let r = 0; r < shape[ax]!; r += rows) {
        start[ax] = r;
        tile[ax] = Math.min(rows, shape[ax]! - r);
        visit(start, tile, flat + r * inner, tile[ax]! * inner);
      }
    } else {
      for (let i = 0; i < shape[ax]!; i++) {
        start[ax] = i;
        walk(ax + 1, flat + i * inner);
      }
    }
    start[ax] = 0;
    for (let k = ax; k < nd; k++) tile[k] = 1;
  };
  walk(0, 0);
}

/** Folds run segments into their output element, keeping one run's lanes across tiles. */
interface SegmentFold {
  /** Fold src[s, s + len) = elements [j, j + len) of a run of `n` into acc[o]. */
  fold(
    src: NumberArray,
    s: number,
    len: number,
    j: number,
    n: number,
    acc: NumberArray,
    o: number,
  ): void;
}

/** Sum with sumRuns' four lanes (element j of a run in lane j % 4, the n % 4 tail in lane 0). */
function sumFold(): SegmentFold {
  const lane = new Float64Array(4);
  return {
    fold(src, s, len, j, n, acc, o) {
      if (j === 0) lane.fill(0);
      const end = j + len;
      const main = Math.min(end, n - (n % 4));
      let i = s;
      for (; j < main && (j & 3) !== 0; j++, i++) lane[j & 3]! += src[i]!;
      let a0 = lane[0]!;
      let a1 = lane[1]!;
      let a2 = lane[2]!;
      let a3 = lane[3]!;
      for (; j + 3 < main; j += 4, i += 4) {
        a0 += src[i]!;
        a1 += src[i + 1]!;
        a2 += src[i + 2]!;
        a3 += src[i + 3]!;
      }
      lane[0] = a0;
      lane[1] = a1;
      lane[2] = a2;
      lane[3] = a3;
      for (; j < main; j++, i++) lane[j & 3]! += src[i]!;
      for (; j < end; j++, i++) lane[0]! += src[i]!;
      if (end === n) acc[o] = acc[o]! + (lane[0]! + lane[1]! + (lane[2]! + lane[3]!));
    },
  };
}

/** Float product with prodRuns' two lanes (the odd tail in lane 0). */
function prodFold(): SegmentFold {
  const lane = new Float64Array(2);
  return {
    fold(src, s, len, j, n, acc, o) {
      if (j === 0) lane.fill(1);
      const end = j + len;
      const main = Math.min(end, n - (n % 2));
      for (let i = s; j < end; j++, i++) lane[j < main ? j & 1 : 0]! *= src[i]!;
      if (end === n) acc[o] = acc[o]! * (lane[0]! * lane[1]!);
    },
  };
}

/** Folds that run element by element from acc[o] (min, max, any, all, integer product). */
function sequentialFold(runs: RunOp): SegmentFold {
  return {
    fold(src, s, len, _j, _n, acc, o) {
      runs.foldRows(src, s, 0, 1, len, acc, o, 0);
    },
  };
}

function segmentFold(p: MonoidParams, runs: RunOp, floatProd: boolean): SegmentFold {
  if (p.op === 'sum' || p.op === 'mean') return sumFold();
  if (p.op === 'prod' && floatProd) return prodFold();
  return sequentialFold(runs);
}

function foldTiles(
  ev: TileSource,
  layout: RunLayout,
  runs: RunOp,
  fold: SegmentFold,
  acc: NumberArray,
): void {
  const buf = numberData(scratchFor(ev.dtype, TILE));
  const { n, reduced } = layout;
  forEachTile(ev.shape, TILE, (start, tile, a, size) => {
    const out = buf.subarray(0, size);
    ev.evaluate(out, start, tile);
    for (let e = a; e < a + size; ) {
      const r = Math.floor(e / n);
      const rs = r * n;
      const end = Math.min(a + size, rs + n);
      const o = runOutput(layout, r);
      if (reduced) fold.fold(out, e - a, end - e, e - rs, n, acc, o);
      else runs.accumulateRows(out, e - a, 0, 1, end - e, acc, o + (e - rs), 0);
      e = end;
    }
  });
}

/**
 * The partial of `p.reduce` over the expression `p` of `inputs`: [values, count] exactly
 * as 'reduce-partial' gives for the evaluated block.
 * @example
 * // sum(x * 2 + 1) over a whole block, without materializing x * 2 + 1
 * ewReducePartial([x], { expr, dtype: 'float64', views: [null],
 *   reduce: { op: 'sum', axes: [0, 1], dtype: 'float64' } });
 */
export function ewReducePartial(inputs: readonly Chunk[], p: EwReduceParams): Chunk {
  return (
    tiledPartial(viewEvaluator(inputs, p), p.reduce) ??
    monoidPartial(evaluateViews(inputs, p), p.reduce)
  );
}

/** A block's values produced tile by tile (a TileEvaluator, or generated sources). */
export interface TileSource {
  readonly shape: readonly number[];
  readonly dtype: DType;
  /** Fill `out` (exactly the tile's size) with the tile at `start` of shape `tile`. */
  evaluate(out: TypedArray, start: readonly number[], tile: readonly number[]): void;
}

/**
 * The partial of `reduce` over the block `ev` evaluated tile by tile into scratch: exactly
 * 'reduce-partial' of the whole block, or undefined when the block must be materialized
 * first (a cast, or short runs over a large block).
 * @example
 * tiledPartial(ev, { op: 'max', axes: [0], dtype: 'float64' }) ?? monoidPartial(block, p);
 */
export function tiledPartial(ev: TileSource, reduce: MonoidParams): Chunk | undefined {
  const size = shapeSize(ev.shape);
  const layout = runLayout(ev.shape, reduce.axes);
  const short = layout.n < 64 || size <= TILE;
  // int64, uint64 and complex values reduce on the materialized block (reduce-big.ts, …)
  if (
    reduce.castTo !== undefined ||
    isBigDType(ev.dtype) ||
    isComplex(ev.dtype) ||
    (short && size > WHOLE_LIMIT)
  ) {
    return undefined;
  }
  const setup = monoidSetup(reduce.op, ev.dtype, reduce.dtype);
  const acc = numberData(allocate(setup.accDtype, layout.outSize));
  if (setup.identity !== 0) acc.fill(setup.identity);
  const summed = (reduce.op === 'sum' || reduce.op === 'mean') && size > 0;
  if (summed && ev instanceof TileEvaluator && sumRows(ev, layout, acc)) {
    // done: summed row by row straight from the inputs
  } else if (size > 0) {
    if (short) {
      const buf = numberData(scratchFor(ev.dtype, size)).subarray(0, size);
      ev.evaluate(
        buf,
        ev.shape.map(() => 0),
        ev.shape,
      );
      reduceRuns(setup.runs, layout, buf, acc);
    } else {
      const fold = segmentFold(reduce, setup.runs, isFloat(reduce.dtype));
      foldTiles(ev, layout, setup.runs, fold, acc);
    }
  }
  const { shape, count } = reducedShape(ev.shape, reduce.axes);
  return [new NDArray(acc, shape, setup.accDtype), scalarBlock(count)];
}

/** A fused sum partial prepared once, run for any placement of its views (see ewReducePlan). */
export interface PartialPlan {
  /**
   * The partial over `ins` (the data of input blocks of the planned dtypes and shapes) with
   * input k's view starting `base[k]` elements into `ins[k]`.
   */
  run(ins: readonly TypedArray[], base: readonly number[]): Chunk;
}

/**
 * `p` over `inputs` prepared for reuse, when it takes the row-by-row sum path of
 * ewReducePartial (else undefined): its views must start at element 0 of their blocks, and
 * `run(ins, base)` gives exactly ewReducePartial's value for the same views shifted by
 * `base`, over any blocks of the same dtypes and shapes.
 * @example
 * const plan = ewReducePlan([x], { expr: { in: 0 }, views: [{ start: [0, 0], step: [1, 1],
 *   count: [100, 100] }], reduce: { op: 'sum', axes: [0, 1], dtype: 'float64' } });
 * plan?.run([x.data], [100]); // the sum of x[0:100, 100:200] when x has 10,000 columns
 */
export function ewReducePlan(inputs: readonly Chunk[], p: EwReduceParams): PartialPlan | undefined {
  const { reduce } = p;
  if (reduce.castTo !== undefined || (reduce.op !== 'sum' && reduce.op !== 'mean')) {
    return undefined;
  }
  const ev = viewEvaluator(inputs, p);
  if (isBigDType(ev.dtype) || isComplex(ev.dtype)) return undefined;
  const size = shapeSize(ev.shape);
  const layout = runLayout(ev.shape, reduce.axes);
  if (size === 0 || ((layout.n < 64 || size <= TILE) && size > WHOLE_LIMIT)) return undefined;
  const rows = sumRowsPlan(ev, layout);
  if (rows === undefined) return undefined;
  const { accDtype } = monoidSetup(reduce.op, ev.dtype, reduce.dtype);
  const { shape, count } = reducedShape(ev.shape, reduce.axes);
  return {
    run(ins, base) {
      const acc = allocate(accDtype, layout.outSize);
      rows.run(ins, base, acc);
      return [new NDArray(acc, shape, accDtype), scalarBlock(count)];
    },
  };
}

/** The fused reduction kernel, registered in backends/cpu-js/registry. */
export const ewReduceKernels: Record<string, Kernel<never>> = {
  'ew-reduce': ((inputs: Chunk[], p: EwReduceParams) =>
    ewReducePartial(inputs, p)) as Kernel<never>,
  'ew-reduce-views': ((inputs: Chunk[], p: ReduceViewsParams, ctx: KernelContext) =>
    ewReduceViews(inputs, p, ctx)) as Kernel<never>,
};
