// argmin / argmax: intermediates are [value, index (float64), count (0-d)]; ties and NaNs
// resolve to the first occurrence, as NumPy. Indices are relative along one axis, or global flat.

import {
  allocate,
  type BigIntArray,
  isBigIntArray,
  type NumberArray,
  numberData,
} from '../../../array/dtype.ts';
import { cStrides, NDArray } from '../../../array/ndarray.ts';
import { ValueError } from '../../../errors.ts';
import type { Chunk } from '../../../kernels/types.ts';
import { reducedShape, scalarBlock } from './reduce-monoid.ts';

/**
 * Params of the arg-reduction steps. Without `flat`, `axes` is one axis and indices count
 * from the start of each intermediate's span along it (merges shift them by the counts
 * before them, so unknown chunk sizes need no offsets). With `flat`, the block's global
 * offset and the array's shape give global C-order flat indices.
 */
export interface ArgParams {
  readonly op: 'argmin' | 'argmax';
  readonly axes: readonly number[];
  readonly flat?: boolean;
  /** With `flat`, in partial steps: the block's global offset and the array's shape. */
  readonly offset?: readonly number[];
  readonly shape?: readonly number[];
}

/** `v` beats `w`: strictly smaller (argmin) or larger (argmax); a NaN beats any number. */
function beats(isMin: boolean, v: number, w: number): boolean {
  return (isMin ? v < w : v > w) || (Number.isNaN(v) && !Number.isNaN(w));
}

const same = (v: number, w: number): boolean => v === w || (Number.isNaN(v) && Number.isNaN(w));

/** Best of the contiguous run src[s..s+n) (n >= 1): its value and position. */
function scanRun(src: NumberArray, s: number, n: number, isMin: boolean): [number, number] {
  let best = src[s]!;
  let at = 0;
  for (let k = 1; k < n; k++) {
    const v = src[s + k]!;
    if (beats(isMin, v, best)) {
      best = v;
      at = k;
    }
  }
  return [best, at];
}

function relativePartial(x: NDArray, p: ArgParams): Chunk {
  const axis = p.axes[0]!;
  const n = x.shape[axis]!;
  let pre = 1;
  let post = 1;
  for (let ax = 0; ax < axis; ax++) pre *= x.shape[ax]!;
  for (let ax = axis + 1; ax < x.ndim; ax++) post *= x.shape[ax]!;
  const { shape } = reducedShape(x.shape, p.axes);
  const val = numberData(allocate(x.dtype, pre * post), p.op);
  const idx = allocate('float64', pre * post);
  const src = numberData(x.data, p.op);
  const isMin = p.op === 'argmin';
  if (n > 0 && post === 1) {
    for (let i = 0; i < pre; i++) {
      const [best, at] = scanRun(src, i * n, n, isMin);
      val[i] = best;
      idx[i] = at;
    }
  } else if (n > 0) {
    for (let i = 0; i < pre; i++) {
      const base = i * n * post;
      const ob = i * post;
      for (let q = 0; q < post; q++) val[ob + q] = src[base + q]!;
      for (let k = 1; k < n; k++) {
        const row = base + k * post;
        for (let q = 0; q < post; q++) {
          const v = src[row + q]!;
          if (beats(isMin, v, val[ob + q]!)) {
            val[ob + q] = v;
            idx[ob + q] = k;
          }
        }
      }
    }
  }
  return [new NDArray(val, shape, x.dtype), new NDArray(idx, shape, 'float64'), scalarBlock(n)];
}

function flatPartial(x: NDArray, p: ArgParams): Chunk {
  const gst = cStrides(p.shape!);
  const shape = x.shape.map(() => 1);
  const val = numberData(allocate(x.dtype, 1), p.op);
  const idx = allocate('float64', 1);
  if (x.size > 0) scanFlat(x, p.op === 'argmin', p.offset!, gst, val, idx);
  return [
    new NDArray(val, shape, x.dtype),
    new NDArray(idx, shape, 'float64'),
    scalarBlock(x.size),
  ];
}

