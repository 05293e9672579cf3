// linalg's LU-based functions on matrix stacks (inv, solve, det, slogdet, matrixPower), the
// SVD-based ones (pinv, matrixRank), and lstsq on top of TSQR (Dask's lstsq, NumPy's answers).

import { checkOptions } from '../array/check-options.ts';
import type { DType } from '../array/dtype.ts';
import type { ArrayLike } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import { formatTuple, formatValue } from '../chunking/format.ts';
import { ShapeError, ValueError } from '../errors.ts';
import { expandDims, squeeze } from './axes.ts';
import { multiply, subtract } from './elementwise-arith.ts';
import { matmul } from './linalg.ts';
import { coreApply, coreShape, floatOf, linalgInput, matrixOf, squareOf } from './linalg-core.ts';
import { qr } from './linalg-decomp.ts';
import { matrixTranspose } from './linalg-shape.ts';
import { sum } from './reductions.ts';

const EPS: Partial<Record<DType, number>> = {
  float32: 1.1920929e-7,
  float64: 2.220446049250313e-16,
};

/** The relative cutoff: given, or max(m, n) · eps of the result dtype (the standard's default). */
function rtolOf(fn: string, v: unknown, m: number, n: number, dtype: DType): number {
  if (v === undefined) return Math.max(m, n) * EPS[dtype]!;
  if (typeof v !== 'number' || !(v >= 0)) {
    throw new ValueError(`${fn}: rtol ${formatValue(v)} is not a non-negative number`);
  }
  return v;
}

/**
 * The inverse of every square matrix of `x` (LU with partial pivoting). A singular matrix
 * makes compute reject with a TaskError whose cause is a LinAlgError.
 * @example
 * linalg.inv(fromArray([[2, 0], [0, 4]])).compute().toNested(); // [[0.5, 0], [0, 0.25]]
 */
export function inv<X extends ArrayLike>(x: X): LazyArray<KnownIn<[X]>> {
  const fn = 'linalg.inv';
  const { a, n } = squareOf(fn, x);
  const [y] = coreApply({
    fn,
    op: 'inv',
    inputs: [{ array: a, core: 2 }],
    outputs: [{ core: [n, n], dtype: floatOf(a.dtype) }],
  });
  return y! as LazyArray<KnownIn<[X]>>;
}

/**
 * The solution of `x1 · X = x2` for every square matrix of `x1`; `x2` is a stack of n×k
 * matrices, or one vector of length n when it is 1-d (the standard's rule); batch axes
 * broadcast. A singular matrix makes compute reject with a TaskError (cause: LinAlgError).
 * @example
 * linalg.solve(fromArray([[2, 0], [0, 4]]), fromArray([2, 8])).compute().toNested(); // [1, 2]
 */
export function solve<X1 extends ArrayLike, X2 extends ArrayLike>(
  x1: X1,
  x2: X2,
): LazyArray<KnownIn<[X1, X2]>> {
  const fn = 'linalg.solve';
  const { a, n } = squareOf(fn, x1);
  const b0 = linalgInput(fn, x2, 1);
  const vector = b0.ndim === 1;
  const b = vector ? expandDims(b0, { axis: -1 }) : b0;
  const [rows, k] = coreShape(fn, b, 2) as [number, number];
  if (rows !== n) {
    throw new ShapeError(
      `${fn}: x2 of shape ${formatTuple(b0.shape)} does not match ${n}×${n} matrices of x1 ${formatTuple(a.shape)}`,
    );
  }
  const dtype = floatOf(a.dtype === 'float32' && b.dtype === 'float32' ? 'float32' : 'float64');
  const [y] = coreApply({
    fn,
    op: 'solve',
    inputs: [
      { array: a, core: 2 },
      { array: b, core: 2 },
    ],
    outputs: [{ core: [n, k], dtype }],
  });
  return (vector ? squeeze(y!, { axis: -1 }) : y!) as LazyArray<KnownIn<[X1, X2]>>;
}

/**
 * The determinant of every square matrix of `x` (shape `x.shape[:-2]`).
 * @example
 * linalg.det(fromArray([[1, 2], [3, 4]])).compute().toNested(); // -2
 */
