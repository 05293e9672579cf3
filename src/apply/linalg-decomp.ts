// linalg's factorizations: qr (TSQR when the rows are chunked), svd and svdvals (through
// TSQR for tall chunked matrices, as Dask's), eigh, eigvalsh and cholesky on matrix stacks.

import { checkOptions } from '../array/check-options.ts';
import type { ArrayLike } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import { formatValue } from '../chunking/format.ts';
import { ValueError } from '../errors.ts';
import { matmul } from './linalg.ts';
import { coreApply, floatOf, matrixOf, squareOf } from './linalg-core.ts';
import { rechunk } from './rechunk.ts';
import { tsqr } from './tsqr.ts';

/** The result of linalg.qr. */
export interface QRResult<Known extends boolean = boolean> {
  readonly Q: LazyArray<Known>;
  readonly R: LazyArray<Known>;
}

/** The result of linalg.svd: `x = U · diag(S) · Vh`. */
export interface SVDResult<Known extends boolean = boolean> {
  readonly U: LazyArray<Known>;
  readonly S: LazyArray<Known>;
  readonly Vh: LazyArray<Known>;
}

/** The result of linalg.eigh: `x · eigenvectors = eigenvectors · diag(eigenvalues)`. */
export interface EighResult<Known extends boolean = boolean> {
  readonly eigenvalues: LazyArray<Known>;
  readonly eigenvectors: LazyArray<Known>;
}

/** Options of linalg.qr. */
export interface QrOptions {
  /** 'reduced' (default): Q m×k, R k×n with k = min(m, n); 'complete': Q m×m, R m×n. */
  readonly mode?: 'reduced' | 'complete';
  /** Row blocks whose R factors one TSQR tree node stacks (default 16). */
  readonly splitEvery?: number;
}

/** Options of linalg.svd. */
export interface SvdOptions {
  /** U m×m and Vh n×n (default true, as the standard's); false: U m×k, Vh k×n. */
  readonly fullMatrices?: boolean;
  /** Row blocks whose R factors one TSQR tree node stacks (default 16). */
  readonly splitEvery?: number;
}

/** A 2-d array chunked along its rows only (TSQR's input), or undefined. */
function tallChunked(a: LazyArray): LazyArray | undefined {
  if (a.ndim !== 2 || a.chunks[0]!.length < 2 || a.chunks[0]!.includes(null)) return undefined;
  return a.chunks[1]!.length === 1 ? a : rechunk(a, { 1: -1 });
}

function splitEveryOf(fn: string, v: unknown): number {
  const s = v ?? 16;
  if (typeof s !== 'number' || !Number.isInteger(s) || s < 2) {
    throw new ValueError(`${fn}: splitEvery ${formatValue(v)} must be an integer >= 2`);
  }
  return s;
}

/**
 * The QR factorization `x = Q R` of every matrix of `x` (its last two axes): Q with
 * orthonormal columns, R upper triangular (Householder, LAPACK's signs). A 2-d array chunked
 * along its rows is factored by TSQR: one task per row block, then a tree of small QRs.
 * @example
 * const { Q, R } = linalg.qr(random.normal([100000, 20], { chunks: [10000, 20] }));
 */
export function qr<X extends ArrayLike>(x: X, qrOpts?: QrOptions): QRResult<KnownIn<[X]>> {
  const fn = 'linalg.qr';
  const opts = checkOptions(fn, qrOpts);
  const mode = opts.mode ?? 'reduced';
  if (mode !== 'reduced' && mode !== 'complete') {
    throw new ValueError(`${fn}: mode ${formatValue(mode)} must be 'reduced' or 'complete'`);
  }
  const splitEvery = splitEveryOf(fn, opts.splitEvery);
  const { a, m, n } = matrixOf(fn, x);
  const tall = mode === 'reduced' ? tallChunked(a) : undefined;
  const dtype = floatOf(a.dtype);
  if (tall !== undefined) return tsqr(fn, tall, splitEvery, dtype) as QRResult<KnownIn<[X]>>;
  const k = mode === 'complete' ? m : Math.min(m, n);
  const [Q, R] = coreApply({
    fn,
    op: 'qr',
    args: { complete: mode === 'complete' },
    inputs: [{ array: a, core: 2 }],
    outputs: [
      { core: [m, k], dtype },
      { core: [k, n], dtype },
    ],
  });
  return { Q: Q!, R: R! } as QRResult<KnownIn<[X]>>;
}

