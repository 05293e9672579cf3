// 'ew-reduce-views': many 'ew-reduce' partials that differ only in their views, then their
// 'reduce-combine', as one task with compact params (a coarse tree-reduction task).
//
// The expression and reduction are one shared object; the per-partial views travel as one
// Int32Array, so a batch of such tasks posts to a worker as a few kilobytes, not megabytes.

import type { DType, TypedArray } from '../../../array/dtype.ts';
import { cStrides, NDArray } from '../../../array/ndarray.ts';
import type { Chunk, KernelContext } from '../../../kernels/types.ts';
import type { MonoidParams } from '../reduce/reduce-monoid.ts';
import type { EwReduceParams, PartialPlan } from './ew-reduce.ts';
import { ewReducePartial, ewReducePlan } from './ew-reduce.ts';
import type { InputView } from './ew-view.ts';
import type { Expr } from './expr.ts';

/** What every partial shares, and the combine step's params. */
export interface ReduceViewsShared {
  readonly expr: Expr;
  readonly dtype?: DType;
  readonly reduce: MonoidParams;
  /** Operands of each partial. */
  readonly arity: number;
  readonly combine: unknown;
}

/**
 * Params of 'ew-reduce-views'. `packed` holds, per partial and per operand in order:
 * the task input index, then the view's rank (-1 for no view) and its start, step and count.
 */
export interface ReduceViewsParams {
  readonly shared: ReduceViewsShared;
  readonly partials: number;
  readonly packed: Int32Array;
}

/** One partial's 'ew-reduce' step, as the packer accepts it. */
export interface PartialStep {
  readonly params: EwReduceParams;
  /** Task input index of each operand. */
  readonly inputs: readonly number[];
}

/**
 * Pack `steps` for 'ew-reduce-views' sharing `shared`, or undefined when they do not share
 * its expression, dtype and reduction, or a view permutes its axes.
 * @example
 * const params = packPartials(steps, { expr, reduce, arity: 1, combine });
 */
export function packPartials(
  steps: readonly PartialStep[],
  shared: ReduceViewsShared,
): ReduceViewsParams | undefined {
  let size = 0;
  for (const s of steps) {
    const p = s.params;
    if (p.expr !== shared.expr || p.reduce !== shared.reduce || p.dtype !== shared.dtype) {
      return undefined;
    }
    if (p.views.length !== shared.arity || s.inputs.length !== shared.arity) return undefined;
    for (const v of p.views) {
      if (v !== null && v.axes !== undefined) return undefined;
      size += 2 + (v === null ? 0 : 3 * v.start.length);
    }
  }
  const out = new Int32Array(size);
  let at = 0;
  for (const s of steps) {
    for (let k = 0; k < shared.arity; k++) {
      const v = s.params.views[k]!;
      out[at++] = s.inputs[k]!;
      if (v === null) {
        out[at++] = -1;
        continue;
      }
      const nd = v.start.length;
      out[at++] = nd;
      for (let ax = 0; ax < nd; ax++) {
        out[at] = v.start[ax]!;
        out[at + nd] = v.step[ax]!;
        out[at + 2 * nd] = v.count[ax]!;
        at++;
      }
      at += 2 * nd;
    }
  }
  return { shared, partials: steps.length, packed: out };
}

/** A plan for the partials whose entries differ from `entry` only in their views' starts. */
interface Reuse {
  /** The packed entry (all operands of one partial) the plan was made for. */
  readonly entry: Int32Array;
  /** Per operand, the task input it reads, and that block's dtype and shape. */
  readonly inputs: readonly number[];
  readonly blocks: readonly { readonly dtype: DType; readonly shape: readonly number[] }[];
  /** Per operand, its block's element strides (empty: no view). */
  readonly strides: readonly (readonly number[])[];
  /** Undefined when such partials take ewReducePartial's general path. */
  readonly plan: PartialPlan | undefined;
}

/** End of the entry at `at` when it matches `r.entry` but for view starts, else -1. */
function reuseEnd(packed: Int32Array, at: number, r: Reuse): number {
  const e = r.entry;
  if (at + e.length > packed.length) return -1;
  for (let i = 0; i < e.length; ) {
    if (packed[at + i] !== e[i] || packed[at + i + 1] !== e[i + 1]) return -1;
    const nd = e[i + 1]!;
    i += 2;
    if (nd < 0) continue;
    for (let q = i + nd; q < i + 3 * nd; q++) if (packed[at + q] !== e[q]) return -1;
    i += 3 * nd;
  }
  return at + e.length;
}

/** Where each operand's view of the entry at `at` starts in its block's data. */
function viewBases(packed: Int32Array, at: number, r: Reuse, base: number[]): void {
  for (let k = 0; k < r.strides.length; k++) {
    const st = r.strides[k]!;
    const nd = packed[at + 1]!;
    let off = 0;
    for (let ax = 0; ax < st.length; ax++) off += packed[at + 2 + ax]! * st[ax]!;
    base[k] = off;
    at += 2 + (nd < 0 ? 0 : 3 * nd);
  }
}

