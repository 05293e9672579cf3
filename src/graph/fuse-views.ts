// Fused-task rewrites around views: a 'slice' or 'view' step of a task input that feeds one
// elementwise step is read in place ('ew-view'), and a monoid 'reduce-partial' of such a
// step becomes one 'ew-reduce' that never writes the elementwise block out.
//
// The rewrite depends only on the steps' wiring, which repeats from block to block: it is
// planned once per wiring and replayed per block with that block's params.

import type { EwViewParams, InputView } from '../backends/cpu-js/elementwise/ew-view.ts';
import type { EwParams, Expr } from '../backends/cpu-js/elementwise/expr.ts';
import type { ReduceParams } from '../backends/cpu-js/reduce/reduce.ts';

/** A step of a fused task (see FusedParams): input i >= 0 is task input i, i < 0 step -i - 1. */
export interface FusedStep {
  kernel: string;
  params: unknown;
  inputs: number[];
  mainThread?: boolean | undefined;
}

/** How one output step is made from the block's steps (indices into them). */
interface PlannedStep {
  readonly kind: 'keep' | 'ew-view' | 'ew-reduce';
  /** The step kept, the 'ew' step viewed, or the 'reduce-partial' step. */
  readonly from: number;
  /** For 'ew-reduce': the elementwise step reduced, or -1 for a view reduced as is. */
  readonly ew: number;
  /** Per input, the 'slice'/'view' step whose params are its view, or -1. */
  readonly views: readonly number[];
  readonly inputs: readonly number[];
}

const FUSED_OPS = new Set(['sum', 'mean', 'prod', 'min', 'max', 'any', 'all']);
const IDENTITY: Expr = { in: 0 };

function fusableReduce(s: FusedStep): boolean {
  const p = s.params as ReduceParams;
  return (
    s.kernel === 'reduce-partial' &&
    FUSED_OPS.has(p.op) &&
    (!('castTo' in p) || p.castTo === undefined)
  );
}

function plan(steps: readonly FusedStep[]): PlannedStep[] {
  const uses = new Int32Array(steps.length);
  for (const s of steps) for (const i of s.inputs) if (i < 0) uses[-i - 1]!++;
  const dead = new Uint8Array(steps.length);
  const planned: PlannedStep[] = steps.map((s, k) => ({
    kind: 'keep',
    from: k,
    ew: -1,
    views: [],
    inputs: s.inputs,
  }));
  // a 'slice'/'view' step of one task input, read only by the step at hand
  const viewStep = (ref: number): number => {
    const k = -ref - 1;
    const s = steps[k];
    if (ref >= 0 || uses[k] !== 1 || s === undefined || s.inputs.length !== 1) return -1;
    return (s.kernel === 'slice' || s.kernel === 'view') && s.inputs[0]! >= 0 ? k : -1;
  };
  const viaViews = (inputs: readonly number[], views: readonly number[]): number[] =>
    inputs.map((ref, i) => (views[i]! >= 0 ? steps[views[i]!]!.inputs[0]! : ref));
  for (let j = 0; j < steps.length; j++) {
    const s = steps[j]!;
    if (s.kernel === 'ew') {
      const views = s.inputs.map(viewStep);
      if (views.every((v) => v < 0)) continue;
      for (const v of views) if (v >= 0) dead[v] = 1;
      planned[j] = { kind: 'ew-view', from: j, ew: j, views, inputs: viaViews(s.inputs, views) };
    } else if (fusableReduce(s)) {
      const ref = s.inputs[0]!;
      const k = -ref - 1;
      const src = ref < 0 && uses[k] === 1 ? planned[k]! : undefined;
      if (src !== undefined && steps[k]!.kernel === 'ew') {
        dead[k] = 1;
        const views = src.kind === 'ew-view' ? src.views : src.inputs.map(() => -1);
        planned[j] = { kind: 'ew-reduce', from: j, ew: k, views, inputs: src.inputs };
      } else if (viewStep(ref) >= 0) {
        const v = viewStep(ref);
        dead[v] = 1;
        planned[j] = { kind: 'ew-reduce', from: j, ew: -1, views: [v], inputs: steps[v]!.inputs };
      }
    }
  }
  const index = new Int32Array(steps.length).fill(-1);
  const kept: PlannedStep[] = [];
  planned.forEach((p, k) => {
    if (!dead[k]) index[k] = kept.push(p) - 1;
  });
  return kept.map((p) => ({
    ...p,
    inputs: p.inputs.map((i) => (i < 0 ? -index[-i - 1]! - 1 : i)),
  }));
}

function replay(p: PlannedStep, steps: readonly FusedStep[]): FusedStep {
  const s = steps[p.from]!;
  const inputs = p.inputs as number[];
  if (p.kind === 'keep') {
    return s.mainThread
      ? { kernel: s.kernel, params: s.params, inputs, mainThread: true }
      : { kernel: s.kernel, params: s.params, inputs };
  }
  const views = new Array<InputView | null>(p.views.length);
  for (let i = 0; i < views.length; i++) {
    const v = p.views[i]!;
    views[i] = v < 0 ? null : (steps[v]!.params as InputView);
  }
  if (p.kind === 'ew-view') {
    const e = s.params as EwParams;
    const params: EwViewParams = { expr: e.expr, dtype: e.dtype, views };
    return { kernel: 'ew-view', params, inputs };
  }
  const e = p.ew < 0 ? undefined : (steps[p.ew]!.params as EwParams);
  const params = e
    ? { expr: e.expr, dtype: e.dtype, views, reduce: s.params }
    : { expr: IDENTITY, views, reduce: s.params };
  return { kernel: 'ew-reduce', params, inputs };
}

function sameWiring(a: readonly FusedStep[], b: readonly FusedStep[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) {
    const x = a[k]!;
    const y = b[k]!;
    if (x.kernel !== y.kernel || x.inputs.length !== y.inputs.length) return false;
    for (let i = 0; i < x.inputs.length; i++) if (x.inputs[i] !== y.inputs[i]) return false;
    if (
      x.kernel === 'reduce-partial' &&
      x.params !== y.params &&
      fusableReduce(x) !== fusableReduce(y)
    ) {
      return false;
    }
  }
  return true;
}

/**
 * Folds the steps of one fused layer's tasks (see the file comment); one per layer, since
 * it remembers the plan of the last wiring it saw.
 * @example
 * const folder = new ViewFolder();
 * folder.fold([slice(in 0), ew(step 0), reduce-partial(step 1)]); // [ew-reduce(in 0)]
 */
export class ViewFolder {
  private wiring: readonly FusedStep[] | undefined;
  private planned: PlannedStep[] = [];

  fold(steps: readonly FusedStep[]): FusedStep[] {
    if (this.wiring === undefined || !sameWiring(this.wiring, steps)) {
      this.wiring = steps;
      this.planned = plan(steps);
    }
    const out = new Array<FusedStep>(this.planned.length);
    for (let k = 0; k < out.length; k++) out[k] = replay(this.planned[k]!, steps);
    return out;
  }
}

/**
 * Fold the steps of one fused task (see the file comment).
 * @example
 * foldViews([slice(in 0), ew(step 0), reduce-partial(step 1)]); // [ew-reduce(in 0)]
 */
export function foldViews(steps: readonly FusedStep[]): FusedStep[] {
  return new ViewFolder().fold(steps);
}
