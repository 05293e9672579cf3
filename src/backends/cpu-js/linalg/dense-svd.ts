// Singular value decomposition of a dense matrix: Householder QR down to a square triangle,
// then one-sided Jacobi rotations (Hestenes; Demmel & Veselić) on its columns.

import {
  colsOf,
  eyeMat,
  householderQr,
  type Mat,
  mulMat,
  transposeMat,
  zerosMat,
} from './dense-qr.ts';

const EPS = 2.220446049250313e-16;
const MAX_SWEEPS = 60;

/**
 * Orthogonalize the rows of `w` (n×n, rows are the columns of the matrix) by plane
 * rotations, applying the same rotations to the rows of `v`.
 */
function jacobiRows(w: Float64Array, v: Float64Array, n: number): void {
  for (let sweep = 0; sweep < MAX_SWEEPS; sweep++) {
    let rotated = false;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        let alpha = 0;
        let beta = 0;
        let gamma = 0;
        const rp = p * n;
        const rq = q * n;
        for (let i = 0; i < n; i++) {
          const a = w[rp + i]!;
          const b = w[rq + i]!;
          alpha += a * a;
          beta += b * b;
          gamma += a * b;
        }
        if (gamma === 0 || Math.abs(gamma) <= EPS * Math.sqrt(alpha * beta)) continue;
        rotated = true;
        const zeta = (beta - alpha) / (2 * gamma);
        const t = (zeta >= 0 ? 1 : -1) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta));
        const c = 1 / Math.sqrt(1 + t * t);
        const s = c * t;
        for (const m of [w, v]) {
          for (let i = 0; i < n; i++) {
            const a = m[rp + i]!;
            const b = m[rq + i]!;
            m[rp + i] = c * a - s * b;
            m[rq + i] = s * a + c * b;
          }
        }
      }
    }
    if (!rotated) return;
  }
}

/** Replace the zero rows of `u` (n×n, orthonormal otherwise) by unit vectors orthogonal to the rest. */
function completeRows(u: Float64Array, n: number, live: number): void {
  for (let r = live; r < n; r++) {
    for (let e = 0; e < n; e++) {
      const x = new Float64Array(n);
      x[e] = 1;
      for (let k = 0; k < r; k++) {
        let d = 0;
        for (let i = 0; i < n; i++) d += u[k * n + i]! * x[i]!;
        for (let i = 0; i < n; i++) x[i]! -= d * u[k * n + i]!;
      }
      let norm = 0;
      for (let i = 0; i < n; i++) norm += x[i]! * x[i]!;
      if (norm > 0.25) {
        const inv = 1 / Math.sqrt(norm);
        for (let i = 0; i < n; i++) u[r * n + i] = x[i]! * inv;
        break;
      }
    }
  }
}

/** SVD of a square n×n matrix: U n×n, s (descending), Vᵀ n×n. */
function squareSvd(r: Mat): { u: Mat; s: Float64Array; vt: Mat } {
  const n = r.rows;
  const w = transposeMat(r).data; // row p = column p of r
  const v = eyeMat(n).data;
  jacobiRows(w, v, n);
  const norms = Array.from({ length: n }, (_, p) => {
    let s = 0;
    for (let i = 0; i < n; i++) s += w[p * n + i]! ** 2;
    return Math.sqrt(s);
  });
  const order = [...norms.keys()].sort((a, b) => norms[b]! - norms[a]!);
  const s = Float64Array.from(order, (p) => norms[p]!);
  const ut = new Float64Array(n * n);
  const vt = zerosMat(n, n);
  const tiny = (s[0] ?? 0) * n * EPS;
  let live = 0;
  order.forEach((p, k) => {
    vt.data.set(v.subarray(p * n, p * n + n), k * n);
    if (s[k]! > tiny && s[k]! > 0) {
      for (let i = 0; i < n; i++) ut[k * n + i] = w[p * n + i]! / s[k]!;
      live = k + 1;
    }
  });
  completeRows(ut, n, live);
  return { u: transposeMat({ data: ut, rows: n, cols: n }), s, vt };
}

/**
 * The SVD of `a` (m×n): `a = U diag(s) Vᵀ`, s descending. Reduced: U m×k, Vᵀ k×n with
 * k = min(m, n); full: U m×m, Vᵀ n×n.
 * @example
 * svdDense({ data: Float64Array.of(3, 0, 0, -2), rows: 2, cols: 2 }, false).s; // [3, 2]
 */
export function svdDense(a: Mat, full: boolean): { u: Mat; s: Float64Array; vt: Mat } {
  if (a.rows < a.cols) {
    const t = svdDense(transposeMat(a), full);
    return { u: transposeMat(t.vt), s: t.s, vt: transposeMat(t.u) };
  }
  const { rows: m, cols: n } = a;
  if (n === 0)
    return { u: full ? eyeMat(m) : zerosMat(m, 0), s: new Float64Array(0), vt: zerosMat(0, 0) };
  const { q, r } = householderQr(a, full);
  const small = squareSvd(full ? { data: r.data.slice(0, n * n), rows: n, cols: n } : r);
  const left = mulMat(full ? colsOf(q, 0, n) : q, small.u);
  if (!full) return { u: left, s: small.s, vt: small.vt };
  const u = zerosMat(m, m);
  for (let i = 0; i < m; i++) {
    u.data.set(left.data.subarray(i * n, i * n + n), i * m);
    u.data.set(q.data.subarray(i * m + n, i * m + m), i * m + n);
  }
  return { u, s: small.s, vt: small.vt };
}

/** The singular values of `a`, descending (no vectors: QR, then Jacobi on the triangle). */
export function singularValues(a: Mat): Float64Array {
  const b = a.rows < a.cols ? transposeMat(a) : a;
  if (b.cols === 0) return new Float64Array(0);
  const { r } = householderQr(b, false);
  return squareSvd(r).s;
}
