// Complex matrix products through real kernels: with each operand split into its parts, a
// product of n operands is the sum over the 2^n choices of a part per operand of the real
// product of those parts, times i^(number of imaginary parts). For two operands:
// re = ar·br − ai·bi, im = ar·bi + ai·br; real operands (no imaginary part) skip their terms.

import { allocate, type DType, isBigDType, isComplex } from '../../../array/dtype.ts';
import { NDArray } from '../../../array/ndarray.ts';
import { arrayBlock } from '../../../kernels/array-block.ts';
import type { Chunk } from '../../../kernels/types.ts';
import { convertBlock } from '../layout/layout.ts';

/** A block's real and imaginary parts as float64 blocks (no imaginary part for real blocks). */
function partsOf(x: NDArray): { re: NDArray; im?: NDArray } {
  if (!isComplex(x.dtype)) return { re: isBigDType(x.dtype) ? convertBlock(x, 'float64') : x };
  const n = x.size;
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  const d = x.data as Float32Array | Float64Array;
  for (let i = 0; i < n; i++) {
    re[i] = d[2 * i]!;
    im[i] = d[2 * i + 1]!;
  }
  return { re: new NDArray(re, x.shape, 'float64'), im: new NDArray(im, x.shape, 'float64') };
}

/**
 * A multilinear product of complex (or real) blocks, `nOps` operands per group, summed over the
 * groups of `inputs`, in complex `dtype`. `real(blocks, groups)` computes the same product of
 * float64 blocks (`groups`: for each group given, its index among the original groups, so
 * per-input params can follow); its float64 results are combined in float64.
 * @example
 * complexProduct([a, b], 2, (bs) => matmulBlocks(bs, { ...p, dtype: 'float64' }), 'complex128');
 */
export function complexProduct(
  inputs: readonly Chunk[],
  nOps: number,
  real: (blocks: Chunk[], groups: number[]) => NDArray,
  dtype: DType,
  fn: string,
): NDArray {
  const parts = inputs.map((c) => partsOf(arrayBlock(c, fn)));
  const nGroups = Math.floor(parts.length / nOps);
  let re: Float64Array | undefined;
  let im: Float64Array | undefined;
  let shape: readonly number[] = [];
  for (let mask = 0; mask < 1 << nOps; mask++) {
    const blocks: NDArray[] = [];
    const groups: number[] = [];
    for (let g = 0; g < nGroups; g++) {
      const pick = parts
        .slice(g * nOps, (g + 1) * nOps)
        .map((q, t) => ((mask >> t) & 1 ? q.im : q.re));
      if (pick.some((b) => b === undefined)) continue;
      blocks.push(...(pick as NDArray[]));
      groups.push(g);
    }
    if (groups.length === 0) continue;
    const r = real(blocks, groups);
    shape = r.shape;
    const d = r.data as Float64Array;
    // i^k: 1, i, -1, -i
    let k = 0;
    for (let t = 0; t < nOps; t++) k += (mask >> t) & 1;
    const sign = k % 4 < 2 ? 1 : -1;
    const into = k % 2 === 0 ? 're' : 'im';
    let acc = into === 're' ? re : im;
    if (acc === undefined) {
      acc = new Float64Array(d.length);
      if (into === 're') re = acc;
      else im = acc;
    }
    if (sign === 1) for (let e = 0; e < d.length; e++) acc[e]! += d[e]!;
    else for (let e = 0; e < d.length; e++) acc[e]! -= d[e]!;
  }
  if (re === undefined) throw new RangeError(`${fn}: no input blocks`);
  const out = allocate(dtype, re.length) as Float32Array | Float64Array;
  for (let e = 0; e < re.length; e++) {
    out[2 * e] = re[e]!;
    out[2 * e + 1] = im === undefined ? 0 : im[e]!;
  }
  return new NDArray(out, shape, dtype);
}
