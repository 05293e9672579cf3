// Strided n-d copy: out[i…] = x[start + i*step …] per axis; steps may be negative.
// The core of from-array getters, basic slicing and rechunk splits; any dtype (int64 too;
// complex blocks are copied as float blocks with a trailing (re, im) axis).

import { allocate, isComplex, realDType, type TypedArray } from '../../../array/dtype.ts';
import { NDArray } from '../../../array/ndarray.ts';
import { copyBox } from './copy-box.ts';
import { setSame } from './storage.ts';

/** Per-axis start, step and count of a strided selection. */
export interface StridedSelection {
  readonly start: readonly number[];
  readonly step: readonly number[];
  readonly count: readonly number[];
  /**
   * The result may share the block's memory when the selection is one contiguous run
   * (rechunk splits: NumPy's basic slices are views too). Unset: always a fresh copy.
   */
  readonly view?: boolean;
}

/**
 * Where a selection of a C-contiguous block of `shape` is one contiguous run: its first
 * element's offset, else -1. Leading axes take one index, one axis any unit-step range,
 * and every axis after it is whole.
 */
export function contiguousRun(shape: readonly number[], sel: StridedSelection): number {
  const nd = shape.length;
  let ax = 0;
  while (ax < nd - 1 && sel.count[ax] === 1) ax++;
  if (ax < nd && sel.step[ax] !== 1 && sel.count[ax]! > 1) return -1;
  for (let b = ax + 1; b < nd; b++) {
    if (sel.start[b] !== 0 || sel.count[b] !== shape[b] || sel.step[b] !== 1) return -1;
  }
  let off = 0;
  const strides = new Array<number>(nd);
  for (let a = nd - 1, acc = 1; a >= 0; a--) {
    strides[a] = acc;
    acc *= shape[a]!;
  }
  for (let a = 0; a < nd; a++) off += sel.start[a]! * strides[a]!;
  return off;
}

/**
 * Copy a strided selection of `x` into a new shared NDArray of shape `count`.
 * @example
 * sliceND(x, { start: [0, 3], step: [1, -1], count: [2, 4] });
 */
export function sliceND(x: NDArray, sel: StridedSelection): NDArray {
  const nd = x.shape.length;
  const total = sel.count.reduce((a, b) => a * b, 1);
  if (sel.view === true && total > 0 && nd > 0) {
    const off = contiguousRun(x.shape, sel);
    const w = isComplex(x.dtype) ? 2 : 1;
    if (off >= 0) {
      return new NDArray(x.data.subarray(off * w, (off + total) * w), sel.count, x.dtype);
    }
  }
  const out = allocate(x.dtype, total);
  sliceInto(out, x, sel);
  return new NDArray(out, sel.count, x.dtype);
}

/**
 * Write the strided selection `sel` of `x` into `out` (C order, exactly its size): whole
 * runs with TypedArray.set where the last axis has unit step, a strided loop otherwise.
 */
export function sliceInto(out: TypedArray, x: NDArray, sel: StridedSelection): void {
  if (isComplex(x.dtype)) {
    // the same selection of the parts, every (re, im) pair whole
    const parts = new NDArray(x.data, [...x.shape, 2], realDType(x.dtype));
    sliceInto(out, parts, {
      start: [...sel.start, 0],
      step: [...sel.step, 1],
      count: [...sel.count, 2],
    });
    return;
  }
  const nd = x.shape.length;
  if (out.length === 0) return;
  const src = x.data;
  if (nd === 0) {
    out[0] = src[0]!;
    return;
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
      setSame(out, src.subarray(base, base + innerN), o);
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
}

/** Write `src` into the region of `dst` starting at `offset` (both C-contiguous, same dtype). */
export function writeRegion(dst: NDArray, src: NDArray, offset: readonly number[]): void {
  copyBox(
    dst,
    offset,
    src,
    src.shape.map(() => 0),
    src.shape,
  );
}
