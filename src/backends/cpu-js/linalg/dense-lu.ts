// LU factorization with partial pivoting (LAPACK dgetrf's row exchanges) and what it gives:
// solve, inverse, determinant, sign and log of the determinant; and Cholesky.

import { LinAlgError } from '../../../errors.ts';
import { eyeMat, type Mat, zerosMat } from './dense-qr.ts';

/** P A = L U packed in one matrix (L unit lower, U upper), the row order and its parity. */
export interface Lu {
  readonly lu: Float64Array;
  readonly n: number;
  readonly perm: Int32Array;
  readonly sign: number;
  /** The first exactly zero pivot, or -1. */
  readonly zeroPivot: number;
}

/**
 * The LU factorization of the square `a` with partial pivoting.
 * @example
 * luFactor({ data: Float64Array.of(0, 1, 2, 3), rows: 2, cols: 2 }).sign; // -1
 */
export function luFactor(a: Mat): Lu {
  const n = a.rows;
  const lu = a.data.slice();
  const perm = Int32Array.from({ length: n }, (_, i) => i);
  let sign = 1;
  let zeroPivot = -1;
  for (let j = 0; j < n; j++) {
    let piv = j;
    let best = Math.abs(lu[j * n + j]!);
    for (let i = j + 1; i < n; i++) {
      const v = Math.abs(lu[i * n + j]!);
      if (v > best) [piv, best] = [i, v];
    }
    if (piv !== j) {
      for (let k = 0; k < n; k++) {
        const t = lu[j * n + k]!;
        lu[j * n + k] = lu[piv * n + k]!;
        lu[piv * n + k] = t;
      }
      [perm[j], perm[piv]] = [perm[piv]!, perm[j]!];
      sign = -sign;
    }
    const d = lu[j * n + j]!;
    if (d === 0) {
      if (zeroPivot < 0) zeroPivot = j;
      continue;
    }
    for (let i = j + 1; i < n; i++) {
      const f = lu[i * n + j]! / d;
      lu[i * n + j] = f;
      if (f === 0) continue;
      for (let k = j + 1; k < n; k++) lu[i * n + k]! -= f * lu[j * n + k]!;
    }
  }
  return { lu, n, perm, sign, zeroPivot };
}

/** X with A X = B for the factored A (B n×k); LinAlgError for a singular A. */
export function luSolve(f: Lu, b: Mat, fn: string): Mat {
  if (f.zeroPivot >= 0) throw new LinAlgError(`${fn}: singular matrix`);
  const { n, lu, perm } = f;
  const k = b.cols;
  const x = zerosMat(n, k);
  for (let i = 0; i < n; i++) x.data.set(b.data.subarray(perm[i]! * k, perm[i]! * k + k), i * k);
  for (let i = 0; i < n; i++) {
    for (let p = 0; p < i; p++) {
      const l = lu[i * n + p]!;
      if (l !== 0) for (let c = 0; c < k; c++) x.data[i * k + c]! -= l * x.data[p * k + c]!;
    }
  }
  for (let i = n - 1; i >= 0; i--) {
    for (let p = i + 1; p < n; p++) {
      const u = lu[i * n + p]!;
      if (u !== 0) for (let c = 0; c < k; c++) x.data[i * k + c]! -= u * x.data[p * k + c]!;
    }
    const d = lu[i * n + i]!;
    for (let c = 0; c < k; c++) x.data[i * k + c]! /= d;
  }
  return x;
}

/** The inverse of the square `a`; LinAlgError when it is singular. */
export function invDense(a: Mat, fn: string): Mat {
  return luSolve(luFactor(a), eyeMat(a.rows), fn);
}

/** sign(det a) and log|det a| (sign 0 and -Infinity for a singular a), as NumPy's slogdet. */
export function slogdetDense(a: Mat): { sign: number; logabsdet: number } {
  const f = luFactor(a);
  if (f.zeroPivot >= 0) return { sign: 0, logabsdet: -Infinity };
  let sign = f.sign;
  let log = 0;
  for (let i = 0; i < f.n; i++) {
    const d = f.lu[i * f.n + i]!;
    if (d < 0) sign = -sign;
    log += Math.log(Math.abs(d));
  }
  return { sign, logabsdet: log };
}

/** The determinant of the square `a` (the product of the LU pivots). */
export function detDense(a: Mat): number {
  const f = luFactor(a);
  let det = f.sign;
  for (let i = 0; i < f.n; i++) det *= f.lu[i * f.n + i]!;
  return det;
}

/**
 * The Cholesky factor of the symmetric positive-definite `a` (its lower triangle is read,
 * as NumPy's): lower L with a = L Lᵀ, or upper U = Lᵀ. LinAlgError when not positive definite.
 * @example
 * choleskyDense({ data: Float64Array.of(4, 2, 2, 5), rows: 2, cols: 2 }, false, 'cholesky').data; // [2, 0, 1, 2]
 */
export function choleskyDense(a: Mat, upper: boolean, fn: string): Mat {
  const n = a.rows;
  const l = zerosMat(n, n);
  const d = l.data;
  for (let j = 0; j < n; j++) {
    let s = a.data[j * n + j]!;
    for (let k = 0; k < j; k++) s -= d[j * n + k]! ** 2;
    if (!(s > 0)) throw new LinAlgError(`${fn}: matrix is not positive definite`);
    const ljj = Math.sqrt(s);
    d[j * n + j] = ljj;
    for (let i = j + 1; i < n; i++) {
      let t = a.data[i * n + j]!;
      for (let k = 0; k < j; k++) t -= d[i * n + k]! * d[j * n + k]!;
      d[i * n + j] = t / ljj;
    }
  }
  if (!upper) return l;
  const u = zerosMat(n, n);
  for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) u.data[j * n + i] = d[i * n + j]!;
  return u;
}

/**
 * The principal square root of `a` by the scaled Denman–Beavers iteration (Higham,
 * "Functions of Matrices", §6.3): Y → √a, Z → √a⁻¹. LinAlgError when `a` is singular or the
 * iteration does not converge (an eigenvalue on the closed negative real axis: no real root).
 * @example
 * sqrtmDense({ data: Float64Array.of(4, 0, 0, 9), rows: 2, cols: 2 }, 'sqrtm').data; // [2, 0, 0, 3]
 */
export function sqrtmDense(a: Mat, fn: string): Mat {
  const n = a.rows;
  let y: Mat = { data: a.data.slice(), rows: n, cols: n };
  let z = eyeMat(n);
  for (let it = 0; it < 100; it++) {
    const yi = invDense(y, fn);
    const zi = invDense(z, fn);
    // determinant scaling speeds the first steps: g = |det(Y) det(Z)|^(-1/(2n))
    const { logabsdet: ly } = slogdetDense(y);
    const { logabsdet: lz } = slogdetDense(z);
    const g = it < 10 ? Math.exp(-(ly + lz) / (2 * n)) : 1;
    const ny = zerosMat(n, n);
    const nz = zerosMat(n, n);
    let change = 0;
    let size = 0;
    for (let i = 0; i < n * n; i++) {
      ny.data[i] = 0.5 * (g * y.data[i]! + zi.data[i]! / g);
      nz.data[i] = 0.5 * (g * z.data[i]! + yi.data[i]! / g);
      change = Math.max(change, Math.abs(ny.data[i]! - y.data[i]!));
      size = Math.max(size, Math.abs(ny.data[i]!));
    }
    y = ny;
    z = nz;
    if (change <= 1e-14 * Math.max(size, 1e-300)) return y;
  }
  throw new LinAlgError(
    `${fn}: the square root iteration did not converge (no real principal root?)`,
  );
}