/** Walk a non-empty block row by row, tracking the best value and its global flat index. */
function scanFlat(
  x: NDArray,
  isMin: boolean,
  offset: readonly number[],
  gst: readonly number[],
  val: NumberArray,
  idx: Float64Array,
): void {
  const nd = x.shape.length;
  const src = numberData(x.data, isMin ? 'argmin' : 'argmax');
  if (nd === 0) {
    val[0] = src[0]!;
    idx[0] = 0;
    return;
  }
  const inner = x.shape[nd - 1]!;
  const rows = x.size / inner;
  const at = new Array<number>(nd - 1).fill(0);
  let best = src[0]!;
  let bestIdx = -1;
  for (let r = 0; r < rows; r++) {
    let g = offset[nd - 1]!;
    for (let ax = 0; ax < nd - 1; ax++) g += (offset[ax]! + at[ax]!) * gst[ax]!;
    const [v, j] = scanRun(src, r * inner, inner, isMin);
    if (bestIdx < 0 || beats(isMin, v, best)) {
      best = v;
      bestIdx = g + j;
    }
    for (let ax = nd - 2; ax >= 0; ax--) {
      if (++at[ax]! < x.shape[ax]!) break;
      at[ax] = 0;
    }
  }
  val[0] = best;
  idx[0] = bestIdx;
}

/** Reduce one input block to [value, index, count]. */
export function argPartial(x: NDArray, p: ArgParams): Chunk {
  if (isBigIntArray(x.data)) return bigArgPartial(x, x.data, p);
  return p.flat ? flatPartial(x, p) : relativePartial(x, p);
}

/**
 * {@link argPartial} of an int64 or uint64 block: BigInts compare exactly (no NaN), the
 * first occurrence wins. One walk in C order serves both the relative and the flat index.
 */
function bigArgPartial(x: NDArray, src: BigIntArray, p: ArgParams): Chunk {
  const isMin = p.op === 'argmin';
  if (p.flat) {
    const val = allocate(x.dtype, 1) as BigIntArray;
    const idx = allocate('float64', 1);
    let at = 0;
    for (let i = 1; i < src.length; i++) {
      if (isMin ? src[i]! < src[at]! : src[i]! > src[at]!) at = i;
    }
    if (src.length > 0) {
      val[0] = src[at]!;
      // the local C-order position as the array's global flat index
      let g = 0;
      let rest = at;
      const gst = cStrides(p.shape!);
      const lst = cStrides(x.shape);
      for (let ax = 0; ax < x.ndim; ax++) {
        const k = Math.floor(rest / lst[ax]!);
        rest -= k * lst[ax]!;
        g += (p.offset![ax]! + k) * gst[ax]!;
      }
      idx[0] = g;
    }
    const one = x.shape.map(() => 1);
    return [new NDArray(val, one, x.dtype), new NDArray(idx, one, 'float64'), scalarBlock(x.size)];
  }
  const axis = p.axes[0]!;
  const n = x.shape[axis]!;
  let pre = 1;
  let post = 1;
  for (let ax = 0; ax < axis; ax++) pre *= x.shape[ax]!;
  for (let ax = axis + 1; ax < x.ndim; ax++) post *= x.shape[ax]!;
  const { shape } = reducedShape(x.shape, p.axes);
  const val = allocate(x.dtype, pre * post) as BigIntArray;
  const idx = allocate('float64', pre * post);
  for (let i = 0; n > 0 && i < pre; i++) {
    const base = i * n * post;
    const ob = i * post;
    for (let q = 0; q < post; q++) val[ob + q] = src[base + q]!;
    for (let k = 1; k < n; k++) {
      const row = base + k * post;
      for (let q = 0; q < post; q++) {
        const v = src[row + q]!;
        if (isMin ? v < val[ob + q]! : v > val[ob + q]!) {
          val[ob + q] = v;
          idx[ob + q] = k;
        }
      }
    }
  }
  return [new NDArray(val, shape, x.dtype), new NDArray(idx, shape, 'float64'), scalarBlock(n)];
}

