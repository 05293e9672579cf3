// QR of a tall dense matrix as an in-core TSQR: Householder QR of cache-sized row panels,
// a QR of their stacked R factors (recursively), then each panel's Q times its slice.
// Same Q R = A as one Householder QR, but every pass over the data stays in cache.

import { householderQr, type Mat, mulMat, rowsOf } from './dense-qr.ts';

/** Rows per panel: a few times n, at least 256 (a panel of 100 float64 columns ≈ 400 KB). */
const panelRows = (n: number): number => Math.max(256, 4 * n);

/**
 * Reduced Q (m×k) and R (k×n) of `a`, k = min(m, n), through row panels when `a` is tall.
 * @example
 * tallQr({ data: new Float64Array(20000).fill(1), rows: 10000, cols: 2 }).r.rows; // 2
 */
export function tallQr(a: Mat): { q: Mat; r: Mat } {
  const { rows: m, cols: n } = a;
  const p = panelRows(n);
  if (m < 2 * p) return householderQr(a, false);
  const panels: { q: Mat; r: Mat }[] = [];
  for (let r0 = 0; r0 < m; r0 += p)
    panels.push(householderQr(rowsOf(a, r0, Math.min(m, r0 + p)), false));
  const stacked = {
    data: new Float64Array(panels.reduce((s, f) => s + f.r.data.length, 0)),
    rows: panels.reduce((s, f) => s + f.r.rows, 0),
    cols: n,
  };
  let at = 0;
  for (const f of panels) {
    stacked.data.set(f.r.data, at);
    at += f.r.data.length;
  }
  const top = tallQr(stacked);
  const k = top.q.cols;
  const q: Mat = { data: new Float64Array(m * k), rows: m, cols: k };
  let row = 0;
  let off = 0;
  for (const f of panels) {
    const part = mulMat(f.q, rowsOf(top.q, off, off + f.r.rows));
    q.data.set(part.data, row * k);
    row += f.q.rows;
    off += f.r.rows;
  }
  return { q, r: top.r };
}
