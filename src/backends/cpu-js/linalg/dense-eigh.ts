// Eigen-decomposition of a symmetric dense matrix by cyclic Jacobi rotations
// (Golub & Van Loan, Matrix Computations, §8.5): ascending eigenvalues, orthonormal vectors.

import { eyeMat, type Mat } from './dense-qr.ts';

const MAX_SWEEPS = 60;

/** Rotate rows/columns p and q of the symmetric `a` to zero a[p][q]; the same on v's columns. */
function rotate(a: Float64Array, v: Float64Array, n: number, p: number, q: number): void {
  const apq = a[p * n + q]!;
  const theta = (a[q * n + q]! - a[p * n + p]!) / (2 * apq);
  const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
  const c = 1 / Math.sqrt(t * t + 1);
  const s = t * c;
  for (let k = 0; k < n; k++) {
    const akp = a[k * n + p]!;
    const akq = a[k * n + q]!;
    a[k * n + p] = c * akp - s * akq;
    a[k * n + q] = s * akp + c * akq;
  }
  for (let k = 0; k < n; k++) {
    const apk = a[p * n + k]!;
    const aqk = a[q * n + k]!;
    a[p * n + k] = c * apk - s * aqk;
    a[q * n + k] = s * apk + c * aqk;
  }
  for (let k = 0; k < n; k++) {
    const vkp = v[k * n + p]!;
    const vkq = v[k * n + q]!;
    v[k * n + p] = c * vkp - s * vkq;
    v[k * n + q] = s * vkp + c * vkq;
  }
}

/**
 * Eigenvalues (ascending) and eigenvectors (columns of `vectors`) of the symmetric matrix
 * whose lower triangle is that of `a` (NumPy's eigh, UPLO='L').
 * @example
 * eighDense({ data: Float64Array.of(2, 1, 1, 2), rows: 2, cols: 2 }).values; // [1, 3]
 */
export function eighDense(a: Mat): { values: Float64Array; vectors: Mat } {
  const n = a.rows;
  const w = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      w[i * n + j] = a.data[i * n + j]!;
      w[j * n + i] = a.data[i * n + j]!;
    }
  }
  const v = eyeMat(n).data;
  for (let sweep = 0; sweep < MAX_SWEEPS; sweep++) {
    let off = 0;
    let diag = 0;
    for (let i = 0; i < n; i++) {
      diag += w[i * n + i]! ** 2;
      for (let j = i + 1; j < n; j++) off += w[i * n + j]! ** 2;
    }
    if (off <= 1e-32 * diag || off === 0) break;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) if (w[p * n + q] !== 0) rotate(w, v, n, p, q);
    }
  }
  const order = [...Array(n).keys()].sort((x, y) => w[x * n + x]! - w[y * n + y]!);
  const values = Float64Array.from(order, (k) => w[k * n + k]!);
  const vectors = { data: new Float64Array(n * n), rows: n, cols: n };
  for (let i = 0; i < n; i++) {
    order.forEach((k, c) => {
      vectors.data[i * n + c] = v[i * n + k]!;
    });
  }
  return { values, vectors };
}