/** {@link argMerge} of int64/uint64 intermediates (values compared as BigInts). */
function bigArgMerge(parts: readonly Chunk[], p: ArgParams): Chunk {
  const [v0, i0, c0] = parts[0] as [NDArray, NDArray, NDArray];
  const val = allocate(v0.dtype, v0.size) as BigIntArray;
  const idx = allocate('float64', v0.size);
  val.set(v0.data as BigIntArray);
  idx.set(numberData(i0.data, p.op));
  let count = numberData(c0.data, p.op)[0]!;
  const relative = !p.flat;
  const isMin = p.op === 'argmin';
  for (let k = 1; k < parts.length; k++) {
    const [vb, ib, cb] = parts[k] as [NDArray, NDArray, NDArray];
    const nb = numberData(cb.data, p.op)[0]!;
    if (nb === 0) continue;
    const shift = relative ? count : 0;
    const vals = vb.data as BigIntArray;
    const inds = numberData(ib.data, p.op);
    for (let i = 0; i < val.length; i++) {
      const v = vals[i]!;
      const j = inds[i]! + shift;
      const w = val[i]!;
      if (count === 0 || (isMin ? v < w : v > w) || (!relative && v === w && j < idx[i]!)) {
        val[i] = v;
        idx[i] = j;
      }
    }
    count += nb;
  }
  return [
    new NDArray(val, v0.shape, v0.dtype),
    new NDArray(idx, v0.shape, 'float64'),
    scalarBlock(count),
  ];
}

/** Merge in tree order; relative indices shift by the counts of the spans before them. */
export function argMerge(parts: readonly Chunk[], p: ArgParams): Chunk {
  if (parts.length === 1) return parts[0]!;
  if (isBigIntArray((parts[0] as NDArray[])[0]!.data)) return bigArgMerge(parts, p);
  const [v0, i0, c0] = parts[0] as [NDArray, NDArray, NDArray];
  const val = numberData(allocate(v0.dtype, v0.size), p.op);
  const idx = allocate('float64', v0.size);
  val.set(numberData(v0.data, p.op));
  idx.set(numberData(i0.data, p.op));
  let count = numberData(c0.data, p.op)[0]!;
  const relative = !p.flat;
  for (let k = 1; k < parts.length; k++) {
    const [vb, ib, cb] = parts[k] as [NDArray, NDArray, NDArray];
    const nb = numberData(cb.data, p.op)[0]!;
    if (nb === 0) continue;
    const shift = relative ? count : 0;
    const vals = numberData(vb.data, p.op);
    const inds = numberData(ib.data, p.op);
    for (let i = 0; i < val.length; i++) {
      const v = vals[i]!;
      const j = inds[i]! + shift;
      const w = val[i]!;
      if (
        count === 0 ||
        beats(p.op === 'argmin', v, w) ||
        (!relative && same(v, w) && j < idx[i]!)
      ) {
        val[i] = v;
        idx[i] = j;
      }
    }
    count += nb;
  }
  return [
    new NDArray(val, v0.shape, v0.dtype),
    new NDArray(idx, v0.shape, 'float64'),
    scalarBlock(count),
  ];
}

/** The int32 indices of a merged intermediate; an empty reduction is a ValueError (NumPy). */
export function argFinalize(part: Chunk, p: ArgParams): NDArray {
  const [, i, c] = part as [NDArray, NDArray, NDArray];
  if (c.data[0] === 0 && i.size > 0) {
    throw new ValueError(`${p.op}: attempt to get ${p.op} of an empty sequence`);
  }
  const out = allocate('int32', i.size);
  out.set(numberData(i.data, p.op));
  return new NDArray(out, i.shape, 'int32');
}
