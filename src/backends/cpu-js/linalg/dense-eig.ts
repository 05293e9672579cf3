// Eigenvalues and eigenvectors of a general real matrix: Householder reduction to Hessenberg
// form, then the shifted (Francis double-step) QR algorithm and back-substitution — JAMA's
// EigenvalueDecomposition (orthes, hqr2; public domain), itself from EISPACK.

import type { Mat } from './dense-qr.ts';

const EPS = 2 ** -52;

type Grid = Float64Array[];

/** Complex division (xr + i xi) / (yr + i yi), Smith's scaling. */
function cdiv(xr: number, xi: number, yr: number, yi: number): [number, number] {
  if (Math.abs(yr) > Math.abs(yi)) {
    const r = yi / yr;
    const d = yr + r * yi;
    return [(xr + r * xi) / d, (xi - r * xr) / d];
  }
  const r = yr / yi;
  const d = yi + r * yr;
  return [(r * xr + xi) / d, (r * xi - xr) / d];
}

/** Reduce H to upper Hessenberg form by orthogonal similarity; V accumulates it. */
function orthes(H: Grid, V: Grid, n: number): void {
  const ort = new Float64Array(n);
  const high = n - 1;
  for (let m = 1; m <= high - 1; m++) {
    let scale = 0;
    for (let i = m; i <= high; i++) scale += Math.abs(H[i]![m - 1]!);
    if (scale === 0) continue;
    let h = 0;
    for (let i = high; i >= m; i--) {
      ort[i] = H[i]![m - 1]! / scale;
      h += ort[i]! * ort[i]!;
    }
    let g = Math.sqrt(h);
    if (ort[m]! > 0) g = -g;
    h -= ort[m]! * g;
    ort[m] = ort[m]! - g;
    for (let j = m; j < n; j++) {
      let f = 0;
      for (let i = high; i >= m; i--) f += ort[i]! * H[i]![j]!;
      f /= h;
      for (let i = m; i <= high; i++) H[i]![j]! -= f * ort[i]!;
    }
    for (let i = 0; i <= high; i++) {
      let f = 0;
      for (let j = high; j >= m; j--) f += ort[j]! * H[i]![j]!;
      f /= h;
      for (let j = m; j <= high; j++) H[i]![j]! -= f * ort[j]!;
    }
    ort[m] = scale * ort[m]!;
    H[m]![m - 1] = scale * g;
  }
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) V[i]![j] = i === j ? 1 : 0;
  for (let m = high - 1; m >= 1; m--) {
    if (H[m]![m - 1] === 0) continue;
    for (let i = m + 1; i <= high; i++) ort[i] = H[i]![m - 1]!;
    for (let j = m; j <= high; j++) {
      let g = 0;
      for (let i = m; i <= high; i++) g += ort[i]! * V[i]![j]!;
      g = g / ort[m]! / H[m]![m - 1]!;
      for (let i = m; i <= high; i++) V[i]![j]! += g * ort[i]!;
    }
  }
}

/** One Francis double-shift QR step on rows l..n, columns m..n (and on V). */
function francisStep(
  H: Grid,
  V: Grid,
  nn: number,
  l: number,
  m: number,
  n: number,
  shift: [number, number, number],
): void {
  let [x, y, w] = shift;
  let p = 0;
  let q = 0;
  let r = 0;
  let z = 0;
  // first column of the double-shift polynomial at row m (recomputed as in hqr2)
  z = H[m]![m]!;
  r = x - z;
  let s = y - z;
  p = (r * s - w) / H[m + 1]![m]! + H[m]![m + 1]!;
  q = H[m + 1]![m + 1]! - z - r - s;
  r = H[m + 2]![m + 1]!;
  s = Math.abs(p) + Math.abs(q) + Math.abs(r);
  p /= s;
  q /= s;
  r /= s;
  for (let i = m + 2; i <= n; i++) {
    H[i]![i - 2] = 0;
    if (i > m + 2) H[i]![i - 3] = 0;
  }
  for (let k = m; k <= n - 1; k++) {
    const notlast = k !== n - 1;
    if (k !== m) {
      p = H[k]![k - 1]!;
      q = H[k + 1]![k - 1]!;
      r = notlast ? H[k + 2]![k - 1]! : 0;
      x = Math.abs(p) + Math.abs(q) + Math.abs(r);
      if (x === 0) continue;
      p /= x;
      q /= x;
      r /= x;
    }
    s = Math.sqrt(p * p + q * q + r * r);
    if (p < 0) s = -s;
    if (s === 0) continue;
    if (k !== m) H[k]![k - 1] = -s * x;
    else if (l !== m) H[k]![k - 1] = -H[k]![k - 1]!;
    p += s;
    x = p / s;
    y = q / s;
    z = r / s;
    q /= p;
    r /= p;
    for (let j = k; j < nn; j++) {
      p = H[k]![j]! + q * H[k + 1]![j]!;
      if (notlast) {
        p += r * H[k + 2]![j]!;
        H[k + 2]![j]! -= p * z;
      }
      H[k]![j]! -= p * x;
      H[k + 1]![j]! -= p * y;
    }
    for (let i = 0; i <= Math.min(n, k + 3); i++) {
      p = x * H[i]![k]! + y * H[i]![k + 1]!;
      if (notlast) {
        p += z * H[i]![k + 2]!;
        H[i]![k + 2]! -= p * r;
      }
      H[i]![k]! -= p;
      H[i]![k + 1]! -= p * q;
    }
    for (let i = 0; i < nn; i++) {
      p = x * V[i]![k]! + y * V[i]![k + 1]!;
      if (notlast) {
        p += z * V[i]![k + 2]!;
        V[i]![k + 2]! -= p * r;
      }
      V[i]![k]! -= p;
      V[i]![k + 1]! -= p * q;
    }
  }
}

