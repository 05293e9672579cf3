// Einstein summation over blocks, and the sum of partial contraction results.
// Two-operand contractions permute into a batched GEMM (as NumPy's tensordot); others loop.

import {
  allocate,
  type BigIntArray,
  type DType,
  isBigDType,
  isComplex,
  type NumberArray,
  numberData,
} from '../../../array/dtype.ts';
import { cStrides, NDArray, shapeSize } from '../../../array/ndarray.ts';
import { arrayBlock } from '../../../kernels/array-block.ts';
import type { Chunk, Kernel } from '../../../kernels/types.ts';
import { permuteBlock } from '../layout/layout.ts';
import { asFloat64, type Gemm, gemmAccumulate, storeAs } from './matmul.ts';
import { limbProduct } from './matmul-big.ts';
import { complexProduct } from './matmul-complex.ts';

/** Params of the 'einsum' kernel: inputs are groups of one block per term, summed over groups. */
export interface EinsumParams {
  /** Index letters of each operand, e.g. `['ij', 'jk']`. */
  readonly terms: readonly string[];
  /** Index letters of the result. */
  readonly out: string;
  readonly dtype: DType;
  /** Append a unit axis to the result (partial results of a contraction tree). */
  readonly unitAxis?: boolean;
}

/** Params of the 'contract-sum' kernel: elementwise sum of its inputs. */
export interface ContractSumParams {
  readonly dtype: DType;
  /** Drop the trailing unit axis of the inputs (the last level of the tree). */
  readonly squeeze: boolean;
}

/** Size of every letter in a group of blocks; repeated letters must agree. */
function letterSizes(blocks: readonly NDArray[], terms: readonly string[]): Map<string, number> {
  const sizes = new Map<string, number>();
  terms.forEach((term, t) => {
    const shape = blocks[t]!.shape;
    if (shape.length !== term.length) {
      throw new RangeError(`einsum: block of rank ${shape.length} for term '${term}'`);
    }
    for (let ax = 0; ax < term.length; ax++) {
      const prev = sizes.get(term[ax]!);
      if (prev !== undefined && prev !== shape[ax]) {
        throw new RangeError(`einsum: index '${term[ax]}' has sizes ${prev} and ${shape[ax]}`);
      }
      sizes.set(term[ax]!, shape[ax]!);
    }
  });
  return sizes;
}

/** Per-letter strides of one operand (repeated letters add up: a diagonal). */
function letterStrides(term: string, shape: readonly number[], letters: string): number[] {
  const st = cStrides(shape);
  const out = new Array<number>(letters.length).fill(0);
  for (let ax = 0; ax < term.length; ax++) out[letters.indexOf(term[ax]!)]! += st[ax]!;
  return out;
}

/** The general case: one odometer over output then contracted letters. */
function accumulateLoop(
  blocks: readonly NDArray[],
  terms: readonly string[],
  out: string,
  sizes: Map<string, number>,
  acc: Float64Array,
): void {
  let letters = out;
  for (const term of terms) for (const l of term) if (!letters.includes(l)) letters += l;
  const dims = [...letters].map((l) => sizes.get(l)!);
  if (dims.some((d) => d === 0)) return;
  const outSt = letterStrides(
    out,
    [...out].map((l) => sizes.get(l)!),
    letters,
  );
  const st = blocks.map((b, t) => letterStrides(terms[t]!, b.shape, letters));
  const data: NumberArray[] = blocks.map((b) => numberData(b.data, 'einsum'));
  const nd = letters.length;
  const nOps = blocks.length;
  const last = nd - 1;
  const inner = nd === 0 ? 1 : dims[last]!;
  const innerSt = st.map((s) => (nd === 0 ? 0 : s[last]!));
  const innerOut = nd === 0 ? 0 : outSt[last]!;
  const idx = new Array<number>(nd).fill(0);
  const off = new Array<number>(nOps).fill(0);
  let o = 0;
  for (;;) {
    for (let i = 0; i < inner; i++) {
      let prod = 1;
      for (let t = 0; t < nOps; t++) prod *= data[t]![off[t]! + i * innerSt[t]!]!;
      acc[o + i * innerOut]! += prod;
    }
    let ax = last - 1;
    for (; ax >= 0; ax--) {
      idx[ax]!++;
      o += outSt[ax]!;
      for (let t = 0; t < nOps; t++) off[t]! += st[t]![ax]!;
      if (idx[ax]! < dims[ax]!) break;
      o -= dims[ax]! * outSt[ax]!;
      for (let t = 0; t < nOps; t++) off[t]! -= dims[ax]! * st[t]![ax]!;
      idx[ax] = 0;
    }
    if (ax < 0) break;
  }
}