export function det<X extends ArrayLike>(x: X): LazyArray<KnownIn<[X]>> {
  const fn = 'linalg.det';
  const { a } = squareOf(fn, x);
  const [d] = coreApply({
    fn,
    op: 'det',
    inputs: [{ array: a, core: 2 }],
    outputs: [{ core: [], dtype: floatOf(a.dtype) }],
  });
  return d! as LazyArray<KnownIn<[X]>>;
}

/** The result of linalg.slogdet: `det = sign · exp(logabsdet)`. */
export interface SlogdetResult<Known extends boolean = boolean> {
  readonly sign: LazyArray<Known>;
  readonly logabsdet: LazyArray<Known>;
}

/**
 * The sign and the natural log of the absolute determinant of every square matrix of `x`
 * (sign 0 and logabsdet -Infinity for a singular one), without overflow.
 * @example
 * const { sign, logabsdet } = linalg.slogdet(fromArray([[1, 2], [3, 4]])); // -1, log 2
 */
export function slogdet<X extends ArrayLike>(x: X): SlogdetResult<KnownIn<[X]>> {
  const fn = 'linalg.slogdet';
  const { a } = squareOf(fn, x);
  const dtype = floatOf(a.dtype);
  const [sign, logabsdet] = coreApply({
    fn,
    op: 'slogdet',
    inputs: [{ array: a, core: 2 }],
    outputs: [
      { core: [], dtype },
      { core: [], dtype },
    ],
  });
  return { sign: sign!, logabsdet: logabsdet! } as SlogdetResult<KnownIn<[X]>>;
}

/**
 * Every square matrix of `x` raised to the integer power `n` (repeated squaring; n = 0 the
 * identity; n < 0 a power of the inverse).
 * @example
 * linalg.matrixPower(fromArray([[1, 1], [0, 1]]), 3).compute().toNested(); // [[1, 3], [0, 1]]
 */
export function matrixPower<X extends ArrayLike>(x: X, n: number): LazyArray<KnownIn<[X]>> {
  const fn = 'linalg.matrixPower';
  if (typeof n !== 'number' || !Number.isInteger(n)) {
    throw new ValueError(`${fn}: n ${formatValue(n)} is not an integer`);
  }
  const { a, n: size } = squareOf(fn, x);
  const [y] = coreApply({
    fn,
    op: 'matrixPower',
    args: { power: n },
    inputs: [{ array: a, core: 2 }],
    outputs: [{ core: [size, size], dtype: floatOf(a.dtype) }],
  });
  return y! as LazyArray<KnownIn<[X]>>;
}

/**
 * The principal square root of every square matrix of `x` (scipy.linalg's sqrtm for a real
 * root): `sqrtm(x) · sqrtm(x) = x`, by the scaled Denman–Beavers iteration. A matrix with
 * an eigenvalue on the closed negative real axis has no real principal root: compute then
 * rejects with a TaskError whose cause is a LinAlgError. Not part of the Array API.
 * @example
 * linalg.sqrtm(fromArray([[4, 0], [0, 9]])).compute().toNested(); // [[2, 0], [0, 3]]
 */
export function sqrtm<X extends ArrayLike>(x: X): LazyArray<KnownIn<[X]>> {
  const fn = 'linalg.sqrtm';
  const { a, n } = squareOf(fn, x);
  const [y] = coreApply({
    fn,
    op: 'sqrtm',
    inputs: [{ array: a, core: 2 }],
    outputs: [{ core: [n, n], dtype: floatOf(a.dtype) }],
  });
  return y! as LazyArray<KnownIn<[X]>>;
}

/** Options of pinv and matrixRank. */
export interface RtolOptions {
  /** Singular values at most rtol · max(S) count as zero (default max(m, n) · eps). */
  readonly rtol?: number;
}

/**
 * The Moore–Penrose pseudo-inverse of every matrix of `x` (n×m for m×n), through its SVD.
 * @example
 * linalg.pinv(fromArray([[1, 0], [0, 0]])).compute().toNested(); // [[1, 0], [0, 0]]
 */
export function pinv<X extends ArrayLike>(x: X, opts?: RtolOptions): LazyArray<KnownIn<[X]>> {
  const fn = 'linalg.pinv';
  const { a, m, n } = matrixOf(fn, x);
  const dtype = floatOf(a.dtype);
  const [y] = coreApply({
    fn,
    op: 'pinv',
    args: { rtol: rtolOf(fn, checkOptions(fn, opts).rtol, m, n, dtype) },
    inputs: [{ array: a, core: 2 }],
    outputs: [{ core: [n, m], dtype }],
  });
  return y! as LazyArray<KnownIn<[X]>>;
}

