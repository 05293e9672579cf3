// Sorting kernels along one axis: a block sorted line by line, and k sorted runs (blocks
// adjacent along the axis) merged into one, stably; with indices, blocks are [values, indices].
// NaN sorts last in both orders; ties keep their original order (runs merge earliest-first).

import {
  allocate,
  type BigIntArray,
  type DType,
  isBigIntArray,
  type NumberArray,
  numberData,
} from '../../../array/dtype.ts';
import { NDArray } from '../../../array/ndarray.ts';
import { arrayBlock } from '../../../kernels/array-block.ts';
import type { Chunk, Kernel } from '../../../kernels/types.ts';
import { around } from '../reduce/scan.ts';
import { RADIX_MIN, radixSortFloat64 } from './radix-sort.ts';

/** Params of the sort kernels. */
export interface SortParams {
  readonly axis: number;
  readonly descending: boolean;
  /** Carry int32 indices (argsort): blocks are [values, indices] tuples. */
  readonly withIndices: boolean;
  /** Global index of the block's first element along the axis (sort-block with indices). */
  readonly offset?: number;
}

/** a before b in the sort order (NaN last, both orders). */
function before(a: number, b: number, descending: boolean): boolean {
  if (Number.isNaN(a)) return false;
  if (Number.isNaN(b)) return true;
  return descending ? a > b : a < b;
}

/** Sort one line of values in place (ascending with NaN last, then reversed if descending). */
function sortValues(line: NumberArray, descending: boolean, scratch?: Uint32Array): void {
  if (scratch !== undefined && line instanceof Float64Array && line.length >= RADIX_MIN) {
    radixSortFloat64(line, scratch);
  } else line.sort();
  if (!descending) return;
  let n = line.length;
  while (n > 0 && Number.isNaN(line[n - 1])) n--; // NaNs stay at the end
  line.subarray(0, n).reverse();
}

/** Stable argsort of one line: `idx` receives local positions. */
function sortIndices(line: NumberArray, idx: Int32Array, descending: boolean): void {
  for (let i = 0; i < idx.length; i++) idx[i] = i;
  idx.sort((p, q) => {
    const a = line[p]!;
    const b = line[q]!;
    if (before(a, b, descending)) return -1;
    if (before(b, a, descending)) return 1;
    return p - q;
  });
}

/**
 * One block sorted along `axis`: values, or [values, global indices] with `withIndices`.
 * @example
 * sortBlock(ndarray([3, 1, 2]), { axis: 0, descending: false, withIndices: false }); // [1, 2, 3]
 */
export function sortBlock(x: NDArray, p: SortParams): NDArray | [NDArray, NDArray] {
  if (isBigIntArray(x.data)) return bigSortBlock(x, x.data, p);
  const [pre, n, post] = around(x.shape, p.axis);
  const data = numberData(x.data, 'sort');
  const out = allocate(x.dtype, x.size) as NumberArray;
  if (post === 1 && !p.withIndices) {
    // lines are contiguous: sort them in place in the output (no per-line copies)
    out.set(data);
    const scratch = x.dtype === 'float64' ? new Uint32Array(4 * n) : undefined;
    for (let i = 0; i < pre; i++) {
      sortValues(out.subarray(i * n, (i + 1) * n), p.descending, scratch);
    }
    return new NDArray(out, x.shape, x.dtype);
  }
  const outIdx = p.withIndices ? (allocate('int32', x.size) as Int32Array) : undefined;
  const line = allocate(x.dtype, n) as NumberArray;
  const idx = new Int32Array(n);
  const off = p.offset ?? 0;
  const scratch = x.dtype === 'float64' ? new Uint32Array(4 * n) : undefined;
  for (let i = 0; i < pre; i++) {
    for (let q = 0; q < post; q++) {
      const base = i * n * post + q;
      for (let k = 0; k < n; k++) line[k] = data[base + k * post]!;
      if (outIdx === undefined) {
        sortValues(line, p.descending, scratch);
        for (let k = 0; k < n; k++) out[base + k * post] = line[k]!;
        continue;
      }
      sortIndices(line, idx, p.descending);
      for (let k = 0; k < n; k++) {
        out[base + k * post] = line[idx[k]!]!;
        outIdx[base + k * post] = idx[k]! + off;
      }
    }
  }
  const values = new NDArray(out, x.shape, x.dtype);
  return outIdx === undefined ? values : [values, new NDArray(outIdx, x.shape, 'int32')];
}

/**
 * Blocks sorted along `axis` (adjacent runs) merged into one sorted block, stably.
 * @example
 * mergeRuns([ndarray([1, 4]), ndarray([2, 3])], { axis: 0, descending: false, withIndices: false }); // [1, 2, 3, 4]
 */