/** Where the double step starts: two consecutive small sub-diagonal elements (hqr2's m). */
function startRow(H: Grid, l: number, n: number, shift: [number, number, number]): number {
  const [x, y, w] = shift;
  let m = n - 2;
  for (; m >= l; m--) {
    const z = H[m]![m]!;
    const r0 = x - z;
    const s0 = y - z;
    let p = (r0 * s0 - w) / H[m + 1]![m]! + H[m]![m + 1]!;
    let q = H[m + 1]![m + 1]! - z - r0 - s0;
    let r = H[m + 2]![m + 1]!;
    const s = Math.abs(p) + Math.abs(q) + Math.abs(r);
    p /= s;
    q /= s;
    r /= s;
    if (m === l) break;
    const lhs = Math.abs(H[m]![m - 1]!) * (Math.abs(q) + Math.abs(r));
    const rhs =
      EPS *
      (Math.abs(p) * (Math.abs(H[m - 1]![m - 1]!) + Math.abs(z) + Math.abs(H[m + 1]![m + 1]!)));
    if (lhs < rhs) break;
  }
  return m;
}

/** A converged 2×2 block at rows n-1, n: its two roots (a real pair is rotated to triangular). */
function twoRoots(
  H: Grid,
  V: Grid,
  nn: number,
  n: number,
  exshift: number,
  d: Float64Array,
  e: Float64Array,
): void {
  const w = H[n]![n - 1]! * H[n - 1]![n]!;
  let p = (H[n - 1]![n - 1]! - H[n]![n]!) / 2;
  let q = p * p + w;
  let z = Math.sqrt(Math.abs(q));
  H[n]![n] = H[n]![n]! + exshift;
  H[n - 1]![n - 1] = H[n - 1]![n - 1]! + exshift;
  let x = H[n]![n]!;
  if (q < 0) {
    d[n - 1] = x + p;
    d[n] = x + p;
    e[n - 1] = z;
    e[n] = -z;
    return;
  }
  z = p >= 0 ? p + z : p - z;
  d[n - 1] = x + z;
  d[n] = z !== 0 ? x - w / z : x + z;
  e[n - 1] = 0;
  e[n] = 0;
  x = H[n]![n - 1]!;
  const s = Math.abs(x) + Math.abs(z);
  p = x / s;
  q = z / s;
  const r = Math.sqrt(p * p + q * q);
  p /= r;
  q /= r;
  const rotate = (
    get: (k: number) => [Float64Array, number, Float64Array, number],
    count: number,
    from: number,
  ) => {
    for (let k = from; k < count; k++) {
      const [ra, ia, rb, ib] = get(k);
      const t = ra[ia]!;
      ra[ia] = q * t + p * rb[ib]!;
      rb[ib] = q * rb[ib]! - p * t;
    }
  };
  rotate((j) => [H[n - 1]!, j, H[n]!, j], nn, n - 1);
  rotate((i) => [H[i]!, n - 1, H[i]!, n], n + 1, 0);
  rotate((i) => [V[i]!, n - 1, V[i]!, n], nn, 0);
}

