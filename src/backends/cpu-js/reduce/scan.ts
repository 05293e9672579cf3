// Cumulative-sum kernels: a scan inside each block, the block's total, the carry chain
// between blocks and the final add of each block's carry (Dask's sequential cumreduction).

import {
  allocate,
  type BigIntArray,
  type DType,
  isBigDType,
  isBigIntArray,
  isFloat,
  numberData,
} from '../../../array/dtype.ts';
import { halves } from '../../../array/int64.ts';
import { NDArray } from '../../../array/ndarray.ts';
import { arrayBlock } from '../../../kernels/array-block.ts';
import type { Chunk, Kernel } from '../../../kernels/types.ts';
import { convertBlock } from '../layout/layout.ts';

/** The operation a scan accumulates with. */
export type ScanOp = 'sum' | 'prod';

/** A block seen as [pre, n, post] around `axis`. */
export function around(shape: readonly number[], axis: number): [number, number, number] {
  let pre = 1;
  let post = 1;
  for (let ax = 0; ax < axis; ax++) pre *= shape[ax]!;
  for (let ax = axis + 1; ax < shape.length; ax++) post *= shape[ax]!;
  return [pre, shape[axis]!, post];
}

/**
 * Inclusive cumulative sum of a block along `axis`, accumulated in float64 row by row
 * (the running row stays in cache) and stored in `dtype`. Elements are cast to an integer
 * or bool `dtype` first, as NumPy does; int64 and uint64 scans are exact, modulo 2^64.
 * @example
 * cumsumBlock(ndarray([1, 2, 3]), 0, 'float64').toArray(); // [1, 3, 6]
 */
export function cumsumBlock(x: NDArray, axis: number, dtype: DType, op: ScanOp = 'sum'): NDArray {
  if (isBigDType(dtype)) return bigScanBlock(convertBlock(x, dtype), axis, op);
  const [pre, n, post] = around(x.shape, axis);
  const out = numberData(allocate(dtype, x.size), 'cumsum');
  const cast = !isFloat(dtype) || isBigIntArray(x.data);
  const src = numberData((cast ? convertBlock(x, dtype) : x).data, 'cumsum');
  const prod = op === 'prod';
  const unit = prod ? 1 : 0;
  if (post === 1) {
    for (let i = 0; i < pre; i++) {
      let acc = unit;
      for (let k = i * n; k < (i + 1) * n; k++) {
        acc = prod ? acc * src[k]! : acc + src[k]!;
        out[k] = acc;
      }
    }
    return new NDArray(out, x.shape, dtype);
  }
  if (out instanceof Float64Array && src instanceof Float64Array) {
    scanRows64(out, src, pre, n, post, prod);
    return new NDArray(out, x.shape, dtype);
  }
  const run = new Float64Array(post);
  for (let i = 0; i < pre; i++) {
    run.fill(unit);
    const base = i * n * post;
    for (let k = 0; k < n; k++) {
      const row = base + k * post;
      for (let q = 0; q < post; q++) {
        const v = prod ? run[q]! * src[row + q]! : run[q]! + src[row + q]!;
        run[q] = v;
        out[row + q] = v;
      }
    }
  }
  return new NDArray(out, x.shape, dtype);
}

/**
 * The float64 scan along a non-last axis: the first row copied, then each row is the row
 * before it (in `out`, still in cache) combined with the input row — one tight loop per
 * row with no running buffer and the operation chosen outside the loop.
 */
function scanRows64(
  out: Float64Array,
  src: Float64Array,
  pre: number,
  n: number,
  post: number,
  prod: boolean,
): void {
  for (let i = 0; i < pre; i++) {
    const base = i * n * post;
    if (n === 0) continue;
    out.set(src.subarray(base, base + post), base);
    for (let k = 1; k < n; k++) {
      const row = base + k * post;
      const prev = row - post;
      if (prod) for (let q = 0; q < post; q++) out[row + q] = out[prev + q]! * src[row + q]!;
      else for (let q = 0; q < post; q++) out[row + q] = out[prev + q]! + src[row + q]!;
    }
  }
}

