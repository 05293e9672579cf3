// The loop nests of each reduction operation (sum, prod, min, max, any, all, squared
// deviations), one monomorphic pair per operation so V8 keeps each tight.

import type { RunOp } from './reduce-runs.ts';

/** Sum; folds use four accumulators, enough independent adds to keep up with memory. */
export const sumRuns: RunOp = {
  foldRows(src, s, ss, rows, n, acc, o, os) {
    for (let g = 0; g < rows; g++, s += ss, o += os) {
      let a0 = 0;
      let a1 = 0;
      let a2 = 0;
      let a3 = 0;
      const end = s + n;
      let i = s;
      for (; i + 3 < end; i += 4) {
        a0 += src[i]!;
        a1 += src[i + 1]!;
        a2 += src[i + 2]!;
        a3 += src[i + 3]!;
      }
      for (; i < end; i++) a0 += src[i]!;
      acc[o] = acc[o]! + (a0 + a1 + (a2 + a3));
    }
  },
  accumulateRows(src, s, ss, rows, n, acc, o, os) {
    let g = 0;
    // rows landing on one output row (a reduced leading axis): four at a time, so the
    // running row is read and written once per four input rows; added left to right, so
    // the sums are bit for bit those of one row at a time (the fused paths' order)
    if (os === 0) {
      for (; g + 3 < rows; g += 4, s += 4 * ss) {
        const s1 = s + ss;
        const s2 = s1 + ss;
        const s3 = s2 + ss;
        for (let i = 0; i < n; i++) {
          acc[o + i] = acc[o + i]! + src[s + i]! + src[s1 + i]! + src[s2 + i]! + src[s3 + i]!;
        }
      }
    }
    for (; g < rows; g++, s += ss, o += os) {
      for (let i = 0; i < n; i++) acc[o + i] = acc[o + i]! + src[s + i]!;
    }
  },
};

/** Product in float64 (floats). */
export const prodRuns: RunOp = {
  foldRows(src, s, ss, rows, n, acc, o, os) {
    for (let g = 0; g < rows; g++, s += ss, o += os) {
      let p0 = 1;
      let p1 = 1;
      const end = s + n;
      let i = s;
      for (; i + 1 < end; i += 2) {
        p0 *= src[i]!;
        p1 *= src[i + 1]!;
      }
      if (i < end) p0 *= src[i]!;
      acc[o] = acc[o]! * (p0 * p1);
    }
  },
  accumulateRows(src, s, ss, rows, n, acc, o, os) {
    for (let g = 0; g < rows; g++, s += ss, o += os) {
      for (let i = 0; i < n; i++) acc[o + i] = acc[o + i]! * src[s + i]!;
    }
  },
};

/** Product of integers with 32-bit wrap-around (as NumPy's int32 product). */
export const imulRuns: RunOp = {
  foldRows(src, s, ss, rows, n, acc, o, os) {
    for (let g = 0; g < rows; g++, s += ss, o += os) {
      let p = acc[o]!;
      for (let i = s; i < s + n; i++) p = Math.imul(p, src[i]!);
      acc[o] = p;
    }
  },
  accumulateRows(src, s, ss, rows, n, acc, o, os) {
    for (let g = 0; g < rows; g++, s += ss, o += os) {
      for (let i = 0; i < n; i++) acc[o + i] = Math.imul(acc[o + i]!, src[s + i]!);
    }
  },
};

/** Minimum; a NaN wins and stays (NumPy's propagation). */
export const minRuns: RunOp = {
  foldRows(src, s, ss, rows, n, acc, o, os) {
    for (let g = 0; g < rows; g++, s += ss, o += os) {
      let m = acc[o]!;
      for (let i = s; i < s + n; i++) {
        const v = src[i]!;
        if (v < m || Number.isNaN(v)) m = v;
      }
      acc[o] = m;
    }
  },
  accumulateRows(src, s, ss, rows, n, acc, o, os) {
    for (let g = 0; g < rows; g++, s += ss, o += os) {
      for (let i = 0; i < n; i++) {
        const v = src[s + i]!;
        if (v < acc[o + i]! || Number.isNaN(v)) acc[o + i] = v;
      }
    }
  },
};

