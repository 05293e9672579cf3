// The expression IR of fused elementwise kernels: a tree over input blocks and scalars.
// Chains of elementwise layers merge into one tree, compiled to one loop per block.

import type { DType } from '../../../array/dtype.ts';

/** An elementwise expression; every op node records the dtype it produces. */
export type Expr =
  | { readonly in: number }
  | { readonly const: number }
  | { readonly op: string; readonly args: readonly Expr[]; readonly dtype: DType };

/** Params of the 'ew' kernel: the expression and the dtype of the result block. */
export interface EwParams {
  readonly expr: Expr;
  readonly dtype: DType;
}

/** Replace every `{ in: k }` leaf by `sub(k)`. */
export function substituteInputs(expr: Expr, sub: (k: number) => Expr): Expr {
  if ('in' in expr) return sub(expr.in);
  if ('const' in expr) return expr;
  return { op: expr.op, args: expr.args.map((a) => substituteInputs(a, sub)), dtype: expr.dtype };
}