/**
 * The rank of every matrix of `x`: its singular values above rtol · max(S) (int32).
 * @example
 * linalg.matrixRank(fromArray([[1, 2], [2, 4]])).compute().toNested(); // 1
 */
export function matrixRank<X extends ArrayLike>(x: X, opts?: RtolOptions): LazyArray<KnownIn<[X]>> {
  const fn = 'linalg.matrixRank';
  const { a, m, n } = matrixOf(fn, x);
  const [r] = coreApply({
    fn,
    op: 'matrixRank',
    args: { rtol: rtolOf(fn, checkOptions(fn, opts).rtol, m, n, floatOf(a.dtype)) },
    inputs: [{ array: a, core: 2 }],
    outputs: [{ core: [], dtype: 'int32' }],
  });
  return r! as LazyArray<KnownIn<[X]>>;
}

/** The result of linalg.lstsq (NumPy's four values). */
export interface LstsqResult<Known extends boolean = boolean> {
  /** The minimum-norm least-squares solution: [n] or [n, k]. */
  readonly x: LazyArray<Known>;
  /** Squared 2-norms of `b - a x` per column: [1] for a 1-d b, else [k]. */
  readonly residuals: LazyArray<Known>;
  /** The effective rank of `a` (int32, 0-d). */
  readonly rank: LazyArray<Known>;
  /** The singular values of `a`, descending: [min(m, n)]. */
  readonly s: LazyArray<Known>;
}

/**
 * Least squares: the `x` minimizing `‖b - a x‖₂` (minimum norm where `a` is rank-deficient),
 * for a 2-d `a` (m×n) and `b` of shape [m] or [m, k]. `a` is factored by QR (TSQR when its
 * rows are chunked, one task per row block), then `R x = Qᵀ b` is solved through the SVD of
 * the small R; singular values at most `rcond · max(s)` are dropped (default max(m, n) · eps).
 * Unlike NumPy, `residuals` is always given (NumPy's is empty when rank < n or m <= n).
 * @example
 * const { x, residuals, rank, s } = linalg.lstsq(a, b); // a: [1e6, 10] in row blocks
 */
export function lstsq<A extends ArrayLike, B extends ArrayLike>(
  a: A,
  b: B,
  opts?: { readonly rcond?: number },
): LstsqResult<KnownIn<[A, B]>> {
  const fn = 'linalg.lstsq';
  const A = linalgInput(fn, a, 2);
  if (A.ndim !== 2) throw new ShapeError(`${fn}: a must be 2-d, got shape ${formatTuple(A.shape)}`);
  const [m, n] = coreShape(fn, A, 2) as [number, number];
  const B0 = linalgInput(fn, b, 1);
  const vector = B0.ndim === 1;
  const B = vector ? expandDims(B0, { axis: -1 }) : B0;
  if (B.ndim !== 2 || B.shape[0] !== m) {
    throw new ShapeError(
      `${fn}: b of shape ${formatTuple(B0.shape)} must be [${m}] or [${m}, k] for a of shape ${formatTuple(A.shape)}`,
    );
  }
  const dtype = floatOf(A.dtype === 'float32' && B.dtype === 'float32' ? 'float32' : 'float64');
  const rtol = rtolOf(fn, checkOptions(fn, opts).rcond, m, n, dtype);
  const { Q, R } = qr(A);
  const c = matmul(matrixTranspose(Q), B);
  const k = B.shape[1] as number;
  const [x, rank, s] = coreApply({
    fn,
    op: 'lstsq',
    args: { rtol },
    inputs: [
      { array: R, core: 2 },
      { array: c, core: 2 },
    ],
    outputs: [
      { core: [n, k], dtype },
      { core: [], dtype: 'int32' },
      { core: [Math.min(m, n)], dtype },
    ],
  });
  const resid = subtract(B, matmul(A, x!));
  const residuals = sum(multiply(resid, resid), { axis: 0 });
  return {
    x: vector ? squeeze(x!, { axis: -1 }) : x!,
    residuals,
    rank: rank!,
    s: s!,
  } as LstsqResult<KnownIn<[A, B]>>;
}
