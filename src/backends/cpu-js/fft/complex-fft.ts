// In-place complex FFTs of any length over interleaved (re, im) float64 data: iterative
// radix-2 for powers of two, recursive mixed radix for lengths with small prime factors,
// Bluestein's chirp-z convolution (through a power of two) for the rest. Plans are cached.

import { fourStep } from './four-step.ts';

/** A transform of one length: `run` replaces `data` (2n values, re/im interleaved) by its DFT. */
export interface FftPlan {
  readonly n: number;
  /** The forward DFT (e^{-2πi jk/n}), or the unscaled inverse (e^{+2πi jk/n}). */
  run(data: Float64Array, inverse: boolean): void;
}

const MAX_RADIX = 13;
/** Powers of two from here on go through the four-step algorithm (cache-sized pieces). */
const FOUR_STEP = 1 << 15;
const cache = new Map<number, FftPlan>();

/**
 * cos and sin of 2πj/n, exact at the quarter turns: the angle is folded into the first
 * octant so that values like cos(π/2) come out 0, not 6e-17.
 * @example
 * unitRoot(1, 4); // [0, 1]
 */
export function unitRoot(j: number, n: number): [number, number] {
  // 8j/n in [0, 8): octant and the remainder, all in exact integer arithmetic
  const m = ((j % n) + n) % n;
  const e = 8 * m;
  const oct = Math.floor(e / n);
  const rest = e - oct * n; // angle within the octant: (π/4) · rest / n
  const r = oct % 2 === 0 ? rest : n - rest;
  const t = (Math.PI / 4) * (r / n);
  const [c, s] = r === 0 ? [1, 0] : [Math.cos(t), Math.sin(t)];
  // (c, s) is the root at angle t in [0, π/4]; map back by the octant's symmetry
  switch (oct) {
    case 0:
      return [c, s];
    case 1:
      return [s, c];
    case 2:
      return [-s, c];
    case 3:
      return [-c, s];
    case 4:
      return [-c, -s];
    case 5:
      return [-s, -c];
    case 6:
      return [s, -c];
    default:
      return [c, -s];
  }
}

/** cos and sin of 2πj/n for j < n (forward twiddles are cos - i sin). */
function twiddles(n: number): { cos: Float64Array; sin: Float64Array } {
  const cos = new Float64Array(n);
  const sin = new Float64Array(n);
  for (let j = 0; j < n; j++) [cos[j], sin[j]] = unitRoot(j, n);
  return { cos, sin };
}

function conjugate(data: Float64Array): void {
  for (let i = 1; i < data.length; i += 2) data[i] = -data[i]!;
}

/** The bit-reversal permutation of 0..n-1 (n a power of two). */
function bitReversal(n: number): Uint32Array {
  const rev = new Uint32Array(n);
  for (let i = 0, j = 0; i < n; i++) {
    rev[i] = j;
    let bit = n >> 1;
    while (bit > 0 && j & bit) {
      j ^= bit;
      bit >>= 1;
    }
    j |= bit;
  }
  return rev;
}

/** Swap every pair (i, rev[i]) of complex values once. */
function permute(d: Float64Array, rev: Uint32Array): void {
  for (let i = 0; i < rev.length; i++) {
    const j = rev[i]!;
    if (j <= i) continue;
    const re = d[2 * i]!;
    const im = d[2 * i + 1]!;
    d[2 * i] = d[2 * j]!;
    d[2 * i + 1] = d[2 * j + 1]!;
    d[2 * j] = re;
    d[2 * j + 1] = im;
  }
}

/**
 * Two radix-2 stages in one pass (radix 2²): groups of 4q from four transforms of q,
 * `cos`/`sin` the length-n roots (W_4q^k = root k·n/(4q)).
 */
