// Large power-of-two FFTs by Bailey's four-step algorithm: the n values as an n1 × n2
// matrix; n2 FFTs of length n1, twiddles, n1 FFTs of length n2, with blocked transposes
// between, so every small FFT (and its bit reversal) runs in cache.

import type { FftPlan } from './complex-fft.ts';

const TILE = 32;

/** out (cols × rows) = transpose of the complex matrix inp (rows × cols), tile by tile. */
function transpose(inp: Float64Array, out: Float64Array, rows: number, cols: number): void {
  for (let r0 = 0; r0 < rows; r0 += TILE) {
    const r1 = Math.min(rows, r0 + TILE);
    for (let c0 = 0; c0 < cols; c0 += TILE) {
      const c1 = Math.min(cols, c0 + TILE);
      for (let r = r0; r < r1; r++) {
        for (let c = c0; c < c1; c++) {
          const src = 2 * (r * cols + c);
          const dst = 2 * (c * rows + r);
          out[dst] = inp[src]!;
          out[dst + 1] = inp[src + 1]!;
        }
      }
    }
  }
}

/** W_n^e for any e < n as (cos, -sin), from two tables of √n-ish size (one product each). */
function rootTables(n: number, block: number, root: (j: number, n: number) => [number, number]) {
  const lo = new Float64Array(2 * block);
  const hi = new Float64Array(2 * (n / block));
  for (let j = 0; j < block; j++) [lo[2 * j], lo[2 * j + 1]] = root(j, n);
  for (let j = 0; j < n / block; j++) [hi[2 * j], hi[2 * j + 1]] = root(j * block, n);
  return { lo, hi };
}

/**
 * The four-step plan for n = n1 · n2 from plans of n1 and n2.
 * @example
 * fourStep(1 << 20, fftPlan(1024), fftPlan(1024), unitRoot).run(data, false);
 */
export function fourStep(
  n: number,
  p1: FftPlan,
  p2: FftPlan,
  root: (j: number, n: number) => [number, number],
): FftPlan {
  const n1 = p1.n;
  const n2 = p2.n;
  const { lo, hi } = rootTables(n, n2, root);
  const work = new Float64Array(2 * n);
  const row1 = new Float64Array(2 * n1);
  const row2 = new Float64Array(2 * n2);
  const shift = Math.log2(n2);
  const mask = n2 - 1;
  const run = (d: Float64Array, inverse: boolean) => {
    const sign = inverse ? 1 : -1;
    // d is n1 × n2 (x[j1 n2 + j2]); work becomes n2 × n1: row j2 = column j2 of d
    transpose(d, work, n1, n2);
    for (let j2 = 0; j2 < n2; j2++) {
      const off = 2 * j2 * n1;
      row1.set(work.subarray(off, off + 2 * n1));
      p1.run(row1, inverse);
      // twiddle W_n^{j2 k1}: the exponent steps by j2, split as hi · n2 + lo (n2 a power of two)
      let e = 0;
      for (let k1 = 0; k1 < n1; k1++) {
        const h = e >>> shift;
        const l = e & mask;
        const cr = hi[2 * h]! * lo[2 * l]! - hi[2 * h + 1]! * lo[2 * l + 1]!;
        const ci = sign * (hi[2 * h]! * lo[2 * l + 1]! + hi[2 * h + 1]! * lo[2 * l]!);
        const xr = row1[2 * k1]!;
        const xi = row1[2 * k1 + 1]!;
        work[off + 2 * k1] = xr * cr - xi * ci;
        work[off + 2 * k1 + 1] = xr * ci + xi * cr;
        e += j2;
        if (e >= n) e -= n;
      }
    }
    // back to n1 × n2 (row k1), FFT each row over j2
    transpose(work, d, n2, n1);
    for (let k1 = 0; k1 < n1; k1++) {
      const off = 2 * k1 * n2;
      row2.set(d.subarray(off, off + 2 * n2));
      p2.run(row2, inverse);
      d.set(row2, off);
    }
    // X[k1 + n1 k2] = d[k1, k2]: the transpose
    transpose(d, work, n1, n2);
    d.set(work);
  };
  return { n, run };
}
