// cov and corrcoef (NumPy's) of variables × observations, e.g. channel × time recordings:
// the mean per variable (a reduction tree), then Σ d·dᵀ over time as an einsum whose chunked
// contraction is a tree of per-chunk partial sums; no transpose is ever materialized.

import { checkOptions, optionalBoolean } from '../array/check-options.ts';
import type { TypedArray } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import { LazyArray } from '../array/lazy-array.ts';
import { NDArray, type Nested, ndarray } from '../array/ndarray.ts';
import { formatTuple, formatValue } from '../chunking/format.ts';
import { ShapeError, ValueError } from '../errors.ts';
import { expandDims, squeeze } from './axes.ts';
import { concat } from './concat.ts';
import { einsum } from './einsum.ts';
import { divide, maximum, multiply, sqrt, subtract } from './elementwise-arith.ts';
import { astype, clip } from './elementwise-logic.ts';
import { mean, sum } from './reductions.ts';

/** Options of {@link cov}. */
export interface CovOptions {
  /** More variables with the same observations, appended after x's (NumPy's `y`). */
  y?: ArrayLike;
  /** Each row is a variable, columns are observations (default true); false: the transpose. */
  rowvar?: boolean;
  /** Normalize by n (true) or n - 1 (false, the default). */
  bias?: boolean;
  /** Degrees of freedom subtracted from n; overrides `bias` when given. */
  ddof?: number;
  /** Integer repeat count of each observation (1-d, one per observation, ≥ 0). */
  fweights?: ArrayLike;
  /** Relative importance of each observation (1-d, one per observation, ≥ 0). */
  aweights?: ArrayLike;
}

/** Options of {@link corrcoef}. */
export interface CorrcoefOptions {
  /** More variables with the same observations, appended after x's (NumPy's `y`). */
  y?: ArrayLike;
  rowvar?: boolean;
}

/** x as a 2-d array with variables along axis 0 (rowvar) or 1, and its observation count. */
function variables(fn: string, name: string, x: ArrayLike, rowvar: boolean) {
  let a = asLazy(x, fn);
  if (a.ndim === 1) a = expandDims(a, { axis: rowvar ? 0 : 1 });
  if (a.ndim !== 2) {
    throw new ShapeError(`${fn}: ${name} of shape ${formatTuple(a.shape)} must be 1-d or 2-d`);
  }
  const n = a.shape[rowvar ? 1 : 0];
  if (n === null || n === undefined) {
    throw new ShapeError(
      `${fn}: the observation axis of ${name} has unknown size; call computeChunkSizes(${name}) first`,
    );
  }
  return { a, n };
}

/**
 * x (and y, appended as more variables) as float64, minus each variable's mean over the
 * observations (weighted by `w` when given), and the contraction that sums over them.
 */
function centered(fn: string, x: ArrayLike, rowvar: boolean, y?: ArrayLike, w?: LazyArray) {
  const tAxis = rowvar ? 1 : 0;
  let { a, n } = variables(fn, 'x', x, rowvar);
  if (y !== undefined) {
    const b = variables(fn, 'y', y, rowvar);
    if (b.n !== n) {
      throw new ShapeError(`${fn}: y has ${b.n} observations, x has ${n}; they must agree`);
    }
    a = concat([a, b.a], { axis: 1 - tAxis });
  }
  const f = astype(a, 'float64');
  const avg =
    w === undefined
      ? mean(f, { axis: tAxis, keepdims: true })
      : divide(
          sum(multiply(f, rowvar ? w : expandDims(w, { axis: 1 })), {
            axis: tAxis,
            keepdims: true,
          }),
          sum(w),
        );
  const d = subtract(f, avg);
  const single = a.shape[1 - tAxis] === 1;
  return { d, n, sub: rowvar ? 'it,jt->ij' : 'ti,tj->ij', single };
}

/**
 * A weights option as a float64 vector of `n` observations; values are checked (integers for
 * fweights, none negative) when the weights are given as data rather than as a LazyArray.
 */
function weights(fn: string, name: 'fweights' | 'aweights', w: ArrayLike, n: number): LazyArray {
  if (!(w instanceof LazyArray)) {
    const eager = w instanceof NDArray ? w : ndarray(w as TypedArray | Nested);
    for (let i = 0; i < eager.data.length; i++) {
      const v = Number(eager.data[i]);
      if (name === 'fweights' && !Number.isInteger(v)) {
        throw new ValueError(`${fn}: fweights must be integers, got ${formatValue(v)}`);
      }
      if (v < 0) throw new ValueError(`${fn}: ${name} cannot be negative, got ${formatValue(v)}`);
    }
  }
  const a = asLazy(w, fn);
  if (a.ndim !== 1) {
    throw new ShapeError(`${fn}: ${name} of shape ${formatTuple(a.shape)} must be 1-d`);
  }
  if (a.shape[0] !== n) {
    throw new ShapeError(`${fn}: ${name} has ${a.shape[0]} values for ${n} observations`);
  }
  return astype(a, 'float64');
}