/** The QR iterations of hqr2: H to quasi-triangular (real Schur) form; roots into d + i e. */
function schur(H: Grid, V: Grid, nn: number, d: Float64Array, e: Float64Array, norm: number): void {
  let n = nn - 1;
  let exshift = 0;
  let iter = 0;
  while (n >= 0) {
    let l = n;
    for (; l > 0; l--) {
      let s = Math.abs(H[l - 1]![l - 1]!) + Math.abs(H[l]![l]!);
      if (s === 0) s = norm;
      if (Math.abs(H[l]![l - 1]!) < EPS * s) break;
    }
    if (l === n) {
      H[n]![n] = H[n]![n]! + exshift;
      d[n] = H[n]![n]!;
      e[n] = 0;
      n--;
      iter = 0;
    } else if (l === n - 1) {
      twoRoots(H, V, nn, n, exshift, d, e);
      n -= 2;
      iter = 0;
    } else {
      let x = H[n]![n]!;
      let y = H[n - 1]![n - 1]!;
      let w = H[n]![n - 1]! * H[n - 1]![n]!;
      if (iter === 10) {
        // Wilkinson's ad hoc shift
        exshift += x;
        for (let i = 0; i <= n; i++) H[i]![i]! -= x;
        const s = Math.abs(H[n]![n - 1]!) + Math.abs(H[n - 1]![n - 2]!);
        x = 0.75 * s;
        y = x;
        w = -0.4375 * s * s;
      }
      if (iter === 30) {
        // MATLAB's ad hoc shift
        let s = (y - x) / 2;
        s = s * s + w;
        if (s > 0) {
          s = Math.sqrt(s);
          if (y < x) s = -s;
          s = x - w / ((y - x) / 2 + s);
          for (let i = 0; i <= n; i++) H[i]![i]! -= s;
          exshift += s;
          x = 0.964;
          y = x;
          w = x;
        }
      }
      iter++;
      if (iter > 1000) throw new Error('eig: the QR algorithm did not converge');
      const shift: [number, number, number] = [x, y, w];
      francisStep(H, V, nn, l, startRow(H, l, n, shift), n, shift);
    }
  }
}

/** Eigenvectors of the quasi-triangular H by back-substitution, then back to V's basis. */
function vectors(
  H: Grid,
  V: Grid,
  nn: number,
  d: Float64Array,
  e: Float64Array,
  norm: number,
): void {
  if (norm === 0) return;
  for (let n = nn - 1; n >= 0; n--) {
    const p = d[n]!;
    const q = e[n]!;
    if (q === 0) realVector(H, nn, n, p, d, e, norm);
    else if (q < 0) complexVector(H, n, p, q, d, e, norm);
  }
  for (let j = nn - 1; j >= 0; j--) {
    for (let i = 0; i < nn; i++) {
      let z = 0;
      for (let k = 0; k <= j; k++) z += V[i]![k]! * H[k]![j]!;
      V[i]![j] = z;
    }
  }
}

function realVector(
  H: Grid,
  _nn: number,
  n: number,
  p: number,
  d: Float64Array,
  e: Float64Array,
  norm: number,
): void {
  let l = n;
  let z = 0;
  let s = 0;
  H[n]![n] = 1;
  for (let i = n - 1; i >= 0; i--) {
    const w = H[i]![i]! - p;
    let r = 0;
    for (let j = l; j <= n; j++) r += H[i]![j]! * H[j]![n]!;
    if (e[i]! < 0) {
      z = w;
      s = r;
      continue;
    }
    l = i;
    if (e[i] === 0) H[i]![n] = w !== 0 ? -r / w : -r / (EPS * norm);
    else {
      const x = H[i]![i + 1]!;
      const y = H[i + 1]![i]!;
      const qq = (d[i]! - p) * (d[i]! - p) + e[i]! * e[i]!;
      const t = (x * s - z * r) / qq;
      H[i]![n] = t;
      H[i + 1]![n] = Math.abs(x) > Math.abs(z) ? (-r - w * t) / x : (-s - y * t) / z;
    }
    const t = Math.abs(H[i]![n]!);
    if (EPS * t * t > 1) for (let j = i; j <= n; j++) H[j]![n]! /= t;
  }
}

