// Kernels of the unique family: a block's distinct values (sorted, with counts and first
// flat index), the merge of every block's, and inverse indices by binary search.
// NaNs are distinct from each other (the Array API's rule): each one is its own entry.
// int64 and uint64 blocks take BigInt paths (exact comparisons, no NaN), chosen per block.

import { allocate, type BigIntArray, isBigIntArray, numberData } from '../../../array/dtype.ts';
import { NDArray } from '../../../array/ndarray.ts';
import { arrayBlock } from '../../../kernels/array-block.ts';
import type { Chunk, Kernel } from '../../../kernels/types.ts';

/** [values, counts, firstIndex] of a block or of the whole array. */
type Uniques = [NDArray, NDArray, NDArray];

/**
 * Sorted distinct (value, count, first) from parallel lists (NaNs kept apart, last); BigInts
 * (int64, uint64) compare exactly.
 */
function collapse(
  dtype: NDArray['dtype'],
  vals: ArrayLike<number | bigint>,
  counts: ArrayLike<number>,
  firsts: ArrayLike<number>,
): Uniques {
  const order = Array.from({ length: vals.length }, (_v, i) => i);
  order.sort((p, q) => {
    const a = vals[p]!;
    const b = vals[q]!;
    if (Number.isNaN(a) || Number.isNaN(b))
      return Number.isNaN(a) ? (Number.isNaN(b) ? firsts[p]! - firsts[q]! : 1) : -1;
    return a < b ? -1 : a > b ? 1 : firsts[p]! - firsts[q]!;
  });
  const v: (number | bigint)[] = [];
  const c: number[] = [];
  const f: number[] = [];
  for (const i of order) {
    const x = vals[i]!;
    const last = v.length - 1;
    if (last >= 0 && v[last] === x) {
      c[last]! += counts[i]!;
      f[last] = Math.min(f[last]!, firsts[i]!);
    } else {
      v.push(x);
      c.push(counts[i]!);
      f.push(firsts[i]!);
    }
  }
  const data = allocate(dtype, v.length);
  (data as unknown as { set(xs: ArrayLike<number | bigint>): void }).set(v);
  return [
    new NDArray(data, [v.length], dtype),
    new NDArray(Int32Array.from(c), [c.length], 'int32'),
    new NDArray(Int32Array.from(f), [f.length], 'int32'),
  ];
}

/**
 * The distinct values of a block with their counts and first flat indices (offset added).
 * @example
 * uniqueBlock(ndarray([2, 1, 2]), 10); // [[1, 2], [1, 2], [11, 10]]
 */
export function uniqueBlock(x: NDArray, offset: number): Uniques {
  const firsts = Array.from({ length: x.size }, (_v, i) => i + offset);
  const ones = new Int32Array(x.size).fill(1);
  return collapse(x.dtype, x.data as ArrayLike<number | bigint>, ones, firsts);
}

/** Every block's uniques merged into the array's. */
export function mergeUniques(parts: readonly Uniques[]): Uniques {
  const dtype = parts[0]![0].dtype;
  const counts = parts.flatMap((p) => Array.from(p[1].data as Int32Array));
  const firsts = parts.flatMap((p) => Array.from(p[2].data as Int32Array));
  const vals = parts.flatMap((p) => Array.from(p[0].data as ArrayLike<number | bigint>));
  return collapse(dtype, vals, counts, firsts);
}

/** {@link inverseIndices} of int64/uint64 values (no NaN): BigInt binary searches. */
function bigInverseIndices(src: BigIntArray, v: BigIntArray, shape: readonly number[]): NDArray {
  const out = allocate('int32', src.length);
  for (let i = 0; i < src.length; i++) {
    const e = src[i]!;
    let lo = 0;
    let hi = v.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (v[mid]! < e) lo = mid + 1;
      else hi = mid;
    }
    out[i] = lo;
  }
  return new NDArray(out, shape, 'int32');
}