/** Maximum; a NaN wins and stays. */
export const maxRuns: RunOp = {
  foldRows(src, s, ss, rows, n, acc, o, os) {
    for (let g = 0; g < rows; g++, s += ss, o += os) {
      let m = acc[o]!;
      for (let i = s; i < s + n; i++) {
        const v = src[i]!;
        if (v > m || Number.isNaN(v)) m = v;
      }
      acc[o] = m;
    }
  },
  accumulateRows(src, s, ss, rows, n, acc, o, os) {
    for (let g = 0; g < rows; g++, s += ss, o += os) {
      for (let i = 0; i < n; i++) {
        const v = src[s + i]!;
        if (v > acc[o + i]! || Number.isNaN(v)) acc[o + i] = v;
      }
    }
  },
};

/** Logical or (NaN is truthy); a fold stops at the first true. */
export const anyRuns: RunOp = {
  foldRows(src, s, ss, rows, n, acc, o, os) {
    for (let g = 0; g < rows; g++, s += ss, o += os) {
      if (acc[o]) continue;
      for (let i = s; i < s + n; i++) {
        if (src[i] !== 0) {
          acc[o] = 1;
          break;
        }
      }
    }
  },
  accumulateRows(src, s, ss, rows, n, acc, o, os) {
    for (let g = 0; g < rows; g++, s += ss, o += os) {
      for (let i = 0; i < n; i++) if (src[s + i] !== 0) acc[o + i] = 1;
    }
  },
};

/** Logical and; a fold stops at the first false. */
export const allRuns: RunOp = {
  foldRows(src, s, ss, rows, n, acc, o, os) {
    for (let g = 0; g < rows; g++, s += ss, o += os) {
      if (!acc[o]) continue;
      for (let i = s; i < s + n; i++) {
        if (src[i] === 0) {
          acc[o] = 0;
          break;
        }
      }
    }
  },
  accumulateRows(src, s, ss, rows, n, acc, o, os) {
    for (let g = 0; g < rows; g++, s += ss, o += os) {
      for (let i = 0; i < n; i++) if (src[s + i] === 0) acc[o + i] = 0;
    }
  },
};

/** Sum of squared deviations from `aux` (the per-output mean): a variance's second pass. */
export const sqdevRuns: RunOp = {
  foldRows(src, s, ss, rows, n, acc, o, os, aux) {
    for (let g = 0; g < rows; g++, s += ss, o += os) {
      const m = aux![o]!;
      let a0 = 0;
      let a1 = 0;
      const end = s + n;
      let i = s;
      for (; i + 1 < end; i += 2) {
        const d0 = src[i]! - m;
        const d1 = src[i + 1]! - m;
        a0 += d0 * d0;
        a1 += d1 * d1;
      }
      if (i < end) {
        const d = src[i]! - m;
        a0 += d * d;
      }
      acc[o] = acc[o]! + (a0 + a1);
    }
  },
  accumulateRows(src, s, ss, rows, n, acc, o, os, aux) {
    const mean = aux!;
    let g = 0;
    // as sumRuns: four rows per pass over the running row when they share it
    if (os === 0) {
      for (; g + 3 < rows; g += 4, s += 4 * ss) {
        const s1 = s + ss;
        const s2 = s1 + ss;
        const s3 = s2 + ss;
        for (let i = 0; i < n; i++) {
          const m = mean[o + i]!;
          const d0 = src[s + i]! - m;
          const d1 = src[s1 + i]! - m;
          const d2 = src[s2 + i]! - m;
          const d3 = src[s3 + i]! - m;
          acc[o + i] = acc[o + i]! + d0 * d0 + d1 * d1 + d2 * d2 + d3 * d3;
        }
      }
    }
    for (; g < rows; g++, s += ss, o += os) {
      for (let i = 0; i < n; i++) {
        const d = src[s + i]! - mean[o + i]!;
        acc[o + i] = acc[o + i]! + d * d;
      }
    }
  },
};
