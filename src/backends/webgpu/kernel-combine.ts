// The upper levels of a reduction tree on the GPU: partial blocks (size 1 along the reduced
// axes, all the same shape) merge elementwise — one shader adding (or min/max-ing) them all —
// and the aggregate divides a mean by its count and drops the reduced axes.

import type { DType } from '../../array/dtype.ts';
import { ValueError } from '../../errors.ts';
import type { Expr } from '../cpu-js/elementwise/expr.ts';
import { runEw } from './kernel-ew.ts';
import { accDtype, type GpuReduceOp } from './kernel-reduce.ts';
import type { GpuRuntime, GpuTensor } from './runtime.ts';

/** Params of the tree's GPU steps: the CPU's (op, axes, dtype, keepdims) plus the count. */
export interface GpuTreeParams {
  readonly op: GpuReduceOp;
  readonly axes: readonly number[];
  readonly dtype: DType;
  readonly keepdims?: boolean;
  /** Elements reduced into each output element (a mean divides by it). */
  readonly count?: number;
}

const MERGE: Record<GpuReduceOp, string> = {
  sum: 'add',
  mean: 'add',
  prod: 'multiply',
  min: 'minimum',
  max: 'maximum',
};

/** Inputs one merge shader binds at most (devices allow 8+ storage buffers per stage). */
const FAN_IN = 6;

/** The expression merging `n` inputs with `op`, in `dtype`. */
function mergeExpr(op: GpuReduceOp, n: number, dtype: DType): Expr {
  let e: Expr = { in: 0 };
  for (let k = 1; k < n; k++) e = { op: MERGE[op], args: [e, { in: k }], dtype };
  return n === 1 ? { op: 'astype', args: [e], dtype } : e;
}

function check(kernel: string, inputs: readonly GpuTensor[]): void {
  if (inputs.length === 0) throw new ValueError(`${kernel}: no partial blocks to merge`);
  const shape = inputs[0]!.shape.join();
  if (inputs.some((x) => x.shape.join() !== shape)) {
    throw new ValueError(`${kernel}: partial blocks of different shapes cannot merge`);
  }
}

/**
 * Merge partial blocks into one (a combine level of the tree).
 * @example
 * const [m] = await reduceCombine(rt, partials, { op: 'sum', axes: [0], dtype: 'float32' });
 */
export async function reduceCombine(
  rt: GpuRuntime,
  inputs: readonly GpuTensor[],
  p: GpuTreeParams,
): Promise<GpuTensor[]> {
  check('reduce-combine', inputs);
  return [await mergeAll(rt, inputs, p.op)];
}

/** Merge any number of blocks, FAN_IN at a time (intermediates freed). */
async function mergeAll(
  rt: GpuRuntime,
  inputs: readonly GpuTensor[],
  op: GpuReduceOp,
): Promise<GpuTensor> {
  const acc = accDtype(op, inputs[0]!.dtype);
  let level = [...inputs];
  let owned = false;
  if (level.length === 1) {
    const [copy] = await runEw(rt, level, { expr: mergeExpr(op, 1, acc), dtype: acc });
    return copy!;
  }
  do {
    const next: GpuTensor[] = [];
    for (let i = 0; i < level.length; i += FAN_IN) {
      const group = level.slice(i, i + FAN_IN);
      const [m] = await runEw(rt, group, { expr: mergeExpr(op, group.length, acc), dtype: acc });
      next.push(m!);
    }
    if (owned) for (const t of level) rt.free(t);
    level = next;
    owned = true;
  } while (level.length > 1);
  return level[0]!;
}

/**
 * Merge the last partial blocks into the result: a mean is divided by its count, and the
 * reduced axes are dropped unless keepdims.
 */
export async function reduceAggregateTree(
  rt: GpuRuntime,
  inputs: readonly GpuTensor[],
  p: GpuTreeParams,
): Promise<GpuTensor[]> {
  check('reduce-aggregate', inputs);
  const acc = accDtype(p.op, inputs[0]!.dtype);
  const merged = inputs.length > FAN_IN ? [await mergeAll(rt, inputs, p.op)] : inputs;
  let expr = mergeExpr(p.op, merged.length, acc);
  if (p.op === 'mean') {
    if (p.count === undefined) throw new ValueError('reduce-aggregate: a GPU mean needs its count');
    expr = { op: 'divide', args: [expr, { const: p.count }], dtype: acc };
  }
  if (acc !== p.dtype) expr = { op: 'astype', args: [expr], dtype: p.dtype };
  const [out] = await runEw(rt, merged, { expr, dtype: p.dtype });
  if (merged !== inputs) rt.free(merged[0]!);
  const shape = p.keepdims ? out!.shape : out!.shape.filter((_, ax) => !p.axes.includes(ax));
  return [{ ...out!, shape }];
}

/**
 * The sum of partial matrix products (the CPU's 'contract-sum'): one merge shader, then the
 * unit axis of the partials dropped when `squeeze`.
 */
export async function contractSum(
  rt: GpuRuntime,
  inputs: readonly GpuTensor[],
  p: { readonly dtype: DType; readonly squeeze: boolean },
): Promise<GpuTensor[]> {
  check('contract-sum', inputs);
  const out = await mergeAll(rt, inputs, 'sum');
  const cast =
    out.dtype === p.dtype
      ? out
      : (
          await runEw(rt, [out], {
            expr: { op: 'astype', args: [{ in: 0 }], dtype: p.dtype },
            dtype: p.dtype,
          })
        )[0]!;
  if (cast !== out && inputs.length > 1) rt.free(out);
  const shape = p.squeeze ? cast.shape.slice(0, -1) : cast.shape;
  return [{ ...cast, shape }];
}