/**
 * For each element of `x`, the index of its value in sorted `values` (binary search); the
 * NaNs take the NaN entries in order, after `nanBefore` taken by earlier blocks.
 */
export function inverseIndices(x: NDArray, values: NDArray, nanBefore: number): NDArray {
  if (isBigIntArray(x.data)) {
    return bigInverseIndices(x.data, values.data as BigIntArray, x.shape);
  }
  const v = numberData(values.data, 'unique');
  const src = numberData(x.data, 'unique');
  let finite = v.length;
  while (finite > 0 && Number.isNaN(v[finite - 1])) finite--;
  const out = allocate('int32', x.size);
  let nan = nanBefore;
  for (let i = 0; i < x.size; i++) {
    const e = src[i]!;
    if (Number.isNaN(e)) {
      out[i] = finite + nan++;
      continue;
    }
    let lo = 0;
    let hi = finite;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (v[mid]! < e) lo = mid + 1;
      else hi = mid;
    }
    out[i] = lo;
  }
  return new NDArray(out, x.shape, 'int32');
}

const nanCount = (u: Chunk): number => {
  const vals = (u as Uniques)[0].data;
  if (isBigIntArray(vals)) return 0;
  let n = 0;
  for (let i = vals.length - 1; i >= 0 && Number.isNaN(vals[i]); i--) n++;
  return n;
};

/**
 * 'searchsorted-count' of an int64/uint64 block `a` (sorted) and `x` of the same dtype (the
 * caller casts both to their common dtype): BigInt comparisons.
 */
function bigSearchCount(a: BigIntArray, x: NDArray, right: boolean): NDArray {
  const src = x.data as BigIntArray;
  const out = allocate('int32', src.length);
  for (let i = 0; i < src.length; i++) {
    const e = src[i]!;
    let lo = 0;
    let hi = a.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const m = a[mid]!;
      if (right ? m <= e : m < e) lo = mid + 1;
      else hi = mid;
    }
    out[i] = lo;
  }
  return new NDArray(out, [1, ...x.shape], 'int32');
}

/** Unique kernels by name; registered in backends/cpu-js/registry. */
export const uniqueKernels: Record<string, Kernel<never>> = {
  'unique-block': ((inputs: Chunk[], p: { offset: number }) =>
    uniqueBlock(arrayBlock(inputs[0], 'unique'), p.offset)) as unknown as Kernel<never>,
  'unique-merge': ((inputs: Chunk[]) =>
    mergeUniques(inputs as unknown as Uniques[])) as unknown as Kernel<never>,
  /** inputs: the block, the merged uniques, then the uniques of every earlier block. */
  'unique-inverse': ((inputs: Chunk[]) => {
    const before = inputs.slice(2).reduce((s, u) => s + nanCount(u), 0);
    return inverseIndices(
      arrayBlock(inputs[0], 'unique'),
      (inputs[1] as unknown as Uniques)[0],
      before,
    );
  }) as unknown as Kernel<never>,
  /** For each element of the x2 block, how many of the x1 block sort before it: [1, ...shape]. */
  'searchsorted-count': ((inputs: Chunk[], p: { right: boolean }) => {
    const a = arrayBlock(inputs[0], 'unique').data;
    const x = arrayBlock(inputs[1], 'unique');
    if (isBigIntArray(a)) return bigSearchCount(a, x, p.right);
    const out = allocate('int32', x.size);
    for (let i = 0; i < x.size; i++) {
      const e = x.data[i]!;
      let lo = 0;
      let hi = a.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const m = a[mid]!;
        // NaN sorts last: every number is below it
        const below = Number.isNaN(e) ? p.right || !Number.isNaN(m) : p.right ? m <= e : m < e;
        if (below) lo = mid + 1;
        else hi = mid;
      }
      out[i] = lo;
    }
    return new NDArray(out, [1, ...x.shape], 'int32');
  }) as unknown as Kernel<never>,
};