/** The plan for partial `ops` through `views` moved to start 0 (see ewReducePlan). */
function planFor(
  packed: Int32Array,
  from: number,
  to: number,
  ops: readonly Chunk[],
  views: readonly (InputView | null)[],
  params: EwReduceParams,
): Reuse {
  const entry = packed.slice(from, to);
  const inputs: number[] = [];
  const blocks: Reuse['blocks'][number][] = [];
  const strides: number[][] = [];
  const zeroed: (InputView | null)[] = [];
  for (let k = 0, at = from; k < views.length; k++) {
    const v = views[k]!;
    const op = ops[k];
    inputs.push(packed[at]!);
    at += 2 + (v === null ? 0 : 3 * v.start.length);
    if (!(op instanceof NDArray) || v?.step.some((s) => s <= 0)) {
      return { entry, inputs, blocks, strides, plan: undefined };
    }
    blocks.push({ dtype: op.dtype, shape: op.shape });
    strides.push(v === null ? [] : cStrides(op.shape));
    zeroed.push(v === null ? null : { ...v, start: v.start.map(() => 0) });
  }
  const plan = ewReducePlan(ops, { ...params, views: zeroed });
  return { entry, inputs, blocks, strides, plan };
}

/** The data of the blocks `r` reads in `inputs`, or undefined when one differs from its plan's. */
function planData(r: Reuse, inputs: readonly Chunk[]): TypedArray[] | undefined {
  if (r.plan === undefined || r.blocks.length !== r.inputs.length) return undefined;
  const out = new Array<TypedArray>(r.inputs.length);
  for (let k = 0; k < out.length; k++) {
    const c = inputs[r.inputs[k]!];
    const b = r.blocks[k]!;
    if (!(c instanceof NDArray) || c.dtype !== b.dtype || c.shape.length !== b.shape.length) {
      return undefined;
    }
    for (let ax = 0; ax < b.shape.length; ax++) if (c.shape[ax] !== b.shape[ax]) return undefined;
    out[k] = c.data;
  }
  return out;
}

/**
 * The last plan of each shared params object: the tasks of one batch (and the steps of one
 * fused task) share that object, so their partials share one plan. Plans hold no block data.
 */
const lastPlans = new WeakMap<ReduceViewsShared, Reuse>();

/**
 * Run each packed partial with 'ew-reduce' and combine them in order with 'reduce-combine':
 * exactly the values of the unpacked steps. Partials that differ only in where their views
 * start (the blocks of one source) share one prepared plan.
 * @example
 * ewReduceViews([x], packPartials(steps, shared)!, ctx);
 */
export function ewReduceViews(inputs: Chunk[], p: ReduceViewsParams, ctx: KernelContext): Chunk {
  const { shared, packed } = p;
  const parts = new Array<Chunk>(p.partials);
  const ops = new Array<Chunk>(shared.arity);
  const views = new Array<InputView | null>(shared.arity);
  const base = new Array<number>(shared.arity).fill(0);
  const params: EwReduceParams = {
    expr: shared.expr,
    ...(shared.dtype === undefined ? {} : { dtype: shared.dtype }),
    views,
    reduce: shared.reduce,
  };
  let reuse = lastPlans.get(shared);
  let ins = reuse === undefined ? undefined : planData(reuse, inputs);
  if (ins === undefined) reuse = undefined;
  let at = 0;
  for (let j = 0; j < p.partials; j++) {
    const end = reuse === undefined ? -1 : reuseEnd(packed, at, reuse);
    if (end >= 0 && ins !== undefined) {
      viewBases(packed, at, reuse!, base);
      parts[j] = reuse!.plan!.run(ins, base);
      at = end;
      continue;
    }
    const from = at;
    for (let k = 0; k < shared.arity; k++) {
      ops[k] = inputs[packed[at++]!]!;
      const nd = packed[at++]!;
      if (nd < 0) {
        views[k] = null;
        continue;
      }
      const start = new Array<number>(nd);
      const step = new Array<number>(nd);
      const count = new Array<number>(nd);
      for (let ax = 0; ax < nd; ax++, at++) {
        start[ax] = packed[at]!;
        step[ax] = packed[at + nd]!;
        count[ax] = packed[at + 2 * nd]!;
      }
      views[k] = { start, step, count };
      at += 2 * nd;
    }
    // a partial like the last one that could not be planned is not planned again
    if (end < 0) {
      reuse = planFor(packed, from, at, ops, views, params);
      ins = planData(reuse, inputs);
      if (ins !== undefined) lastPlans.set(shared, reuse);
    }
    if (ins === undefined) parts[j] = ewReducePartial(ops, params);
    else {
      viewBases(packed, from, reuse!, base);
      parts[j] = reuse!.plan!.run(ins, base);
    }
  }
  return ctx.run('reduce-combine', parts, shared.combine);
}