/**
 * The singular value decomposition `x = U · diag(S) · Vh` of every matrix of `x`, S
 * descending (one-sided Jacobi after a Householder QR). A 2-d array chunked along its rows
 * with `fullMatrices: false` goes through TSQR, as Dask's svd: U chunked like x's rows.
 * @example
 * const { U, S, Vh } = linalg.svd(x, { fullMatrices: false });
 */
export function svd<X extends ArrayLike>(x: X, svdOpts?: SvdOptions): SVDResult<KnownIn<[X]>> {
  const fn = 'linalg.svd';
  const opts = checkOptions(fn, svdOpts);
  const full = opts.fullMatrices ?? true;
  if (typeof full !== 'boolean') {
    throw new ValueError(`${fn}: fullMatrices ${formatValue(full)} is not a boolean`);
  }
  const splitEvery = splitEveryOf(fn, opts.splitEvery);
  const { a, m, n } = matrixOf(fn, x);
  const dtype = floatOf(a.dtype);
  const k = Math.min(m, n);
  const tall = full ? undefined : tallChunked(a);
  if (tall !== undefined && m >= n) {
    const { Q, R } = tsqr(fn, tall, splitEvery, dtype);
    const small = svd(R, { fullMatrices: false });
    return { U: matmul(Q, small.U), S: small.S, Vh: small.Vh } as SVDResult<KnownIn<[X]>>;
  }
  const [U, S, Vh] = coreApply({
    fn,
    op: 'svd',
    args: { full },
    inputs: [{ array: a, core: 2 }],
    outputs: [
      { core: [m, full ? m : k], dtype },
      { core: [k], dtype },
      { core: [full ? n : k, n], dtype },
    ],
  });
  return { U: U!, S: S!, Vh: Vh! } as SVDResult<KnownIn<[X]>>;
}

/**
 * The singular values of every matrix of `x`, descending (shape `[..., min(m, n)]`); a 2-d
 * array chunked along its rows goes through TSQR first.
 * @example
 * linalg.svdvals(fromArray([[3, 0], [0, -4]])).compute().toNested(); // [4, 3]
 */
export function svdvals<X extends ArrayLike>(x: X): LazyArray<KnownIn<[X]>> {
  const fn = 'linalg.svdvals';
  const { a, m, n } = matrixOf(fn, x);
  const dtype = floatOf(a.dtype);
  const tall = tallChunked(a);
  if (tall !== undefined && m >= n)
    return svdvals(tsqr(fn, tall, 16, dtype).R) as LazyArray<KnownIn<[X]>>;
  const [S] = coreApply({
    fn,
    op: 'svdvals',
    inputs: [{ array: a, core: 2 }],
    outputs: [{ core: [Math.min(m, n)], dtype }],
  });
  return S! as LazyArray<KnownIn<[X]>>;
}

/**
 * Eigenvalues (ascending) and orthonormal eigenvectors (columns) of every symmetric matrix
 * of `x`; only the lower triangle is read, as NumPy's (cyclic Jacobi).
 * @example
 * const { eigenvalues, eigenvectors } = linalg.eigh(fromArray([[2, 1], [1, 2]])); // [1, 3]
 */
