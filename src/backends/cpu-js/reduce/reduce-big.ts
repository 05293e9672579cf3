// Monoid reductions of int64 and uint64 blocks (sum, prod, min, max, any, all, mean), exact
// modulo 2^64 as NumPy's: sums add each element's two 32-bit halves in doubles (no BigInt per
// element) and carry them into BigInts every 2^20 elements; prod, min and max use BigInts.

import { allocate, type BigIntArray, type DType } from '../../../array/dtype.ts';
import { halves } from '../../../array/int64.ts';
import { cStrides, NDArray } from '../../../array/ndarray.ts';
import type { Chunk } from '../../../kernels/types.ts';
import type { MonoidOp, MonoidParams } from './reduce-monoid.ts';

/** Elements added into a pair of doubles before they are carried: 2^20 × 2^32 < 2^53. */
const FLUSH = 1 << 20;

/** Per element of the block, the offset of its output element (reduced axes step by 0). */
function outputStrides(shape: readonly number[], axes: readonly number[]): number[] {
  const kept = shape.map((n, ax) => (axes.includes(ax) ? 1 : n));
  const st = cStrides(kept);
  return shape.map((_, ax) => (axes.includes(ax) ? 0 : st[ax]!));
}

/** Calls `visit(i, o)` for every element i of a C-order block and its output offset o. */
function walk(
  shape: readonly number[],
  axes: readonly number[],
  visit: (i: number, o: number) => void,
): void {
  const total = shape.reduce((a, b) => a * b, 1);
  if (total === 0) return;
  const os = outputStrides(shape, axes);
  const nd = shape.length;
  const idx = new Array<number>(nd).fill(0);
  let o = 0;
  for (let i = 0; i < total; i++) {
    visit(i, o);
    for (let ax = nd - 1; ax >= 0; ax--) {
      o += os[ax]!;
      if (++idx[ax]! < shape[ax]!) break;
      o -= os[ax]! * shape[ax]!;
      idx[ax] = 0;
    }
  }
}

/** Exact sums of `data` per output element, as unbounded BigInts (callers wrap or round). */
function sums(
  data: BigIntArray,
  shape: readonly number[],
  axes: readonly number[],
  n: number,
): bigint[] {
  const w = halves(data);
  const signed = data instanceof BigInt64Array;
  const run = suffixRun(shape, axes);
  if (run !== undefined) return runSums(w, signed, run, n);
  const lo = new Float64Array(n);
  const hi = new Float64Array(n);
  const total = new Array<bigint>(n).fill(0n);
  let pending = 0;
  const flush = (): void => {
    for (let k = 0; k < n; k++) {
      if (lo[k] === 0 && hi[k] === 0) continue;
      total[k]! += (BigInt(hi[k]!) << 32n) + BigInt(lo[k]!);
      lo[k] = 0;
      hi[k] = 0;
    }
    pending = 0;
  };
  walk(shape, axes, (i, o) => {
    lo[o]! += w[2 * i]!;
    hi[o]! += signed ? w[2 * i + 1]! | 0 : w[2 * i + 1]!;
    if (++pending === FLUSH) flush();
  });
  flush();
  return total;
}

/** Elements per output when the reduced axes are the trailing ones (contiguous runs). */
function suffixRun(shape: readonly number[], axes: readonly number[]): number | undefined {
  const nd = shape.length;
  let run = 1;
  for (let ax = nd - 1; ax >= nd - axes.length; ax--) {
    if (!axes.includes(ax)) return undefined;
    run *= shape[ax]!;
  }
  return run;
}

/** Exact sums of n contiguous runs of `run` elements: tight loops, carried every FLUSH. */
function runSums(w: Uint32Array, signed: boolean, run: number, n: number): bigint[] {
  const total = new Array<bigint>(n).fill(0n);
  for (let o = 0; o < n; o++) {
    let t = 0n;
    for (let start = o * run, end = start + run; start < end; start += FLUSH) {
      const [lo, hi, negative] = halfSums(w, start, Math.min(end, start + FLUSH));
      t += (BigInt(hi) << 32n) + BigInt(lo);
      // a signed element whose high word is read unsigned counts 2^64 too much
      if (signed) t -= BigInt(negative) << 64n;
    }
    total[o] = t;
  }
  return total;
}

/**
 * Sums of the low words and of the high words (unsigned) of elements [start, stop), and how
 * many high words have their top bit set (negative int64 elements).
 */
function halfSums(w: Uint32Array, start: number, stop: number): [number, number, number] {
  let lo0 = 0;
  let lo1 = 0;
  let hi0 = 0;
  let hi1 = 0;
  let neg = 0;
  let i = 2 * start;
  const end = 2 * stop;
  for (; i + 3 < end; i += 4) {
    const h0 = w[i + 1]!;
    const h1 = w[i + 3]!;
    lo0 += w[i]!;
    hi0 += h0;
    lo1 += w[i + 2]!;
    hi1 += h1;
    neg += (h0 >>> 31) + (h1 >>> 31);
  }
  if (i < end) {
    lo0 += w[i]!;
    hi0 += w[i + 1]!;
    neg += w[i + 1]! >>> 31;
  }
  return [lo0 + lo1, hi0 + hi1, neg];
}

type Fold = (acc: bigint, v: bigint) => bigint;

