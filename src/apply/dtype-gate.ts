// Which kernels take int64 and uint64 blocks: every other kernel is refused such data when
// the expression is built (a DTypeError naming the function), never at compute time.

import { isBigDType } from '../array/dtype.ts';
import { WIDENED_KERNELS } from '../backends/cpu-js/widen.ts';
import { DTypeError } from '../errors.ts';
import { type LayerSpec, setLayerCheck } from '../graph/define-layer.ts';
import { checkComplexDTypes } from './complex-gate.ts';

/** Kernels that move, build, read, write or compute int64 and uint64 blocks exactly. */
const BIG_KERNELS: ReadonlySet<string> = new Set([
  // elementwise (BigInt loops) and the kernels fusion builds from them
  'ew',
  'ew-view',
  'view',
  'fused',
  'ew-reduce-views',
  // data movement: copies of elements, whatever they are
  'slice',
  'to-device',
  'pick',
  'passthrough',
  'getitem',
  'rechunk-merge',
  'take',
  'take-indexed',
  'set-region',
  'where-set',
  'compress',
  'compress-band',
  'transpose',
  'reshape',
  'expand-dims',
  'squeeze',
  'flip',
  'broadcast',
  'convert',
  'overlap-block',
  'take-along-axis',
  // exact products modulo 2^64 (float64 GEMMs of 16-bit limbs) and their sums
  'matmul',
  'contract-sum',
  // scans (exact, modulo 2^64)
  'cumsum-block',
  'cumsum-total',
  'cumsum-carry',
  'cumsum-add',
  // sorting (BigInt comparisons)
  'sort-block',
  'sort-merge',
  // differences (BigInt subtraction, modulo 2^64)
  'diff-axis',
  // unique values, binary searches and top-k selection (BigInt comparisons)
  'unique-block',
  'unique-merge',
  'unique-inverse',
  'searchsorted-count',
  'topk-block',
  // creation, user kernels and I/O
  'full',
  'arange',
  'linspace',
  'from-function',
  'blockwise-fn',
  'lazy-apply',
  'npy-read',
  'npy-write',
  'npy-file-write',
  'zarr-read',
  'zarr-write',
]);

/**
 * Reductions whose int64 and uint64 forms exist (reduce-partial/-combine/-aggregate); var
 * (std too) casts such blocks to float64 first, as NumPy computes them.
 */
const BIG_REDUCTIONS: ReadonlySet<string> = new Set([
  'sum',
  'prod',
  'min',
  'max',
  'any',
  'all',
  'mean',
  'var',
  'argmin',
  'argmax',
]);

const REDUCE_KERNELS = new Set(['reduce-partial', 'reduce-combine', 'reduce-aggregate']);

/** The reductions of a 'coarsen-block' task's params. */
const reduceOp = (params: unknown): string => (params as { op?: string } | undefined)?.op ?? '';

/** True when the kernel of a layer's tasks takes int64/uint64 blocks with these params. */
function takesBig(kernel: string, params: unknown): boolean {
  // einsum of two operands is bilinear: exact by limbs, as matmul (three or more are not)
  if (kernel === 'einsum')
    return (params as { terms?: unknown[] } | undefined)?.terms?.length === 2;
  if (REDUCE_KERNELS.has(kernel)) return BIG_REDUCTIONS.has(reduceOp(params));
  // coarsen reduces each window with the reduction kernels
  if (kernel === 'coarsen-block') {
    return BIG_REDUCTIONS.has(reduceOp((params as { reduce?: unknown } | undefined)?.reduce));
  }
  return BIG_KERNELS.has(kernel);
}

/**
 * Refuse an int64/uint64 layer whose kernel does not take such data.
 * @example
 * checkBigDTypes(spec); // DTypeError: fft: dtype 'int64' is not supported by fft yet; …
 */
export function checkBigDTypes(spec: LayerSpec): void {
  let big = isBigDType(spec.dtype) ? spec.dtype : undefined;
  for (let i = 0; i < spec.deps.length && big === undefined; i++) {
    const d = spec.deps[i]!.dtype;
    if (isBigDType(d)) big = d;
  }
  // constant layers (wrapped data) have no tasks: their blocks are the data itself
  if (big === undefined || spec.constant || spec.chunks.some((c) => c.length === 0)) return;
  const probe = spec.task(spec.chunks.map(() => 0));
  if (takesBig(probe.kernel, probe.params)) return;
  // kernels that compute in float64 take int64 widened, unless their output is int64 itself
  if (WIDENED_KERNELS.has(probe.kernel) && !isBigDType(spec.dtype)) return;
  // the function the user called: a layer's op is its name or `name-step` ('argmax-partial');
  // a fused layer's op joins its steps' ops with '+', the last one the user's call
  const fn = spec.op.split('+').at(-1)!.split('-')[0];
  throw new DTypeError(
    `${fn}: dtype '${big}' is not supported by ${fn} yet; convert first with astype(x, 'float64') (exact for integers up to 2^53)`,
  );
}

setLayerCheck((spec) => {
  checkBigDTypes(spec);
  checkComplexDTypes(spec);
});