export function mergeRuns(
  runs: readonly (NDArray | [NDArray, NDArray])[],
  p: SortParams,
): NDArray | [NDArray, NDArray] {
  const vals = runs.map((r) => (Array.isArray(r) ? r[0] : r));
  if (isBigIntArray(vals[0]!.data)) return bigMergeRuns(runs, vals, p);
  const datas = vals.map((v) => numberData(v.data, 'sort'));
  const idxs = p.withIndices ? runs.map((r) => (r as [NDArray, NDArray])[1]) : undefined;
  const first = vals[0]!;
  const dtype: DType = first.dtype;
  const lens = vals.map((v) => v.shape[p.axis]!);
  const n = lens.reduce((s, v) => s + v, 0);
  const shape = first.shape.map((s, ax) => (ax === p.axis ? n : s));
  const [pre, , post] = around(shape, p.axis);
  const out = allocate(dtype, pre * n * post) as NumberArray;
  const outIdx = idxs ? allocate('int32', out.length) : undefined;
  const idxData = idxs?.map((ix) => ix.data as Int32Array);
  const heads = new Int32Array(runs.length);
  for (let i = 0; i < pre; i++) {
    for (let q = 0; q < post; q++) {
      heads.fill(0);
      for (let k = 0; k < n; k++) {
        let best = -1;
        let bv = 0;
        for (let r = 0; r < runs.length; r++) {
          const h = heads[r]!;
          if (h >= lens[r]!) continue;
          const v = datas[r]![(i * lens[r]! + h) * post + q]!;
          if (best < 0 || before(v, bv, p.descending)) {
            best = r;
            bv = v;
          }
        }
        const at = (i * n + k) * post + q;
        out[at] = bv;
        if (outIdx && idxData)
          outIdx[at] = idxData[best]![(i * lens[best]! + heads[best]!) * post + q]!;
        heads[best] = heads[best]! + 1;
      }
    }
  }
  const values = new NDArray(out, shape, dtype);
  return outIdx === undefined ? values : [values, new NDArray(outIdx, shape, 'int32')];
}

/** Stable argsort of one line of BigInts: `idx` receives local positions. */
function bigSortIndices(line: BigIntArray, idx: Int32Array, descending: boolean): void {
  for (let i = 0; i < idx.length; i++) idx[i] = i;
  const sign = descending ? -1 : 1;
  idx.sort((p, q) => {
    const a = line[p]!;
    const b = line[q]!;
    if (a === b) return p - q;
    return a < b ? -sign : sign;
  });
}

/**
 * {@link sortBlock} of an int64 or uint64 block: BigInt arrays sort numerically (they hold
 * no NaN), then a descending line is reversed; indices sort stably by BigInt comparison.
 */
function bigSortBlock(x: NDArray, data: BigIntArray, p: SortParams): NDArray | [NDArray, NDArray] {
  const [pre, n, post] = around(x.shape, p.axis);
  const out = allocate(x.dtype, x.size) as BigIntArray;
  const outIdx = p.withIndices ? (allocate('int32', x.size) as Int32Array) : undefined;
  const line = allocate(x.dtype, n) as BigIntArray;
  const idx = new Int32Array(n);
  const off = p.offset ?? 0;
  for (let i = 0; i < pre; i++) {
    for (let q = 0; q < post; q++) {
      const base = i * n * post + q;
      for (let k = 0; k < n; k++) line[k] = data[base + k * post]!;
      if (outIdx === undefined) {
        line.sort();
        if (p.descending) line.reverse();
        for (let k = 0; k < n; k++) out[base + k * post] = line[k]!;
        continue;
      }
      bigSortIndices(line, idx, p.descending);
      for (let k = 0; k < n; k++) {
        out[base + k * post] = line[idx[k]!]!;
        outIdx[base + k * post] = idx[k]! + off;
      }
    }
  }
  const values = new NDArray(out, x.shape, x.dtype);
  return outIdx === undefined ? values : [values, new NDArray(outIdx, x.shape, 'int32')];
}

/** {@link mergeRuns} of int64/uint64 runs: BigInt comparisons, the earliest run wins ties. */
function bigMergeRuns(
  runs: readonly (NDArray | [NDArray, NDArray])[],
  vals: readonly NDArray[],
  p: SortParams,
): NDArray | [NDArray, NDArray] {
  const datas = vals.map((v) => v.data as BigIntArray);
  const idxData = p.withIndices
    ? runs.map((r) => (r as [NDArray, NDArray])[1].data as Int32Array)
    : undefined;
  const first = vals[0]!;
  const lens = vals.map((v) => v.shape[p.axis]!);
  const n = lens.reduce((s, v) => s + v, 0);
  const shape = first.shape.map((s, ax) => (ax === p.axis ? n : s));
  const [pre, , post] = around(shape, p.axis);
  const out = allocate(first.dtype, pre * n * post) as BigIntArray;
  const outIdx = idxData ? (allocate('int32', out.length) as Int32Array) : undefined;
  const heads = new Int32Array(runs.length);
  const desc = p.descending;
  for (let i = 0; i < pre; i++) {
    for (let q = 0; q < post; q++) {
      heads.fill(0);
      for (let k = 0; k < n; k++) {
        let best = -1;
        let bv = 0n;
        for (let r = 0; r < runs.length; r++) {
          const h = heads[r]!;
          if (h >= lens[r]!) continue;
          const v = datas[r]![(i * lens[r]! + h) * post + q]!;
          if (best < 0 || (desc ? v > bv : v < bv)) {
            best = r;
            bv = v;
          }
        }
        const at = (i * n + k) * post + q;
        out[at] = bv;
        if (outIdx && idxData)
          outIdx[at] = idxData[best]![(i * lens[best]! + heads[best]!) * post + q]!;
        heads[best] = heads[best]! + 1;
      }
    }
  }
  const values = new NDArray(out, shape, first.dtype);
  return outIdx === undefined ? values : [values, new NDArray(outIdx, shape, 'int32')];
}

/** Sort kernels by name; registered in backends/cpu-js/registry. */
export const sortKernels: Record<string, Kernel<never>> = {
  'sort-block': ((inputs: Chunk[], p: SortParams) =>
    sortBlock(arrayBlock(inputs[0], 'sort'), p)) as unknown as Kernel<never>,
  'sort-merge': ((inputs: Chunk[], p: SortParams) =>
    mergeRuns(inputs as (NDArray | [NDArray, NDArray])[], p)) as unknown as Kernel<never>,
};