const FOLDS: Partial<Record<MonoidOp, (signed: boolean) => Fold>> = {
  prod: (signed) =>
    signed ? (a, v) => BigInt.asIntN(64, a * v) : (a, v) => BigInt.asUintN(64, a * v),
  // biome-ignore lint/complexity/useMathMinMax: BigInts (Math.min takes numbers only)
  min: () => (a, v) => (v < a ? v : a),
  // biome-ignore lint/complexity/useMathMinMax: BigInts
  max: () => (a, v) => (v > a ? v : a),
};

function identity(op: MonoidOp, dtype: DType): bigint {
  if (op === 'prod') return 1n;
  if (op === 'min') return dtype === 'uint64' ? 2n ** 64n - 1n : 2n ** 63n - 1n;
  if (op === 'max') return dtype === 'uint64' ? 0n : -(2n ** 63n);
  return 0n;
}

/** Any / all of `data` per output element, into a bool block. */
function truthInto(
  data: BigIntArray,
  shape: readonly number[],
  axes: readonly number[],
  all: boolean,
  out: Uint8Array,
): void {
  const w = halves(data);
  out.fill(all ? 1 : 0);
  walk(shape, axes, (i, o) => {
    const nonzero = (w[2 * i]! | w[2 * i + 1]!) !== 0;
    if (all ? !nonzero : nonzero) out[o] = all ? 0 : 1;
  });
}

/**
 * The dtype of a big block's intermediate values for `op`: bool for any/all, float64 for
 * mean (NumPy's mean converts each element, so it never wraps), the block's own otherwise.
 */
export function bigAccDtype(op: MonoidOp, dtype: DType): DType {
  if (op === 'any' || op === 'all') return 'bool';
  return op === 'mean' ? 'float64' : dtype;
}

/**
 * Reduce one int64/uint64 block over `p.axes`: [values (keepdims shape), count (0-d float64)].
 * Mean's values are the exact sums rounded once to float64 (finalize divides).
 * @example
 * bigMonoidPartial(ndarray(BigInt64Array.of(2n ** 62n, 2n ** 62n)), { op: 'sum', axes: [0], dtype: 'int64' });
 * // [[-9223372036854775808n] (wrapped, as NumPy), 2]
 */
export function bigMonoidPartial(x: NDArray, p: MonoidParams): Chunk {
  const data = x.data as BigIntArray;
  const shape = x.shape.map((n, ax) => (p.axes.includes(ax) ? 1 : n));
  let count = 1;
  for (const ax of p.axes) count *= x.shape[ax]!;
  const accDtype = bigAccDtype(p.op, x.dtype);
  const out = allocate(
    accDtype,
    shape.reduce((a, b) => a * b, 1),
  );
  if (p.op === 'any' || p.op === 'all') {
    truthInto(data, x.shape, p.axes, p.op === 'all', out as Uint8Array);
  } else if (p.op === 'sum' || p.op === 'mean') {
    const t = sums(data, x.shape, p.axes, out.length);
    if (p.op === 'mean')
      for (let k = 0; k < t.length; k++) (out as Float64Array)[k] = Number(t[k]!);
    else {
      const wrap = x.dtype === 'int64' ? BigInt.asIntN : BigInt.asUintN;
      for (let k = 0; k < t.length; k++) (out as BigIntArray)[k] = wrap(64, t[k]!);
    }
  } else {
    const acc = out as BigIntArray;
    acc.fill(identity(p.op, x.dtype));
    const fold = FOLDS[p.op]!(x.dtype === 'int64');
    walk(x.shape, p.axes, (i, o) => {
      acc[o] = fold(acc[o]!, data[i]!);
    });
  }
  const c = allocate('float64', 1);
  c[0] = count;
  return [new NDArray(out, shape, accDtype), new NDArray(c, [], 'float64')];
}

/** Merge big intermediates element-wise, in the order given. */
export function bigMonoidMerge(parts: readonly Chunk[], p: MonoidParams): Chunk {
  const [first] = parts[0] as [NDArray, NDArray];
  if (parts.length === 1) return parts[0]!;
  const acc = allocate(first.dtype, first.size);
  acc.set(first.data as never);
  let count = 0;
  const signed = first.dtype === 'int64';
  const fold: Fold =
    p.op === 'sum' || p.op === 'mean'
      ? signed
        ? (a, v) => BigInt.asIntN(64, a + v)
        : (a, v) => BigInt.asUintN(64, a + v)
      : p.op === 'any'
        ? (a, v) => (a !== 0n || v !== 0n ? 1n : 0n)
        : p.op === 'all'
          ? (a, v) => (a !== 0n && v !== 0n ? 1n : 0n)
          : FOLDS[p.op]!(signed);
  for (let k = 0; k < parts.length; k++) {
    const [v, c] = parts[k] as [NDArray, NDArray];
    count += c.data[0] as number;
    if (k === 0) continue;
    if (first.dtype === 'bool') {
      const a = acc as Uint8Array;
      const b = v.data as Uint8Array;
      for (let i = 0; i < a.length; i++) a[i] = p.op === 'any' ? a[i]! | b[i]! : a[i]! & b[i]!;
      continue;
    }
    const a = acc as BigIntArray;
    const b = v.data as BigIntArray;
    for (let i = 0; i < a.length; i++) a[i] = fold(a[i]!, b[i]!);
  }
  const c = allocate('float64', 1);
  c[0] = count;
  return [new NDArray(acc, first.shape, first.dtype), new NDArray(c, [], 'float64')];
}

/** True when a reduction's intermediates are BigInt values (a big block's sum, prod, …). */
export function isBigPartial(part: Chunk): boolean {
  const v = (part as NDArray[])[0];
  return v !== undefined && (v.dtype === 'int64' || v.dtype === 'uint64');
}