/** A float64 accumulator; shared when it can become the float64 result without a copy. */
function accumulator(dtype: DType, n: number): Float64Array {
  return dtype === 'float64' ? (allocate('float64', n) as Float64Array) : new Float64Array(n);
}

const hasRepeats = (term: string): boolean => new Set(term).size !== term.length;

/**
 * Two operands as a batched GEMM: `a` permuted to (batch, freeA, contracted), `b` to
 * (batch, contracted, freeB). Returns false when a letter is summed within one operand only
 * or repeated within one operand (the loop handles those).
 */
function accumulateGemm(
  a: NDArray,
  b: NDArray,
  ta: string,
  tb: string,
  out: string,
  sizes: Map<string, number>,
  acc: Float64Array,
  gemm: Gemm,
): boolean {
  if (hasRepeats(ta) || hasRepeats(tb)) return false;
  for (const l of ta) if (!tb.includes(l) && !out.includes(l)) return false;
  for (const l of tb) if (!ta.includes(l) && !out.includes(l)) return false;
  const batch = [...out].filter((l) => ta.includes(l) && tb.includes(l));
  const freeA = [...out].filter((l) => ta.includes(l) && !tb.includes(l));
  const freeB = [...out].filter((l) => tb.includes(l) && !ta.includes(l));
  const contr = [...ta].filter((l) => tb.includes(l) && !out.includes(l));
  const size = (ls: string[]): number => ls.reduce((p, l) => p * sizes.get(l)!, 1);
  const permute = (x: NDArray, term: string, order: string[]): NDArray => {
    const axes = order.map((l) => term.indexOf(l));
    return axes.every((v, i) => v === i) ? x : permuteBlock(x, axes);
  };
  const ap = permute(a, ta, [...batch, ...freeA, ...contr]);
  const bp = permute(b, tb, [...batch, ...contr, ...freeB]);
  const [nb, m, k, n] = [size(batch), size(freeA), size(contr), size(freeB)];
  const [fa, fb] = [
    asFloat64(numberData(ap.data, 'einsum')),
    asFloat64(numberData(bp.data, 'einsum')),
  ];
  const order = [...batch, ...freeA, ...freeB];
  const direct = order.join('') === out;
  const r = direct ? acc : new Float64Array(nb * m * n);
  for (let t = 0; t < nb; t++) gemm(fa, t * m * k, fb, t * k * n, r, t * m * n, m, k, n);
  if (!direct) {
    const rs = order.map((l) => sizes.get(l)!);
    const perm = numberData(
      permuteBlock(
        new NDArray(r, rs, 'float64'),
        [...out].map((l) => order.indexOf(l)),
      ).data,
      'einsum',
    );
    for (let i = 0; i < acc.length; i++) acc[i]! += perm[i]!;
  }
  return true;
}

/**
 * Sum over groups of `einsum(terms -> out)` for inputs laid out group after group; two-operand
 * contractions run as GEMMs through `gemm`.
 * @example
 * einsumBlocks([a, b], { terms: ['ij', 'jk'], out: 'ik', dtype: 'float64' }); // a @ b
 */
export function einsumBlocks(
  inputs: readonly Chunk[],
  p: EinsumParams,
  gemm: Gemm = gemmAccumulate,
): NDArray {
  const nOps = p.terms.length;
  let acc: Float64Array | undefined;
  let outShape: number[] = [];
  for (let g = 0; g + nOps <= inputs.length; g += nOps) {
    const blocks = inputs.slice(g, g + nOps).map((c) => arrayBlock(c, 'einsum'));
    const sizes = letterSizes(blocks, p.terms);
    const shape = [...p.out].map((l) => sizes.get(l)!);
    if (acc === undefined) {
      outShape = shape;
      acc = accumulator(p.dtype, shapeSize(shape));
    } else if (shape.join() !== outShape.join()) {
      throw new RangeError(`einsum: partial results of shapes [${outShape}] and [${shape}]`);
    }
    const done =
      nOps === 2 &&
      accumulateGemm(blocks[0]!, blocks[1]!, p.terms[0]!, p.terms[1]!, p.out, sizes, acc, gemm);
    if (!done) accumulateLoop(blocks, p.terms, p.out, sizes, acc);
  }
  if (acc === undefined) throw new RangeError('einsum: no input blocks');
  const shape = p.unitAxis ? [...outShape, 1] : outShape;
  return new NDArray(storeAs(acc, p.dtype), shape, p.dtype);
}

/**
 * Elementwise sum of same-shaped blocks (bool: logical or), optionally dropping the trailing
 * unit axis.
 * @example
 * contractSum([x, y], { dtype: 'float64', squeeze: false }); // x + y
 */