/**
 * The inclusive scan of an int64 or uint64 block, wrapping modulo 2^64 as NumPy: sums add
 * the 32-bit halves with a carry (no BigInt per element), products multiply BigInts.
 */
function bigScanBlock(x: NDArray, axis: number, op: ScanOp): NDArray {
  const [pre, n, post] = around(x.shape, axis);
  const src = x.data as BigIntArray;
  const out = allocate(x.dtype, x.size) as BigIntArray;
  if (op === 'prod') {
    for (let i = 0; i < pre; i++) {
      const base = i * n * post;
      if (n > 0) out.set(src.subarray(base, base + post), base);
      for (let k = base + post; k < base + n * post; k++) out[k] = out[k - post]! * src[k]!;
    }
    return new NDArray(out, x.shape, x.dtype);
  }
  const s = halves(src);
  const w = halves(out);
  for (let i = 0; i < pre; i++) {
    const base = 2 * i * n * post;
    if (n > 0) w.set(s.subarray(base, base + 2 * post), base);
    for (let j = base + 2 * post; j < base + 2 * n * post; j += 2) {
      const lo = w[j - 2 * post]! + s[j]!;
      w[j] = lo;
      w[j + 1] = w[j + 1 - 2 * post]! + s[j + 1]! + (lo > 0xffffffff ? 1 : 0);
    }
  }
  return new NDArray(out, x.shape, x.dtype);
}

/** The last slice along `axis` of a scanned block (zeros for an empty one), axis kept as 1. */
export function lastSlice(x: NDArray, axis: number): NDArray {
  const [pre, n, post] = around(x.shape, axis);
  const shape = x.shape.map((s, ax) => (ax === axis ? 1 : s));
  if (isBigIntArray(x.data)) {
    const src = x.data;
    const out = allocate(x.dtype, pre * post) as BigIntArray;
    for (let i = 0; n > 0 && i < pre; i++) {
      const from = (i * n + n - 1) * post;
      for (let q = 0; q < post; q++) out[i * post + q] = src[from + q]!;
    }
    return new NDArray(out, shape, x.dtype);
  }
  const out = numberData(allocate(x.dtype, pre * post), 'cumsum');
  const src = numberData(x.data, 'cumsum');
  if (n > 0) {
    for (let i = 0; i < pre; i++) {
      const from = (i * n + n - 1) * post;
      out.set(src.subarray(from, from + post), i * post);
    }
  }
  return new NDArray(out, shape, x.dtype);
}

/** `x + carry` (or `x * carry`), with `carry` (size 1 along `axis`) repeated along it. */
export function addCarry(x: NDArray, carry: NDArray, axis: number, op: ScanOp = 'sum'): NDArray {
  const [pre, n, post] = around(x.shape, axis);
  if (isBigIntArray(x.data)) return bigAddCarry(x, carry, pre, n, post, op);
  const out = numberData(allocate(x.dtype, x.size), 'cumsum');
  const src = numberData(x.data, 'cumsum');
  const c = numberData(carry.data, 'cumsum');
  const prod = op === 'prod';
  for (let i = 0; i < pre; i++) {
    const ci = i * post;
    for (let k = 0; k < n; k++) {
      const row = (i * n + k) * post;
      if (prod) for (let q = 0; q < post; q++) out[row + q] = src[row + q]! * c[ci + q]!;
      else for (let q = 0; q < post; q++) out[row + q] = src[row + q]! + c[ci + q]!;
    }
  }
  return new NDArray(out, x.shape, x.dtype);
}

