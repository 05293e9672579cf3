// Dense references for reductions: every output element folds the list of its input values,
// gathered one multi-index at a time, so they share no code with the kernels.

import {
  type DType,
  type NumberArray,
  type TypedArray,
  typedArrayCtor,
} from '../../src/array/dtype.ts';
import type { NDArray } from '../../src/array/ndarray.ts';

/** One output element from its inputs (values and global flat indices, C order). */
export type Fold = (values: number[], flat: number[]) => number;

/** Reduce a dense array over `axes` with `fold`, stored in `dtype` (JS conversion rules). */
export function denseReduce(
  x: NDArray,
  axes: readonly number[],
  keepdims: boolean,
  dtype: DType,
  fold: Fold,
): { dtype: DType; shape: number[]; data: TypedArray } {
  const kept = x.shape.flatMap((n, ax) => (axes.includes(ax) ? [] : [n]));
  const buckets = new Map<number, { v: number[]; f: number[] }>();
  const outSize = kept.reduce((a, b) => a * b, 1);
  for (let o = 0; o < outSize; o++) buckets.set(o, { v: [], f: [] });
  const idx = new Array<number>(x.ndim).fill(0);
  for (let flat = 0; flat < x.size; flat++) {
    let o = 0;
    for (let ax = 0; ax < x.ndim; ax++) if (!axes.includes(ax)) o = o * x.shape[ax]! + idx[ax]!;
    const b = buckets.get(o)!;
    b.v.push((x.data as NumberArray)[flat]!);
    b.f.push(flat);
    for (let ax = x.ndim - 1; ax >= 0; ax--) {
      if (++idx[ax]! < x.shape[ax]!) break;
      idx[ax] = 0;
    }
  }
  const data = new (typedArrayCtor(dtype))(outSize);
  for (let o = 0; o < outSize; o++) {
    const { v, f } = buckets.get(o)!;
    const r = fold(v, f);
    // int64/uint64 storage takes BigInts (a number result is an exact integer there)
    const big = data instanceof BigInt64Array || data instanceof BigUint64Array;
    (data as unknown as unknown[])[o] =
      dtype === 'bool' ? (r !== 0 ? 1 : 0) : big && typeof r === 'number' ? BigInt(r) : r;
  }
  const shape = keepdims ? x.shape.map((n, ax) => (axes.includes(ax) ? 1 : n)) : kept;
  return { dtype, shape, data };
}

/** Convert one number as storing it in a `dtype` array does (bool: nonzero). */
export function castTo(v: number, dtype: DType): number {
  if (dtype === 'bool') return v !== 0 ? 1 : 0;
  const a = new (typedArrayCtor(dtype))(1);
  a[0] = v;
  return a[0]!;
}

const lt = (a: number, b: number): boolean => a < b || (Number.isNaN(a) && !Number.isNaN(b));
const gt = (a: number, b: number): boolean => a > b || (Number.isNaN(a) && !Number.isNaN(b));

/** Folds by op name; integer products wrap like int32. */
export const folds = {
  sum: (v: number[]) => v.reduce((a, b) => a + b, 0),
  prodFloat: (v: number[]) => v.reduce((a, b) => a * b, 1),
  /** Products wrapping at 32 bits (the kernel's loop for an int32 output dtype). */
  prodInt32: (v: number[]) => v.reduce((a, b) => Math.imul(a, b), 1),
  // int64 products modulo 2^64 (a BigInt where a number could not hold it exactly)
  prodInt: (v: number[]) =>
    v.reduce((a, b) => BigInt.asIntN(64, a * BigInt(b)), 1n) as unknown as number,
  min: (v: number[]) => v.reduce((a, b) => (lt(b, a) ? b : a)),
  max: (v: number[]) => v.reduce((a, b) => (gt(b, a) ? b : a)),
  any: (v: number[]) => (v.some((e) => e !== 0) ? 1 : 0),
  all: (v: number[]) => (v.every((e) => e !== 0) ? 1 : 0),
  mean: (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length,
  variance: (correction: number) => (v: number[]) => {
    const m = v.reduce((a, b) => a + b, 0) / v.length;
    const ss = v.reduce((a, b) => a + (b - m) * (b - m), 0);
    return ss / Math.max(v.length - correction, 0);
  },
  /** Index of the first best value: along one axis (position in the list) or flat. */
  arg:
    (better: 'min' | 'max', flatIndex: boolean) =>
    (v: number[], f: number[]): number => {
      const cmp = better === 'min' ? lt : gt;
      let k = 0;
      for (let i = 1; i < v.length; i++) if (cmp(v[i]!, v[k]!)) k = i;
      return flatIndex ? f[k]! : k;
    },
};
