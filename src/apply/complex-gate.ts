// Which kernels take complex64 and complex128 blocks: every other kernel, and every
// elementwise op without a complex form, is refused such data when the expression is built.

import { type DType, isComplex } from '../array/dtype.ts';
import { COMPLEX_OPS } from '../backends/cpu-js/elementwise/ew-complex.ts';
import type { EwParams, Expr } from '../backends/cpu-js/elementwise/expr.ts';
import { DTypeError } from '../errors.ts';
import type { LayerSpec } from '../graph/define-layer.ts';

/** Kernels that move, read, write or compute complex blocks (each tested on complex data). */
const COMPLEX_KERNELS: ReadonlySet<string> = new Set([
  // elementwise (complex loops, ops checked below) and the kernels fusion builds from them
  'ew',
  'ew-view',
  'view',
  'fused',
  'ew-reduce',
  'ew-reduce-views',
  // data movement: copies of (re, im) pairs
  'slice',
  'to-device',
  'pick',
  'passthrough',
  'getitem',
  'rechunk-merge',
  'take',
  'take-indexed',
  'transpose',
  'reshape',
  'expand-dims',
  'squeeze',
  'flip',
  'broadcast',
  'convert',
  'view-as-real',
  'view-as-complex',
  // setitem (real or complex values into complex blocks) and boolean selection
  'set-region',
  'where-set',
  'compress',
  'compress-band',
  // halos (complex constants c + 0i) and gathers along an axis
  'overlap-block',
  'take-along-axis',
  // products through real GEMMs of the parts (matmul-complex.ts) and sums of their partials
  'matmul',
  'einsum',
  'contract-sum',
  // user kernels: complex NDArrays in (interleaved data), complex results out
  'blockwise-fn',
  'lazy-apply',
  // creation (real fill values) and I/O
  'full',
  'npy-read',
  'npy-write',
  'npy-file-write',
]);

/** Reductions whose complex forms exist (reduce-complex.ts). */
const COMPLEX_REDUCTIONS: ReadonlySet<string> = new Set(['sum', 'prod', 'mean']);

const REDUCE_KERNELS = new Set(['reduce-partial', 'reduce-combine', 'reduce-aggregate']);

/** The first op of `expr` that meets a complex value and has no complex form, if any. */
function unsupportedOp(expr: Expr, inputs: readonly DType[]): string | undefined {
  let bad: string | undefined;
  const typeOf = (e: Expr): DType | undefined => {
    if ('in' in e) return inputs[e.in];
    if ('const' in e) return undefined;
    const args = e.args.map(typeOf);
    const complex = isComplex(e.dtype) || args.some((d) => d !== undefined && isComplex(d));
    if (complex && !COMPLEX_OPS.has(e.op)) bad ??= e.op;
    return e.dtype;
  };
  typeOf(expr);
  return bad;
}

/** Layers of `x.set` (the value is cast to x's dtype). */
const SET_OPS: ReadonlySet<string> = new Set(['setitem', 'setitem-mask']);

/** Why a layer's kernel cannot take its complex blocks (undefined: it can). */
function refusal(kernel: string, params: unknown, deps: readonly DType[]): string | undefined {
  if (REDUCE_KERNELS.has(kernel)) {
    const op = (params as { op?: string } | undefined)?.op ?? '';
    return COMPLEX_REDUCTIONS.has(op) ? undefined : op;
  }
  if (!COMPLEX_KERNELS.has(kernel)) return kernel;
  if (kernel === 'ew') return unsupportedOp((params as EwParams).expr, deps);
  return undefined;
}

/** The function a layer belongs to: its op without the step suffix ('max-partial' → 'max'). */
const functionOf = (op: string): string =>
  op.replace(/-(partial|combine|aggregate|block|blocks|merge|carry|total|add|count)$/, '');

/**
 * Refuse a complex layer whose kernel (or elementwise op) does not take complex data.
 * @example
 * checkComplexDTypes(spec); // DTypeError: floor: dtype 'complex64' is not supported by floor; …
 */
export function checkComplexDTypes(spec: LayerSpec): void {
  let complex = isComplex(spec.dtype) ? spec.dtype : undefined;
  for (let i = 0; i < spec.deps.length && complex === undefined; i++) {
    const d = spec.deps[i]!.dtype;
    if (isComplex(d)) complex = d;
  }
  if (complex === undefined || spec.constant) return;
  if (SET_OPS.has(spec.op) && !isComplex(spec.dtype)) {
    // NumPy drops the imaginary parts (with a ComplexWarning); astype refuses it here too
    throw new DTypeError(
      `set: '${complex}' values cannot be set into a '${spec.dtype}' array without losing their imaginary parts; set real(value), or cast the array to complex first`,
    );
  }
  if (spec.chunks.some((c) => c.length === 0)) return;
  const probe = spec.task(spec.chunks.map(() => 0));
  const deps = spec.deps.map((d) => d.dtype);
  if (refusal(probe.kernel, probe.params, deps) === undefined) return;
  const fn = functionOf(spec.op);
  throw new DTypeError(
    `${fn}: dtype '${complex}' is not supported by ${fn}; complex arrays take elementwise arithmetic, exp/log/sqrt/sin/cos/tanh, abs/real/imag/conj, comparisons for equality, sum/prod/mean, matmul/tensordot/einsum, user kernels and data movement`,
  );
}