function radix22Stage(
  d: Float64Array,
  n: number,
  q: number,
  cos: Float64Array,
  sin: Float64Array,
): void {
  const s1 = n / (4 * q);
  for (let start = 0; start < n; start += 4 * q) {
    for (let k = 0; k < q; k++) {
      const ur = cos[k * s1]!;
      const ui = -sin[k * s1]!;
      const wr = cos[2 * k * s1]!;
      const wi = -sin[2 * k * s1]!;
      const a = 2 * (start + k);
      const b = a + 2 * q;
      const c = b + 2 * q;
      const e = c + 2 * q;
      const br = d[b]! * wr - d[b + 1]! * wi;
      const bi = d[b]! * wi + d[b + 1]! * wr;
      const dr = d[e]! * wr - d[e + 1]! * wi;
      const di = d[e]! * wi + d[e + 1]! * wr;
      const a1r = d[a]! + br;
      const a1i = d[a + 1]! + bi;
      const b1r = d[a]! - br;
      const b1i = d[a + 1]! - bi;
      const c1r = d[c]! + dr;
      const c1i = d[c + 1]! + di;
      const d1r = d[c]! - dr;
      const d1i = d[c + 1]! - di;
      const c2r = c1r * ur - c1i * ui;
      const c2i = c1r * ui + c1i * ur;
      // u · (-i) · D'
      const t2r = d1r * ur - d1i * ui;
      const t2i = d1r * ui + d1i * ur;
      const d2r = t2i;
      const d2i = -t2r;
      d[a] = a1r + c2r;
      d[a + 1] = a1i + c2i;
      d[c] = a1r - c2r;
      d[c + 1] = a1i - c2i;
      d[b] = b1r + d2r;
      d[b + 1] = b1i + d2i;
      d[e] = b1r - d2r;
      d[e + 1] = b1i - d2i;
    }
  }
}

/** Iterative power-of-two FFT: bit reversal, one radix-2 pass if log2 n is odd, then radix 2². */
function radix2(n: number): FftPlan {
  const { cos, sin } = twiddles(n);
  const rev = bitReversal(n);
  const odd = Math.log2(n) % 2 === 1;
  const run = (d: Float64Array, inverse: boolean) => {
    if (inverse) conjugate(d);
    permute(d, rev);
    let q = 1;
    if (odd) {
      for (let a = 0; a < 2 * n; a += 4) {
        const xr = d[a + 2]!;
        const xi = d[a + 3]!;
        d[a + 2] = d[a]! - xr;
        d[a + 3] = d[a + 1]! - xi;
        d[a]! += xr;
        d[a + 1]! += xi;
      }
      q = 2;
    }
    for (; 4 * q <= n; q *= 4) radix22Stage(d, n, q, cos, sin);
    if (inverse) conjugate(d);
  };
  return { n, run };
}

/** Prime factors of n, smallest first. */
function factorize(n: number): number[] {
  const out: number[] = [];
  let m = n;
  for (let p = 2; p * p <= m; p++) {
    while (m % p === 0) {
      out.push(p);
      m /= p;
    }
  }
  if (m > 1) out.push(m);
  return out;
}

/** Recursive decimation in time over the factors of n (each a small naive DFT). */
function mixedRadix(n: number, factors: readonly number[]): FftPlan {
  const { cos, sin } = twiddles(n);
  // out[o..] = DFT of the m = len values x[i0 + t·stride], t < len (forward)
  const rec = (
    x: Float64Array,
    i0: number,
    stride: number,
    out: Float64Array,
    o: number,
    len: number,
    f: number,
  ): void => {
    if (len === 1) {
      out[2 * o] = x[2 * i0]!;
      out[2 * o + 1] = x[2 * i0 + 1]!;
      return;
    }
    const p = factors[f]!;
    const m = len / p;
    for (let r = 0; r < p; r++) rec(x, i0 + r * stride, stride * p, out, o + r * m, m, f + 1);
    const tw = n / len; // W_len^j = W_n^(j·tw)
    const tr = new Float64Array(p);
    const ti = new Float64Array(p);
    for (let k = 0; k < m; k++) {
      for (let r = 0; r < p; r++) {
        const j = (r * k * tw) % n;
        const yr = out[2 * (o + r * m + k)]!;
        const yi = out[2 * (o + r * m + k) + 1]!;
        const wr = cos[j]!;
        const wi = -sin[j]!;
        tr[r] = yr * wr - yi * wi;
        ti[r] = yr * wi + yi * wr;
      }
      for (let q = 0; q < p; q++) {
        let sr = 0;
        let si = 0;
        for (let r = 0; r < p; r++) {
          const j = ((r * q) % p) * (n / p);
          const wr = cos[j]!;
          const wi = -sin[j]!;
          sr += tr[r]! * wr - ti[r]! * wi;
          si += tr[r]! * wi + ti[r]! * wr;
        }
        out[2 * (o + k + q * m)] = sr;
        out[2 * (o + k + q * m) + 1] = si;
      }
    }
  };
  const run = (d: Float64Array, inverse: boolean) => {
    if (inverse) conjugate(d);
    const src = d.slice();
    rec(src, 0, 1, d, 0, n, 0);
    if (inverse) conjugate(d);
  };
  return { n, run };
}

