// Exact int64/uint64 matrix products (modulo 2^64, as NumPy's) through float64 kernels: each
// operand's 64 bits are cut into four 16-bit limbs, limb products of equal weight are summed
// by the float64 kernel (exact while the inner size stays under 2^19), and the four weighted
// sums are combined once per output element. Ten GEMMs instead of a BigInt per multiply-add.

import { castData } from '../../../array/cast.ts';
import { allocate, type BigIntArray, type DType, isBigDType } from '../../../array/dtype.ts';
import { halves } from '../../../array/int64.ts';
import { NDArray } from '../../../array/ndarray.ts';
import { ValueError } from '../../../errors.ts';
import { arrayBlock } from '../../../kernels/array-block.ts';
import type { Chunk } from '../../../kernels/types.ts';
import { type MatmulParams, matmulBlocks } from './matmul.ts';

const LIMBS = 4;
/** 4 limb products of < 2^32 each, summed over the inner size, must stay below 2^53. */
const MAX_INNER = 2 ** 19;

/** The four 16-bit limbs (low first) of a block's 64-bit two's-complement elements. */
function limbsOf(x: NDArray): NDArray[] {
  const big = (isBigDType(x.dtype) ? x.data : castData(x.data, x.dtype, 'int64')) as BigIntArray;
  const w = halves(big);
  const n = big.length;
  const limbs = Array.from({ length: LIMBS }, () => new Float64Array(n));
  const [l0, l1, l2, l3] = limbs as [Float64Array, Float64Array, Float64Array, Float64Array];
  for (let i = 0; i < n; i++) {
    const lo = w[2 * i]!;
    const hi = w[2 * i + 1]!;
    l0[i] = lo & 0xffff;
    l1[i] = lo >>> 16;
    l2[i] = hi & 0xffff;
    l3[i] = hi >>> 16;
  }
  return limbs.map((d) => new NDArray(d, x.shape, 'float64'));
}

/** The inner (contracted) size of the product of `inputs` summed over its pairs. */
function innerSize(inputs: readonly Chunk[], p: MatmulParams): number {
  let k = 0;
  for (let g = 0; g + 1 < inputs.length; g += 2) {
    const a = arrayBlock(inputs[g], 'matmul');
    const count = p.windows?.[g]?.count ?? a.shape;
    k += p.aT && !p.aVec ? count[count.length - 2]! : count[count.length - 1]!;
  }
  return k;
}

/**
 * A bilinear product of int64/uint64 blocks (pairs `[a_0, b_0, a_1, b_1, …]`), exactly
 * modulo 2^64: `float` computes the same product of float64 blocks (summed over pairs), which
 * is exact for limbs while `inner`, the number of terms summed per output, is under 2^19.
 * @example
 * limbProduct(inputs, (pairs) => matmulBlocks(pairs, { ...p, dtype: 'float64' }), k, 'int64', 'matmul');
 */
export function limbProduct(
  inputs: readonly Chunk[],
  float: (pairs: Chunk[]) => NDArray,
  inner: number,
  dtype: DType,
  fn: string,
): NDArray {
  if (inner >= MAX_INNER) {
    throw new ValueError(
      `${fn}: int64 products over ${inner} terms per task (at least 2^19) are not exact here; rechunk the contracted axes smaller`,
    );
  }
  const limbs = inputs.map((c) => limbsOf(arrayBlock(c, fn)));
  const weighted: Float64Array[] = [];
  let shape: readonly number[] = [];
  for (let s = 0; s < LIMBS; s++) {
    let acc: Float64Array | undefined;
    for (let i = 0; i <= s; i++) {
      const r = float(limbs.map((l, g) => l[g % 2 === 0 ? i : s - i]!));
      shape = r.shape;
      const d = r.data as Float64Array;
      if (acc === undefined) acc = Float64Array.from(d);
      else for (let e = 0; e < acc.length; e++) acc[e]! += d[e]!;
    }
    weighted.push(acc!);
  }
  const [c0, c1, c2, c3] = weighted as [Float64Array, Float64Array, Float64Array, Float64Array];
  const out = allocate(dtype, c0.length) as BigIntArray;
  const wrap = dtype === 'uint64' ? BigInt.asUintN : BigInt.asIntN;
  for (let e = 0; e < c0.length; e++) {
    const v =
      BigInt(c0[e]!) + (BigInt(c1[e]!) << 16n) + (BigInt(c2[e]!) << 32n) + (BigInt(c3[e]!) << 48n);
    out[e] = wrap(64, v);
  }
  return new NDArray(out, shape, dtype);
}

/**
 * `sum over pairs of a_g @ b_g` for int64/uint64 output (p.dtype), exactly modulo 2^64.
 * @example
 * bigMatmulBlocks([a, b], { dtype: 'int64', aVec: false, bVec: false }); // a @ b, exact
 */
export function bigMatmulBlocks(inputs: readonly Chunk[], p: MatmulParams): NDArray {
  const float: MatmulParams = { ...p, dtype: 'float64' };
  return limbProduct(
    inputs,
    (pairs) => matmulBlocks(pairs, float),
    innerSize(inputs, p),
    p.dtype,
    'matmul',
  );
}