export function eigh<X extends ArrayLike>(x: X): EighResult<KnownIn<[X]>> {
  const fn = 'linalg.eigh';
  const { a, n } = squareOf(fn, x);
  const dtype = floatOf(a.dtype);
  const [w, v] = coreApply({
    fn,
    op: 'eigh',
    inputs: [{ array: a, core: 2 }],
    outputs: [
      { core: [n], dtype },
      { core: [n, n], dtype },
    ],
  });
  return { eigenvalues: w!, eigenvectors: v! } as EighResult<KnownIn<[X]>>;
}

/** The result of linalg.eig: complex values as (re, im) pairs on a trailing axis of size 2. */
export interface EigResult<Known extends boolean = boolean> {
  /** `[..., n, 2]`: conjugate pairs adjacent, positive imaginary part first (unsorted, as NumPy's). */
  readonly eigenvalues: LazyArray<Known>;
  /** `[..., n, n, 2]`: column j (unit 2-norm) belongs to eigenvalue j. */
  readonly eigenvectors: LazyArray<Known>;
}

/**
 * Eigenvalues and right eigenvectors of every general (non-symmetric) square matrix of `x`
 * (NumPy's eig): Hessenberg reduction, then the shifted QR algorithm (EISPACK's hqr2, via
 * JAMA). Until complex dtypes exist, both come as (re, im) pairs on a trailing axis of size 2.
 * Not part of the Array API standard.
 * @example
 * linalg.eig(fromArray([[0, -1], [1, 0]])).eigenvalues.compute().toNested(); // [[0, 1], [0, -1]]
 */
export function eig<X extends ArrayLike>(x: X): EigResult<KnownIn<[X]>> {
  const fn = 'linalg.eig';
  const { a, n } = squareOf(fn, x);
  const dtype = floatOf(a.dtype);
  const [w, v] = coreApply({
    fn,
    op: 'eig',
    inputs: [{ array: a, core: 2 }],
    outputs: [
      { core: [n, 2], dtype },
      { core: [n, n, 2], dtype },
    ],
  });
  return { eigenvalues: w!, eigenvectors: v! } as EigResult<KnownIn<[X]>>;
}

/**
 * The eigenvalues (ascending) of every symmetric matrix of `x` (its lower triangle).
 * @example
 * linalg.eigvalsh(fromArray([[2, 1], [1, 2]])).compute().toNested(); // [1, 3]
 */
export function eigvalsh<X extends ArrayLike>(x: X): LazyArray<KnownIn<[X]>> {
  const fn = 'linalg.eigvalsh';
  const { a, n } = squareOf(fn, x);
  const [w] = coreApply({
    fn,
    op: 'eigvalsh',
    inputs: [{ array: a, core: 2 }],
    outputs: [{ core: [n], dtype: floatOf(a.dtype) }],
  });
  return w! as LazyArray<KnownIn<[X]>>;
}

/**
 * The Cholesky factor of every symmetric positive-definite matrix of `x`: lower L with
 * `x = L Lᵀ` (or upper U = Lᵀ with `{ upper: true }`). A matrix that is not positive definite
 * makes compute reject with a TaskError whose cause is a LinAlgError.
 * @example
 * linalg.cholesky(fromArray([[4, 2], [2, 5]])).compute().toNested(); // [[2, 0], [1, 2]]
 */
export function cholesky<X extends ArrayLike>(
  x: X,
  opts?: { readonly upper?: boolean },
): LazyArray<KnownIn<[X]>> {
  const fn = 'linalg.cholesky';
  const upper = checkOptions(fn, opts).upper ?? false;
  if (typeof upper !== 'boolean') {
    throw new ValueError(`${fn}: upper ${formatValue(upper)} is not a boolean`);
  }
  const { a, n } = squareOf(fn, x);
  const [l] = coreApply({
    fn,
    op: 'cholesky',
    args: { upper },
    inputs: [{ array: a, core: 2 }],
    outputs: [{ core: [n, n], dtype: floatOf(a.dtype) }],
  });
  return l! as LazyArray<KnownIn<[X]>>;
}
