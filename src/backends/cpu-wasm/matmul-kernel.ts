// The cpu-wasm 'matmul' kernel: cpu-js's params and semantics (float64 accumulation, sums
// over pairs), 2-d and vector operands through the WASM GEMM; batched blocks run on cpu-js.

import { allocate, numberData } from '../../array/dtype.ts';
import { NDArray } from '../../array/ndarray.ts';
import type { Chunk, Kernel } from '../../kernels/types.ts';
import { type MatmulParams, matmulBlocks, storeAs } from '../cpu-js/linalg/matmul.ts';
import { gemmWasm } from './gemm.ts';

interface Pair {
  readonly a: NDArray;
  readonly b: NDArray;
  readonly m: number;
  readonly k: number;
  readonly n: number;
}

const isFloat = (x: NDArray): boolean => x.dtype === 'float32' || x.dtype === 'float64';

/** The pairs as plain matrices, or null where one is batched, mismatched or not float. */
function plainPairs(inputs: readonly Chunk[], p: MatmulParams): Pair[] | null {
  if (inputs.length < 2 || inputs.length % 2 !== 0) return null;
  const pairs: Pair[] = [];
  for (let g = 0; g < inputs.length; g += 2) {
    const a = inputs[g];
    const b = inputs[g + 1];
    if (!(a instanceof NDArray && b instanceof NDArray) || !isFloat(a) || !isFloat(b)) return null;
    if (a.ndim !== (p.aVec ? 1 : 2) || b.ndim !== (p.bVec ? 1 : 2)) return null;
    const [m, k] = p.aVec ? [1, a.shape[0]!] : [a.shape[0]!, a.shape[1]!];
    const [kb, n] = p.bVec ? [b.shape[0]!, 1] : [b.shape[0]!, b.shape[1]!];
    if (k !== kb) return null;
    const first = pairs[0];
    if (first && (first.m !== m || first.n !== n)) return null;
    pairs.push({ a, b, m, k, n });
  }
  return pairs;
}

/**
 * Sum over pairs of `a_g @ b_g`, as cpu-js `matmulBlocks` (same shape, dtype, float64
 * accumulation; rounding may differ in the last bits as the summation order differs).
 * @example
 * matmulWasm([a, b], { dtype: 'float64', aVec: false, bVec: false }); // a @ b
 */
export function matmulWasm(inputs: readonly Chunk[], p: MatmulParams): NDArray {
  if (p.aT || p.bT) return matmulBlocks(inputs, p, gemmWasm);
  const pairs = plainPairs(inputs, p);
  if (pairs === null || (p.dtype !== 'float32' && p.dtype !== 'float64')) {
    return matmulBlocks(inputs, p);
  }
  const { m, n } = pairs[0]!;
  const acc =
    p.dtype === 'float64' ? (allocate('float64', m * n) as Float64Array) : new Float64Array(m * n);
  for (const { a, b, k } of pairs) {
    gemmWasm(numberData(a.data, 'matmul'), 0, numberData(b.data, 'matmul'), 0, acc, 0, m, k, n);
  }
  const shape = [...(p.aVec ? [] : [m]), ...(p.bVec ? [] : [n]), ...(p.unitAxis ? [1] : [])];
  return new NDArray(storeAs(acc, p.dtype), shape, p.dtype);
}

/** The matrix-product kernels of cpu-wasm. */
export const matmulKernels: Record<string, Kernel<never>> = {
  matmul: ((inputs: Chunk[], p: MatmulParams) => matmulWasm(inputs, p)) as Kernel<never>,
};
