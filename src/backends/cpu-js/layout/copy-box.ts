// Copying a box of one C-order block into a box of another: the one loop under rechunk
// merges, result assembly and output places. Axes whose rows are whole in both blocks merge
// into longer runs; long runs copy with TypedArray.set, short ones (a rechunk along the last
// axis makes millions of them) with a plain loop, which costs no view object per run.
// Any dtype: element copies and `set` between arrays of one storage class work for BigInt
// storage (int64, uint64) as for numbers; complex blocks copy as float blocks with a
// trailing (re, im) axis.

import { isComplex, realDType, type TypedArray } from '../../../array/dtype.ts';
import { cStrides, NDArray, shapeSize } from '../../../array/ndarray.ts';
import { setSame } from './storage.ts';

/** Runs shorter than this are copied element by element. */
const SHORT_RUN = 48;

/**
 * Copy the box of `src` at `srcStart` of size `count` to `dstOffset` in `dst` (same ndim,
 * same storage type).
 * @example
 * copyBox(out, [0, 4], block, [0, 0], block.shape); // block into columns 4.. of out
 */
export function copyBox(
  dst: NDArray,
  dstOffset: readonly number[],
  src: NDArray,
  srcStart: readonly number[],
  count: readonly number[],
): void {
  const nd = dst.shape.length;
  if (shapeSize(count) === 0) return;
  if (isComplex(dst.dtype)) {
    const parts = (x: NDArray): NDArray => new NDArray(x.data, [...x.shape, 2], realDType(x.dtype));
    copyBox(parts(dst), [...dstOffset, 0], parts(src), [...srcStart, 0], [...count, 2]);
    return;
  }
  if (nd === 0) {
    dst.data[0] = src.data[0]!;
    return;
  }
  const ds = cStrides(dst.shape);
  const ss = cStrides(src.shape);
  let d = 0;
  let s = 0;
  for (let ax = 0; ax < nd; ax++) {
    d += dstOffset[ax]! * ds[ax]!;
    s += srcStart[ax]! * ss[ax]!;
  }
  // merge trailing axes whose rows the box covers whole in both blocks into one run
  let last = nd - 1;
  let inner = count[last]!;
  while (last > 0 && inner === ss[last - 1] && inner === ds[last - 1]) {
    last--;
    inner *= count[last]!;
  }
  copyRuns(dst.data, d, ds, src.data, s, ss, count, last, inner);
}

/** Copy runs of `inner` elements, axes 0..last-1 of `count` walked in C order. */
function copyRuns(
  dd: TypedArray,
  d0: number,
  ds: readonly number[],
  sd: TypedArray,
  s0: number,
  ss: readonly number[],
  count: readonly number[],
  last: number,
  inner: number,
): void {
  let d = d0;
  let s = s0;
  if (last === 0) {
    setSame(dd, sd.subarray(s, s + inner), d);
    return;
  }
  const idx = new Array<number>(last).fill(0);
  const short = inner < SHORT_RUN;
  // the axis just outside the runs, walked in a loop of its own
  const outer = last - 1;
  const n = count[outer]!;
  const dStep = ds[outer]!;
  const sStep = ss[outer]!;
  for (;;) {
    let dr = d;
    let sr = s;
    if (short) {
      for (let r = 0; r < n; r++, dr += dStep, sr += sStep) {
        for (let i = 0; i < inner; i++) dd[dr + i] = sd[sr + i]!;
      }
    } else {
      for (let r = 0; r < n; r++, dr += dStep, sr += sStep) {
        setSame(dd, sd.subarray(sr, sr + inner), dr);
      }
    }
    let ax = outer - 1;
    for (; ax >= 0; ax--) {
      idx[ax]!++;
      d += ds[ax]!;
      s += ss[ax]!;
      if (idx[ax]! < count[ax]!) break;
      d -= count[ax]! * ds[ax]!;
      s -= count[ax]! * ss[ax]!;
      idx[ax] = 0;
    }
    if (ax < 0) return;
  }
}