/** Bluestein: the DFT as a convolution with the chirp e^{-iπk²/n}, done by a 2^k FFT. */
function bluestein(n: number): FftPlan {
  let size = 1;
  while (size < 2 * n - 1) size <<= 1;
  const inner = fftPlan(size);
  const wr = new Float64Array(n);
  const wi = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    // e^{-iπk²/n} = root k² of 2n (k² mod 2n keeps the angle exact)
    const [c, sn] = unitRoot((k * k) % (2 * n), 2 * n);
    wr[k] = c;
    wi[k] = -sn;
  }
  const b = new Float64Array(2 * size);
  for (let k = 0; k < n; k++) {
    b[2 * k] = wr[k]!;
    b[2 * k + 1] = -wi[k]!;
    if (k > 0) {
      b[2 * (size - k)] = wr[k]!;
      b[2 * (size - k) + 1] = -wi[k]!;
    }
  }
  inner.run(b, false);
  const run = (d: Float64Array, inverse: boolean) => {
    if (inverse) conjugate(d);
    const a = new Float64Array(2 * size);
    for (let k = 0; k < n; k++) {
      const xr = d[2 * k]!;
      const xi = d[2 * k + 1]!;
      a[2 * k] = xr * wr[k]! - xi * wi[k]!;
      a[2 * k + 1] = xr * wi[k]! + xi * wr[k]!;
    }
    inner.run(a, false);
    for (let j = 0; j < size; j++) {
      const ar = a[2 * j]!;
      const ai = a[2 * j + 1]!;
      const br = b[2 * j]!;
      const bi = b[2 * j + 1]!;
      a[2 * j] = ar * br - ai * bi;
      a[2 * j + 1] = ar * bi + ai * br;
    }
    inner.run(a, true);
    for (let k = 0; k < n; k++) {
      const cr = a[2 * k]! / size;
      const ci = a[2 * k + 1]! / size;
      d[2 * k] = cr * wr[k]! - ci * wi[k]!;
      d[2 * k + 1] = cr * wi[k]! + ci * wr[k]!;
    }
    if (inverse) conjugate(d);
  };
  return { n, run };
}

/**
 * The (cached) plan for length n ≥ 1.
 * @example
 * const d = Float64Array.of(1, 0, 2, 0, 3, 0); // [1, 2, 3]
 * fftPlan(3).run(d, false); // d ≈ [6, 0, -1.5, 0.866, -1.5, -0.866]
 */
export function fftPlan(n: number): FftPlan {
  let plan = cache.get(n);
  if (plan !== undefined) return plan;
  const factors = factorize(n);
  if ((n & (n - 1)) === 0 && n >= FOUR_STEP) {
    const n1 = 2 ** Math.floor(Math.log2(n) / 2);
    plan = fourStep(n, fftPlan(n1), fftPlan(n / n1), unitRoot);
  } else if ((n & (n - 1)) === 0) plan = radix2(n);
  else if (factors[factors.length - 1]! <= MAX_RADIX) plan = mixedRadix(n, factors);
  else plan = bluestein(n);
  cache.set(n, plan);
  return plan;
}
