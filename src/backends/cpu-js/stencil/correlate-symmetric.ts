// One pass of a symmetric 1-D correlation (scipy.ndimage's correlate1d with a symmetric
// kernel: `w0·x[i] + Σ_j wj·(x[i-j] + x[i+j])` in float64, in that order) along one axis.

import type { NumberArray } from '../../../array/dtype.ts';

/**
 * `dst[d + k] = w[0]·src[c + k] + Σ_{t=1..r} w[t]·(src[c + k − t·st] + src[c + k + t·st])`
 * for k < n: a line of n neighbouring outputs whose taps lie `st` apart. Each output's sum
 * runs tap by tap in scipy's order (so values match it bit for bit); two outputs at a time
 * share the loop over the taps.
 */
function symmetricLine(
  src: NumberArray,
  c: number,
  st: number,
  dst: NumberArray,
  d: number,
  n: number,
  w: Float64Array,
): void {
  const r = w.length - 1;
  const w0 = w[0]!;
  let k = 0;
  for (; k + 1 < n; k += 2) {
    const ck = c + k;
    let s0 = w0 * src[ck]!;
    let s1 = w0 * src[ck + 1]!;
    for (let t = 1, off = st; t <= r; t++, off += st) {
      const wt = w[t]!;
      s0 += wt * (src[ck - off]! + src[ck + off]!);
      s1 += wt * (src[ck + 1 - off]! + src[ck + 1 + off]!);
    }
    dst[d + k] = s0;
    dst[d + k + 1] = s1;
  }
  if (k < n) {
    const ck = c + k;
    let s = w0 * src[ck]!;
    for (let t = 1, off = st; t <= r; t++, off += st)
      s += w[t]! * (src[ck - off]! + src[ck + off]!);
    dst[d + k] = s;
  }
}

/**
 * The pass along an axis of `len` elements (r of halo each side) of a C-order block seen as
 * (outer, len, inner), into dst of shape (outer, len − 2r, inner). Along the last axis
 * (inner 1) each row is one line with taps 1 apart; along any other axis each output row
 * of `inner` contiguous elements is one line with taps `inner` apart, so every read runs
 * along memory rather than gathering down a strided axis.
 * @example
 * symmetricPass(x, y, 1, 5, 1, Float64Array.of(0.5, 0.25)); // y[i] = x[i+1]/2 + (x[i] + x[i+2])/4
 */
export function symmetricPass(
  src: NumberArray,
  dst: NumberArray,
  outer: number,
  len: number,
  inner: number,
  w: Float64Array,
): void {
  const r = w.length - 1;
  const m = len - 2 * r;
  if (m <= 0) return;
  if (inner === 1) {
    for (let o = 0; o < outer; o++) symmetricLine(src, o * len + r, 1, dst, o * m, m, w);
    return;
  }
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < m; i++) {
      symmetricLine(src, (o * len + i + r) * inner, inner, dst, (o * m + i) * inner, inner, w);
    }
  }
}
