// cov and corrcoef (NumPy's) of variables × observations, e.g. channel × time recordings:
// the mean per variable (a reduction tree), then Σ d·dᵀ over time as an einsum whose chunked
// contraction is a tree of per-chunk partial sums; no transpose is ever materialized.

import { checkOptions, optionalBoolean } from '../array/check-options.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import { formatTuple, formatValue } from '../chunking/format.ts';
import { ShapeError, ValueError } from '../errors.ts';
import { expandDims, squeeze } from './axes.ts';
import { einsum } from './einsum.ts';
import { divide, multiply, sqrt, subtract } from './elementwise-arith.ts';
import { astype, clip } from './elementwise-logic.ts';
import { mean } from './reductions.ts';

/** Options of {@link cov}. */
export interface CovOptions {
  /** Each row is a variable, columns are observations (default true); false: the transpose. */
  rowvar?: boolean;
  /** Normalize by n (true) or n - 1 (false, the default). */
  bias?: boolean;
  /** Degrees of freedom subtracted from n; overrides `bias` when given. */
  ddof?: number;
}

/** Options of {@link corrcoef}. */
export interface CorrcoefOptions {
  rowvar?: boolean;
}

/** x as float64 with variables along `vAxis` (0 or 1 of a 2-d array), deviations from the mean. */
function centered(fn: string, x: ArrayLike, rowvar: boolean) {
  let a = asLazy(x, fn);
  if (a.ndim === 1) a = expandDims(a, { axis: rowvar ? 0 : 1 });
  if (a.ndim !== 2) {
    throw new ShapeError(`${fn}: x of shape ${formatTuple(a.shape)} must be 1-d or 2-d`);
  }
  const tAxis = rowvar ? 1 : 0;
  const n = a.shape[tAxis];
  if (n === null || n === undefined) {
    throw new ShapeError(
      `${fn}: the observation axis has unknown size; call computeChunkSizes(x) first`,
    );
  }
  const f = astype(a, 'float64');
  const d = subtract(f, mean(f, { axis: tAxis, keepdims: true }));
  const single = a.shape[1 - tAxis] === 1;
  return { d, n, sub: rowvar ? 'it,jt->ij' : 'ti,tj->ij', single };
}

/** NumPy squeezes a 1 × 1 result to 0-d. */
const squeezed = (c: LazyArray, single: boolean): LazyArray => (single ? squeeze(c) : c);

/**
 * Covariance matrix of variables × observations (NumPy's `cov`, float64): Σ (x − x̄)(x − x̄)ᵀ
 * / (n − ddof), chunked along the observations. 1-d x is one variable (a 0-d result, as
 * NumPy's squeeze). `ddof` defaults to 1, or 0 with `bias`; n ≤ ddof divides by 0 (inf/NaN).
 * NumPy's `y`, `fweights` and `aweights` are not supported.
 * @example
 * await compute(cov(fromArray([[0, 1, 2], [2, 1, 0]]))); // [[1, -1], [-1, 1]]
 */
export function cov(x: ArrayLike, opts: CovOptions = {}): LazyArray {
  const fn = 'cov';
  const o = checkOptions(fn, opts);
  const rowvar = optionalBoolean(fn, 'rowvar', o.rowvar, true);
  const bias = optionalBoolean(fn, 'bias', o.bias, false);
  const ddof = o.ddof ?? (bias ? 0 : 1);
  if (typeof ddof !== 'number' || !Number.isInteger(ddof)) {
    throw new ValueError(`${fn}: ddof ${formatValue(o.ddof)} must be an integer`);
  }
  const { d, n, sub, single } = centered(fn, x, rowvar);
  return squeezed(divide(einsum(sub, d, d), Math.max(n - ddof, 0)), single);
}

/**
 * Pearson correlation coefficients of variables × observations (NumPy's `corrcoef`): the
 * covariance over the outer product of the standard deviations, clipped to [-1, 1]. A
 * constant variable gives NaN, as NumPy.
 * @example
 * await compute(corrcoef(fromArray([[0, 1, 2], [2, 1, 0]]))); // [[1, -1], [-1, 1]]
 */
export function corrcoef(x: ArrayLike, opts: CorrcoefOptions = {}): LazyArray {
  const fn = 'corrcoef';
  const o = checkOptions(fn, opts);
  const rowvar = optionalBoolean(fn, 'rowvar', o.rowvar, true);
  const { d, sub, single } = centered(fn, x, rowvar);
  const c = einsum(sub, d, d);
  const ss = sqrt(einsum(rowvar ? 'it,it->i' : 'ti,ti->i', d, d));
  const outer = multiply(expandDims(ss, { axis: 1 }), expandDims(ss, { axis: 0 }));
  return squeezed(clip(divide(c, outer), -1, 1), single);
}