function complexVector(
  H: Grid,
  n: number,
  p: number,
  q: number,
  d: Float64Array,
  e: Float64Array,
  norm: number,
): void {
  let l = n - 1;
  if (Math.abs(H[n]![n - 1]!) > Math.abs(H[n - 1]![n]!)) {
    H[n - 1]![n - 1] = q / H[n]![n - 1]!;
    H[n - 1]![n] = -(H[n]![n]! - p) / H[n]![n - 1]!;
  } else {
    [H[n - 1]![n - 1], H[n - 1]![n]] = cdiv(0, -H[n - 1]![n]!, H[n - 1]![n - 1]! - p, q);
  }
  H[n]![n - 1] = 0;
  H[n]![n] = 1;
  let z = 0;
  let r = 0;
  let s = 0;
  for (let i = n - 2; i >= 0; i--) {
    let ra = 0;
    let sa = 0;
    for (let j = l; j <= n; j++) {
      ra += H[i]![j]! * H[j]![n - 1]!;
      sa += H[i]![j]! * H[j]![n]!;
    }
    const w = H[i]![i]! - p;
    if (e[i]! < 0) {
      z = w;
      r = ra;
      s = sa;
      continue;
    }
    l = i;
    if (e[i] === 0) [H[i]![n - 1], H[i]![n]] = cdiv(-ra, -sa, w, q);
    else {
      const x = H[i]![i + 1]!;
      const y = H[i + 1]![i]!;
      let vr = (d[i]! - p) * (d[i]! - p) + e[i]! * e[i]! - q * q;
      const vi = (d[i]! - p) * 2 * q;
      if (vr === 0 && vi === 0) {
        vr = EPS * norm * (Math.abs(w) + Math.abs(q) + Math.abs(x) + Math.abs(y) + Math.abs(z));
      }
      [H[i]![n - 1], H[i]![n]] = cdiv(x * r - z * ra + q * sa, x * s - z * sa - q * ra, vr, vi);
      if (Math.abs(x) > Math.abs(z) + Math.abs(q)) {
        H[i + 1]![n - 1] = (-ra - w * H[i]![n - 1]! + q * H[i]![n]!) / x;
        H[i + 1]![n] = (-sa - w * H[i]![n]! - q * H[i]![n - 1]!) / x;
      } else {
        [H[i + 1]![n - 1], H[i + 1]![n]] = cdiv(-r - y * H[i]![n - 1]!, -s - y * H[i]![n]!, z, q);
      }
    }
    const t = Math.max(Math.abs(H[i]![n - 1]!), Math.abs(H[i]![n]!));
    if (EPS * t * t > 1) {
      for (let j = i; j <= n; j++) {
        H[j]![n - 1]! /= t;
        H[j]![n]! /= t;
      }
    }
  }
}

/**
 * Eigenvalues (n×2: re, im) and unit-norm eigenvectors (n×n×2, column j for eigenvalue j) of
 * the general real matrix `a`; complex-conjugate pairs are adjacent, positive imaginary first.
 * @example
 * eigDense({ data: Float64Array.of(0, -1, 1, 0), rows: 2, cols: 2 }).values; // [0, 1, 0, -1]
 */
export function eigDense(a: Mat): { values: Float64Array; vectors: Float64Array } {
  const n = a.rows;
  const H: Grid = Array.from({ length: n }, (_, i) => a.data.slice(i * n, i * n + n));
  const V: Grid = Array.from({ length: n }, () => new Float64Array(n));
  const d = new Float64Array(n);
  const e = new Float64Array(n);
  orthes(H, V, n);
  let norm = 0;
  for (let i = 0; i < n; i++)
    for (let j = Math.max(i - 1, 0); j < n; j++) norm += Math.abs(H[i]![j]!);
  schur(H, V, n, d, e, norm);
  vectors(H, V, n, d, e, norm);
  const values = new Float64Array(2 * n);
  const vecs = new Float64Array(2 * n * n);
  for (let j = 0; j < n; j++) {
    values[2 * j] = d[j]!;
    values[2 * j + 1] = e[j]!;
    // column j: real, or v1 ± i v2 from the pair's two columns
    const [c1, c2, sign] = e[j]! > 0 ? [j, j + 1, 1] : e[j]! < 0 ? [j - 1, j, -1] : [j, -1, 0];
    let norm2 = 0;
    for (let i = 0; i < n; i++) {
      const re = V[i]![c1]!;
      const im = c2 >= 0 ? sign * V[i]![c2]! : 0;
      vecs[2 * (i * n + j)] = re;
      vecs[2 * (i * n + j) + 1] = im;
      norm2 += re * re + im * im;
    }
    const inv = norm2 > 0 ? 1 / Math.sqrt(norm2) : 1;
    for (let i = 0; i < n; i++) {
      vecs[2 * (i * n + j)]! *= inv;
      vecs[2 * (i * n + j) + 1]! *= inv;
    }
  }
  return { values, vectors: vecs };
}