export function contractSum(inputs: readonly Chunk[], p: ContractSumParams): NDArray {
  const first = arrayBlock(inputs[0], 'einsum');
  if (isBigDType(p.dtype)) return bigSum(inputs, p, first);
  if (isComplex(p.dtype)) return complexSum(inputs, p, first);
  const acc = accumulator(p.dtype, first.size);
  for (const c of inputs) {
    const d = numberData(arrayBlock(c, 'einsum').data, 'einsum');
    if (d.length !== acc.length) throw new RangeError('contract-sum: blocks differ in size');
    for (let i = 0; i < acc.length; i++) acc[i]! += d[i]!;
  }
  const shape = p.squeeze ? first.shape.slice(0, -1) : first.shape;
  return new NDArray(storeAs(acc, p.dtype), shape, p.dtype);
}

/** einsum of two int64/uint64 operands, exactly modulo 2^64 (see limbProduct). */
function bigEinsumBlocks(inputs: readonly Chunk[], p: EinsumParams): NDArray {
  if (p.terms.length !== 2) {
    throw new RangeError(`einsum: int64 products of ${p.terms.length} operands are not supported`);
  }
  let inner = 0;
  for (let g = 0; g + 1 < inputs.length; g += 2) {
    const blocks = [arrayBlock(inputs[g], 'einsum'), arrayBlock(inputs[g + 1], 'einsum')];
    const sizes = letterSizes(blocks, p.terms);
    let k = 1;
    for (const l of new Set(p.terms.join(''))) if (!p.out.includes(l)) k *= sizes.get(l)!;
    inner += k;
  }
  const float: EinsumParams = { ...p, dtype: 'float64' };
  return limbProduct(inputs, (pairs) => einsumBlocks(pairs, float), inner, p.dtype, 'einsum');
}

/** contractSum of int64/uint64 blocks: BigInt sums wrapped modulo 2^64. */
function bigSum(inputs: readonly Chunk[], p: ContractSumParams, first: NDArray): NDArray {
  const acc = allocate(p.dtype, first.size) as BigIntArray;
  const wrap = p.dtype === 'uint64' ? BigInt.asUintN : BigInt.asIntN;
  for (const c of inputs) {
    const d = arrayBlock(c, 'einsum').data as BigIntArray;
    if (d.length !== acc.length) throw new RangeError('contract-sum: blocks differ in size');
    for (let i = 0; i < acc.length; i++) acc[i] = wrap(64, acc[i]! + d[i]!);
  }
  const shape = p.squeeze ? first.shape.slice(0, -1) : first.shape;
  return new NDArray(acc, shape, p.dtype);
}

/** contractSum of complex blocks (real ones count as im 0): both parts summed in float64. */
function complexSum(inputs: readonly Chunk[], p: ContractSumParams, first: NDArray): NDArray {
  const acc = new Float64Array(2 * first.size);
  for (const c of inputs) {
    const x = arrayBlock(c, 'einsum');
    if (x.size !== first.size) throw new RangeError('contract-sum: blocks differ in size');
    const d = numberData(x.data, 'einsum');
    if (isComplex(x.dtype)) for (let i = 0; i < acc.length; i++) acc[i]! += d[i]!;
    else for (let i = 0; i < d.length; i++) acc[2 * i]! += d[i]!;
  }
  const out = allocate(p.dtype, first.size) as Float32Array | Float64Array;
  out.set(acc);
  const shape = p.squeeze ? first.shape.slice(0, -1) : first.shape;
  return new NDArray(out, shape, p.dtype);
}

/**
 * einsum of complex operands (real ones count as im 0): real einsums of their parts, 2^n of
 * them for n operands (four for two), see complexProduct.
 * @example
 * complexEinsumBlocks([a, b], { terms: ['ij', 'jk'], out: 'ik', dtype: 'complex128' });
 */
export function complexEinsumBlocks(inputs: readonly Chunk[], p: EinsumParams): NDArray {
  const float: EinsumParams = { ...p, dtype: 'float64' };
  return complexProduct(
    inputs,
    p.terms.length,
    (blocks) => einsumBlocks(blocks, float),
    p.dtype,
    'einsum',
  );
}

function einsumKernel(inputs: Chunk[], p: EinsumParams): NDArray {
  if (isBigDType(p.dtype)) return bigEinsumBlocks(inputs, p);
  return isComplex(p.dtype) ? complexEinsumBlocks(inputs, p) : einsumBlocks(inputs, p);
}

/** Einsum kernels by name; registered in backends/cpu-js/registry. */
export const einsumKernels: Record<string, Kernel<never>> = {
  einsum: einsumKernel as Kernel<never>,
  'contract-sum': ((inputs: Chunk[], p: ContractSumParams) =>
    contractSum(inputs, p)) as Kernel<never>,
};
