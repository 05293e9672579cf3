// Real-input FFT and its inverse on top of complex-fft.ts: an even length n goes through a
// complex FFT of length n/2 (the even and odd samples as re and im), then one twiddle pass.

import { fftPlan, unitRoot } from './complex-fft.ts';

const packCache = new Map<number, { cos: Float64Array; sin: Float64Array }>();

function halfTwiddles(n: number): { cos: Float64Array; sin: Float64Array } {
  let t = packCache.get(n);
  if (t === undefined) {
    const h = n / 2;
    const cos = new Float64Array(h + 1);
    const sin = new Float64Array(h + 1);
    for (let k = 0; k <= h; k++) {
      [cos[k], sin[k]] = unitRoot(k, n);
    }
    t = { cos, sin };
    packCache.set(n, t);
  }
  return t;
}

/**
 * The first n/2 + 1 DFT terms of the n real values `x` into `out` (interleaved, n + 2 values
 * for even n, n + 1 for odd).
 * @example
 * const out = new Float64Array(4);
 * rfftInto(Float64Array.of(1, 2, 3, 4).subarray(0, 2), 2, out); // [3, 0, -1, 0]
 */
export function rfftInto(x: Float64Array, n: number, out: Float64Array): void {
  const m = Math.floor(n / 2) + 1;
  if (n % 2 === 1 || n < 4) {
    const full = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) full[2 * i] = x[i]!;
    fftPlan(n).run(full, false);
    out.set(full.subarray(0, 2 * m));
    return;
  }
  const h = n / 2;
  const z = scratch(n);
  z.set(x.length === n ? x : x.subarray(0, n));
  fftPlan(h).run(z, false); // z = FFT of x[2t] + i x[2t+1]
  const { cos, sin } = halfTwiddles(n);
  out[0] = z[0]! + z[1]!; // k = 0 and k = h: the even and odd sums
  out[1] = 0;
  out[2 * h] = z[0]! - z[1]!;
  out[2 * h + 1] = 0;
  for (let k = 1; k < h; k++) {
    const b = h - k;
    const zr = z[2 * k]!;
    const zi = z[2 * k + 1]!;
    const cr = z[2 * b]!;
    const ci = -z[2 * b + 1]!;
    const er = (zr + cr) / 2; // even samples' DFT
    const ei = (zi + ci) / 2;
    const or = (zi - ci) / 2; // odd samples' DFT: (z - conj)/(2i)
    const oi = -(zr - cr) / 2;
    const wr = cos[k]!;
    const wi = -sin[k]!;
    out[2 * k] = er + or * wr - oi * wi;
    out[2 * k + 1] = ei + or * wi + oi * wr;
  }
}

const scratchCache = new Map<number, Float64Array>();

/** A reusable buffer of n float64s (kernels run one at a time per thread). */
function scratch(n: number): Float64Array {
  let b = scratchCache.get(n);
  if (b === undefined) {
    if (scratchCache.size > 8) scratchCache.clear();
    b = new Float64Array(n);
    scratchCache.set(n, b);
  }
  return b;
}

/**
 * The n real values whose DFT's first n/2 + 1 terms are `spec` (interleaved; Hermitian
 * symmetry fills the rest; the imaginary parts of terms 0 and n/2 are ignored), unscaled.
 * @example
 * const out = new Float64Array(2);
 * irfftInto(Float64Array.of(3, 0, -1, 0), 2, out); // [2, 4]
 */
export function irfftInto(spec: Float64Array, n: number, out: Float64Array): void {
  const m = Math.floor(n / 2) + 1;
  const full = new Float64Array(2 * n);
  for (let k = 0; k < m; k++) {
    full[2 * k] = spec[2 * k]!;
    full[2 * k + 1] = spec[2 * k + 1]!;
  }
  full[1] = 0;
  if (n % 2 === 0) full[2 * (n / 2) + 1] = 0;
  for (let k = m; k < n; k++) {
    full[2 * k] = full[2 * (n - k)]!;
    full[2 * k + 1] = -full[2 * (n - k) + 1]!;
  }
  fftPlan(n).run(full, true);
  for (let i = 0; i < n; i++) out[i] = full[2 * i]!;
}
