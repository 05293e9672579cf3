// Strided n-d copy: out[i…] = x[start + i*step …] per axis; steps may be negative.
// The core of from-array getters, basic slicing and rechunk splits.

import { allocate } from '../../../array/dtype.ts';
import { NDArray } from '../../../array/ndarray.ts';

/** Per-axis start, step and count of a strided selection. */
export interface StridedSelection {
  readonly start: readonly number[];
  readonly step: readonly number[];
  readonly count: readonly number[];
}

/**
 * Copy a strided selection of `x` into a new shared NDArray of shape `count`.
 * @example
 * sliceND(x, { start: [0, 3], step: [1, -1], count: [2, 4] });
 */
export function sliceND(x: NDArray, sel: StridedSelection): NDArray {
  const nd = x.shape.length;
  const total = sel.count.reduce((a, b) => a * b, 1);
  const out = allocate(x.dtype, total);
  if (total === 0) return new NDArray(out, sel.count, x.dtype);
  const src = x.data;
  if (nd === 0) {
    out[0] = src[0]!;
    return new NDArray(out, [], x.dtype);
  }
  const strides = new Array<number>(nd);
  for (let ax = nd - 1, acc = 1; ax >= 0; ax--) {
    strides[ax] = acc;
    acc *= x.shape[ax]!;
  }
  const last = nd - 1;
  const innerN = sel.count[last]!;
  const innerStep = sel.step[last]! * strides[last]!;
  const idx = new Array<number>(nd).fill(0);
  let base = 0;
  for (let ax = 0; ax < nd; ax++) base += sel.start[ax]! * strides[ax]!;
  const contiguous = innerStep === 1;
  let o = 0;
  for (;;) {
    if (contiguous) {
      out.set(src.subarray(base, base + innerN), o);
      o += innerN;
    } else {
      for (let i = 0, s = base; i < innerN; i++, s += innerStep) out[o++] = src[s]!;
    }
    // odometer over the outer axes
    let ax = last - 1;
    for (; ax >= 0; ax--) {
      idx[ax]!++;
      base += sel.step[ax]! * strides[ax]!;
      if (idx[ax]! < sel.count[ax]!) break;
      base -= sel.count[ax]! * sel.step[ax]! * strides[ax]!;
      idx[ax] = 0;
    }
    if (ax < 0) break;
  }
  return new NDArray(out, sel.count, x.dtype);
}

/** Write `src` into the region of `dst` starting at `offset` (both C-contiguous, same dtype). */
export function writeRegion(dst: NDArray, src: NDArray, offset: readonly number[]): void {
  const nd = dst.shape.length;
  if (src.size === 0) return;
  if (nd === 0) {
    dst.data[0] = src.data[0]!;
    return;
  }
  const dstStrides = new Array<number>(nd);
  for (let ax = nd - 1, acc = 1; ax >= 0; ax--) {
    dstStrides[ax] = acc;
    acc *= dst.shape[ax]!;
  }
  const last = nd - 1;
  const innerN = src.shape[last]!;
  const idx = new Array<number>(nd).fill(0);
  let base = 0;
  for (let ax = 0; ax < nd; ax++) base += offset[ax]! * dstStrides[ax]!;
  let s = 0;
  for (;;) {
    dst.data.set(src.data.subarray(s, s + innerN), base);
    s += innerN;
    let ax = last - 1;
    for (; ax >= 0; ax--) {
      idx[ax]!++;
      base += dstStrides[ax]!;
      if (idx[ax]! < src.shape[ax]!) break;
      base -= src.shape[ax]! * dstStrides[ax]!;
      idx[ax] = 0;
    }
    if (ax < 0) break;
  }
}
