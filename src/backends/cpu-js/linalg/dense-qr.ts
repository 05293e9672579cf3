// Householder QR of a dense row-major matrix (LAPACK dgeqrf's reflectors and sign choice),
// and the small matrix helpers the other dense factorizations share.

import { gemmAccumulate } from './matmul.ts';

/** A dense row-major float64 matrix. */
export interface Mat {
  readonly data: Float64Array;
  readonly rows: number;
  readonly cols: number;
}

/** A rows×cols matrix of zeros. */
export function zerosMat(rows: number, cols: number): Mat {
  return { data: new Float64Array(rows * cols), rows, cols };
}

/** The n×n identity. */
export function eyeMat(n: number): Mat {
  const m = zerosMat(n, n);
  for (let i = 0; i < n; i++) m.data[i * n + i] = 1;
  return m;
}

/** The transpose of `a`. */
export function transposeMat(a: Mat): Mat {
  const t = zerosMat(a.cols, a.rows);
  for (let i = 0; i < a.rows; i++) {
    for (let j = 0; j < a.cols; j++) t.data[j * a.rows + i] = a.data[i * a.cols + j]!;
  }
  return t;
}

/** `a · b` (the cache-blocked GEMM of the matmul kernel). */
export function mulMat(a: Mat, b: Mat): Mat {
  const c = zerosMat(a.rows, b.cols);
  gemmAccumulate(a.data, 0, b.data, 0, c.data, 0, a.rows, a.cols, b.cols);
  return c;
}

/** Rows [r0, r1) of `a`. */
export function rowsOf(a: Mat, r0: number, r1: number): Mat {
  return { data: a.data.slice(r0 * a.cols, r1 * a.cols), rows: r1 - r0, cols: a.cols };
}

/** Columns [c0, c1) of `a`. */
export function colsOf(a: Mat, c0: number, c1: number): Mat {
  const out = zerosMat(a.rows, c1 - c0);
  for (let i = 0; i < a.rows; i++) {
    out.data.set(a.data.subarray(i * a.cols + c0, i * a.cols + c1), i * out.cols);
  }
  return out;
}

/** One reflector H = I - tau v vᵀ acting on rows [j, m): v[0] = 1 is implied by storage. */
interface Reflector {
  readonly v: Float64Array;
  readonly tau: number;
}

/** Apply H (from row j on) to columns [c0, cols) of `w`: w -= tau v (vᵀ w). */
function reflect(w: Mat, j: number, h: Reflector, c0: number): void {
  const { cols } = w;
  const d = w.data;
  const v = h.v;
  const len = cols - c0;
  const acc = new Float64Array(len);
  const m = w.rows;
  // four rows per sweep: each load of acc serves four products (the loops are short)
  let i = j;
  for (; i + 4 <= m; i += 4) {
    const v0 = v[i - j]!;
    const v1 = v[i + 1 - j]!;
    const v2 = v[i + 2 - j]!;
    const v3 = v[i + 3 - j]!;
    const r = i * cols + c0;
    for (let c = 0; c < len; c++) {
      acc[c]! +=
        v0 * d[r + c]! +
        v1 * d[r + cols + c]! +
        v2 * d[r + 2 * cols + c]! +
        v3 * d[r + 3 * cols + c]!;
    }
  }
  for (; i < m; i++) {
    const vi = v[i - j]!;
    const r = i * cols + c0;
    for (let c = 0; c < len; c++) acc[c]! += vi * d[r + c]!;
  }
  const tau = h.tau;
  for (let c = 0; c < len; c++) acc[c]! *= tau;
  i = j;
  for (; i + 4 <= m; i += 4) {
    const v0 = v[i - j]!;
    const v1 = v[i + 1 - j]!;
    const v2 = v[i + 2 - j]!;
    const v3 = v[i + 3 - j]!;
    const r = i * cols + c0;
    for (let c = 0; c < len; c++) {
      const a = acc[c]!;
      d[r + c]! -= v0 * a;
      d[r + cols + c]! -= v1 * a;
      d[r + 2 * cols + c]! -= v2 * a;
      d[r + 3 * cols + c]! -= v3 * a;
    }
  }
  for (; i < m; i++) {
    const vi = v[i - j]!;
    const r = i * cols + c0;
    for (let c = 0; c < len; c++) d[r + c]! -= vi * acc[c]!;
  }
}

/** The reflector that maps column j of `w` (rows j..m) onto beta·e₁, and beta. */
function reflectorFor(w: Mat, j: number): { h: Reflector; beta: number } {
  const { rows, cols, data } = w;
  const v = new Float64Array(rows - j);
  let norm2 = 0;
  for (let i = j; i < rows; i++) {
    const x = data[i * cols + j]!;
    v[i - j] = x;
    norm2 += x * x;
  }
  const alpha = v[0]!;
  const tail = norm2 - alpha * alpha;
  if (tail === 0) return { h: { v, tau: 0 }, beta: alpha };
  const norm = Math.sqrt(norm2);
  const beta = alpha >= 0 ? -norm : norm;
  const scale = 1 / (alpha - beta);
  for (let i = 1; i < v.length; i++) v[i]! *= scale;
  v[0] = 1;
  return { h: { v, tau: (beta - alpha) / beta }, beta };
}

/**
 * Q and R of `a` (m×n): Householder reflections as LAPACK's dgeqrf (R's diagonal has the
 * opposite sign of the column's leading entry). Reduced: Q m×k, R k×n with k = min(m, n);
 * complete: Q m×m, R m×n.
 * @example
 * householderQr({ data: Float64Array.of(3, 4), rows: 2, cols: 1 }, false); // Q [[-0.6], [-0.8]], R [[-5]]
 */
export function householderQr(a: Mat, complete: boolean): { q: Mat; r: Mat } {
  const { rows: m, cols: n } = a;
  const k = Math.min(m, n);
  const w: Mat = { data: a.data.slice(), rows: m, cols: n };
  const hs: Reflector[] = [];
  for (let j = 0; j < k; j++) {
    const { h, beta } = reflectorFor(w, j);
    hs.push(h);
    if (h.tau !== 0 && j + 1 < n) reflect(w, j, h, j + 1);
    w.data[j * n + j] = beta;
    for (let i = j + 1; i < m; i++) w.data[i * n + j] = 0;
  }
  const qc = complete ? m : k;
  const q = zerosMat(m, qc);
  for (let i = 0; i < qc; i++) q.data[i * qc + i] = 1;
  for (let j = k - 1; j >= 0; j--) if (hs[j]!.tau !== 0) reflect(q, j, hs[j]!, j);
  return { q, r: rowsOf(w, 0, complete ? m : k) };
}