/** {@link addCarry} of int64/uint64 blocks, wrapping modulo 2^64 (sums by 32-bit halves). */
function bigAddCarry(
  x: NDArray,
  carry: NDArray,
  pre: number,
  n: number,
  post: number,
  op: ScanOp,
): NDArray {
  const src = x.data as BigIntArray;
  const c = carry.data as BigIntArray;
  const out = allocate(x.dtype, x.size) as BigIntArray;
  if (op === 'prod') {
    for (let i = 0; i < pre; i++) {
      for (let k = 0; k < n; k++) {
        const row = (i * n + k) * post;
        for (let q = 0; q < post; q++) out[row + q] = src[row + q]! * c[i * post + q]!;
      }
    }
    return new NDArray(out, x.shape, x.dtype);
  }
  const s = halves(src);
  const cw = halves(c);
  const w = halves(out);
  for (let i = 0; i < pre; i++) {
    const ci = 2 * i * post;
    for (let k = 0; k < n; k++) {
      const row = 2 * (i * n + k) * post;
      for (let q = 0; q < 2 * post; q += 2) {
        const lo = s[row + q]! + cw[ci + q]!;
        w[row + q] = lo;
        w[row + q + 1] = s[row + q + 1]! + cw[ci + q + 1]! + (lo > 0xffffffff ? 1 : 0);
      }
    }
  }
  return new NDArray(out, x.shape, x.dtype);
}

/** Scan kernels by name; registered in backends/cpu-js/registry. */
export const scanKernels: Record<string, Kernel<never>> = {
  /** Per-block cumulative sum: params `{ axis, dtype }`. */
  'cumsum-block': ((inputs: Chunk[], p: { axis: number; dtype: DType; op?: ScanOp }) =>
    cumsumBlock(arrayBlock(inputs[0], 'cumsum'), p.axis, p.dtype, p.op)) as Kernel<never>,
  /** A scanned block's total along `axis`: params `{ axis }`. */
  'cumsum-total': ((inputs: Chunk[], p: { axis: number; op?: ScanOp }) => {
    const x = arrayBlock(inputs[0], 'cumsum');
    const last = lastSlice(x, p.axis);
    // an empty block's total is the unit of the operation
    if (p.op === 'prod' && x.shape[p.axis] === 0) {
      if (isBigIntArray(last.data)) last.data.fill(1n);
      else numberData(last.data, 'cumsum').fill(1);
    }
    return last;
  }) as Kernel<never>,
  /** Carry of the next block: the inputs (previous carry and total) combined by `op`. */
  'cumsum-carry': ((inputs: Chunk[], p?: { op?: ScanOp }) => {
    const first = arrayBlock(inputs[0], 'cumsum');
    if (inputs.length === 1) return first;
    if (isBigIntArray(first.data)) {
      const a = first.data;
      const b = arrayBlock(inputs[1], 'cumsum').data as BigIntArray;
      const out = allocate(first.dtype, first.size) as BigIntArray;
      for (let i = 0; i < out.length; i++)
        out[i] = p?.op === 'prod' ? a[i]! * b[i]! : a[i]! + b[i]!;
      return new NDArray(out, first.shape, first.dtype);
    }
    const out = numberData(allocate(first.dtype, first.size), 'cumsum');
    const a = numberData(first.data, 'cumsum');
    const b = numberData(arrayBlock(inputs[1], 'cumsum').data, 'cumsum');
    const prod = p?.op === 'prod';
    for (let i = 0; i < out.length; i++) {
      out[i] = prod ? a[i]! * b[i]! : a[i]! + b[i]!;
    }
    return new NDArray(out, first.shape, first.dtype);
  }) as Kernel<never>,
  /** A scanned block combined with its carry (the first block has none): params `{ axis, op }`. */
  'cumsum-add': ((inputs: Chunk[], p: { axis: number; op?: ScanOp }) => {
    const x = arrayBlock(inputs[0], 'cumsum');
    return inputs.length === 1 ? x : addCarry(x, arrayBlock(inputs[1], 'cumsum'), p.axis, p.op);
  }) as Kernel<never>,
};