/** NumPy squeezes a 1 × 1 result to 0-d. */
const squeezed = (c: LazyArray, single: boolean): LazyArray => (single ? squeeze(c) : c);

/**
 * Covariance matrix of variables × observations (NumPy's `cov`, float64): Σ w (x − x̄)(x − x̄)ᵀ
 * / fact, chunked along the observations; `y` appends variables, `fweights` and `aweights`
 * weight the observations (their product), and fact is NumPy's: n − ddof unweighted, else
 * Σw − ddof (Σw with ddof 0; Σw − ddof·Σ(w·aweights)/Σw with aweights). `ddof` defaults to 1,
 * or 0 with `bias`; fact ≤ 0 divides by 0 (inf/NaN). 1-d x is one variable (a 1 × 1 result
 * is 0-d, as NumPy's squeeze). Weight values are checked when given as data.
 * @example
 * await compute(cov(fromArray([[0, 1, 2], [2, 1, 0]]))); // [[1, -1], [-1, 1]]
 * await compute(cov([0, 1, 2], { y: [2, 1, 0], fweights: [1, 2, 1] })); // [[0.667, -0.667], …]
 */
export function cov<X extends ArrayLike, Y extends ArrayLike = never>(
  x: X,
  opts: CovOptions & { y?: Y } = {},
): LazyArray<KnownIn<[X, Y]>> {
  const fn = 'cov';
  const o = checkOptions(fn, opts);
  const rowvar = optionalBoolean(fn, 'rowvar', o.rowvar, true);
  const bias = optionalBoolean(fn, 'bias', o.bias, false);
  const ddof = o.ddof ?? (bias ? 0 : 1);
  if (typeof ddof !== 'number' || !Number.isInteger(ddof)) {
    throw new ValueError(`${fn}: ddof ${formatValue(o.ddof)} must be an integer`);
  }
  const { n } = variables(fn, 'x', x, rowvar);
  const fw = o.fweights === undefined ? undefined : weights(fn, 'fweights', o.fweights, n);
  const aw = o.aweights === undefined ? undefined : weights(fn, 'aweights', o.aweights, n);
  const w = fw && aw ? multiply(fw, aw) : (fw ?? aw);
  const { d, sub, single } = centered(fn, x, rowvar, o.y, w);
  if (w === undefined) {
    return squeezed(divide(einsum(sub, d, d), Math.max(n - ddof, 0)), single) as LazyArray<
      KnownIn<[X, Y]>
    >;
  }
  const wSum = sum(w);
  const fact =
    ddof === 0
      ? wSum
      : aw === undefined
        ? subtract(wSum, ddof)
        : subtract(wSum, divide(multiply(sum(multiply(w, aw)), ddof), wSum));
  const dw = multiply(d, rowvar ? w : expandDims(w, { axis: 1 }));
  return squeezed(divide(einsum(sub, d, dw), maximum(fact, 0)), single) as LazyArray<
    KnownIn<[X, Y]>
  >;
}

/**
 * Pearson correlation coefficients of variables × observations (NumPy's `corrcoef`): the
 * covariance over the outer product of the standard deviations, clipped to [-1, 1]. A
 * constant variable gives NaN, as NumPy.
 * @example
 * await compute(corrcoef(fromArray([[0, 1, 2], [2, 1, 0]]))); // [[1, -1], [-1, 1]]
 */
export function corrcoef<X extends ArrayLike, Y extends ArrayLike = never>(
  x: X,
  opts: CorrcoefOptions & { y?: Y } = {},
): LazyArray<KnownIn<[X, Y]>> {
  const fn = 'corrcoef';
  const o = checkOptions(fn, opts);
  const rowvar = optionalBoolean(fn, 'rowvar', o.rowvar, true);
  const { d, sub, single } = centered(fn, x, rowvar, o.y);
  const c = einsum(sub, d, d);
  const ss = sqrt(einsum(rowvar ? 'it,it->i' : 'ti,ti->i', d, d));
  const outer = multiply(expandDims(ss, { axis: 1 }), expandDims(ss, { axis: 0 }));
  return squeezed(clip(divide(c, outer), -1, 1), single) as LazyArray<KnownIn<[X, Y]>>;
}
