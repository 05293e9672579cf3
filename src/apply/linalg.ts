// matmul and tensordot over chunked arrays: blockwise contractions with GEMM kernels,
// summing partial products over the blocks of the contracted axes.

import { resultType } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import { LazyArray } from '../array/lazy-array.ts';
import type { EinsumParams } from '../backends/cpu-js/linalg/einsum.ts';
import type { MatmulParams } from '../backends/cpu-js/linalg/matmul.ts';
import { broadcastShapes } from '../chunking/broadcast.ts';
import { formatTuple, formatValue } from '../chunking/format.ts';
import { type CallOptions, withCallBackend } from '../dispatch/with-backend.ts';
import { ShapeError, ValueError } from '../errors.ts';
import { normalizeAxis } from './axis-args.ts';
import { planBlockwise } from './blockwise-plan.ts';
import { contraction } from './contraction.ts';
import { viaFloat32 } from './float16-widen.ts';
import { permutationOf } from './transpose.ts';

/** Index letter of axis k (single UTF-16 units clear of ASCII letters). */
const letter = (k: number): string => String.fromCharCode(0x100 + k);

/**
 * Backends whose 'matmul' kernel takes blocks of wrapped data as windows (MatmulParams
 * windows): cpu-blas reads them in place (strided dgemm), cpu-js slices them in the task.
 */
const MATMUL_WINDOWS: ReadonlySet<string> = new Set(['cpu-js', 'cpu-blas']);

/**
 * The matrix product with Array API semantics: 1-d operands are promoted (a vector on the
 * left is a row, on the right a column) and the promoted axis is removed from the result;
 * leading (batch) axes broadcast.
 * @example
 * matmul(a, b); // [2, 3] @ [3, 4] -> [2, 4]
 * matmul(batch, v); // [5, 2, 3] @ [3] -> [5, 2]
 */
export function matmul<A extends ArrayLike, B extends ArrayLike>(
  a: A,
  b: B,
  opts?: CallOptions,
): LazyArray<KnownIn<[A, B]>> {
  return withCallBackend('matmul', opts?.backend, () => matmulOf(a, b)) as LazyArray<
    KnownIn<[A, B]>
  >;
}

/**
 * The array `x` transposes when `x` is a transpose of its last two axes only (`x.T` of a
 * matrix, `matrixTranspose`) on the CPU: matmul then reads that array's blocks and the
 * kernel takes them transposed, so no transposed copy is made.
 */
function untransposed(x: LazyArray): LazyArray | undefined {
  const axes = permutationOf(x.layer);
  const nd = x.ndim;
  if (axes === undefined || x.device !== 'cpu' || nd < 2) return undefined;
  const swapsLastTwo = axes.every(
    (v, i) => v === (i === nd - 2 ? nd - 1 : i === nd - 1 ? nd - 2 : i),
  );
  const source = x.layer.deps[0];
  return swapsLastTwo && source !== undefined ? new LazyArray(source) : undefined;
}

function matmulOf(a: ArrayLike, b: ArrayLike): LazyArray {
  const x = asLazy(a, 'matmul');
  const y = asLazy(b, 'matmul');
  if (x.dtype === 'float16' || y.dtype === 'float16') {
    return viaFloat32([x, y], ([p, q]) => matmulOf(p!, q!));
  }
  if (x.ndim === 0 || y.ndim === 0) {
    throw new ValueError(
      `matmul: operands must have at least one dimension, got shapes ${formatTuple(x.shape)} and ${formatTuple(y.shape)}`,
    );
  }
  const aVec = x.ndim === 1;
  const bVec = y.ndim === 1;
  const kA = x.shape[x.ndim - 1]!;
  const kB = y.shape[bVec ? 0 : y.ndim - 2]!;
  if (kA !== null && kB !== null && kA !== kB) {
    throw new ShapeError(
      `matmul: shapes ${formatTuple(x.shape)} and ${formatTuple(y.shape)} are not aligned (${kA} != ${kB})`,
    );
  }
  const batchA = x.shape.slice(0, Math.max(0, x.ndim - 2));
  const batchB = y.shape.slice(0, Math.max(0, y.ndim - 2));
  const nb = broadcastShapes('matmul', batchA, batchB).length;
  const batch = [...Array(nb).keys()].map(letter).join('');
  const [m, k, n] = ['m', 'k', 'n'];
  const xs = aVec ? undefined : untransposed(x);
  const ys = bVec ? undefined : untransposed(y);
  const ia = aVec ? k : batch.slice(nb - batchA.length) + (xs ? k + m : m + k);
  const ib = bVec ? k : batch.slice(nb - batchB.length) + (ys ? n + k : k + n);
  const out = batch + (aVec ? '' : m) + (bVec ? '' : n);
  const plan = planBlockwise('matmul', out, [
    { array: xs ?? x, index: ia },
    { array: ys ?? y, index: ib },
  ]);
  const dtype = resultType(x.dtype, y.dtype);
  const params: MatmulParams = {
    dtype,
    aVec,
    bVec,
    ...(xs ? { aT: true } : {}),
    ...(ys ? { bT: true } : {}),
  };
  return contraction({
    op: 'matmul',
    token: [],
    plan,
    dtype,
    kernel: 'matmul',
    params,
    windowBackends: MATMUL_WINDOWS,
  });
}

/** Normalized (aAxes, bAxes) of tensordot's `axes` argument. */
function tensordotAxes(axes: unknown, ndimA: number, ndimB: number): [number[], number[]] {
  if (typeof axes === 'number') {
    if (!Number.isInteger(axes) || axes < 0 || axes > Math.min(ndimA, ndimB)) {
      throw new ValueError(
        `tensordot: axes ${formatValue(axes)} must be an integer in [0, ${Math.min(ndimA, ndimB)}]`,
      );
    }
    return [[...Array(axes).keys()].map((i) => ndimA - axes + i), [...Array(axes).keys()]];
  }
  if (!Array.isArray(axes) || axes.length !== 2) {
    throw new ValueError(
      `tensordot: axes ${formatValue(axes)} must be a number or two lists of axes`,
    );
  }
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);
  const [pa, pb] = [list(axes[0]), list(axes[1])];
  if (pa.length !== pb.length) {
    throw new ValueError(
      `tensordot: axes ${formatValue(axes)} pair ${pa.length} with ${pb.length} axes`,
    );
  }
  const na = pa.map((v) => normalizeAxis('tensordot', v, ndimA));
  const nbx = pb.map((v) => normalizeAxis('tensordot', v, ndimB));
  if (new Set(na).size !== na.length || new Set(nbx).size !== nbx.length) {
    throw new ValueError(`tensordot: repeated axis in ${formatValue(axes)}`);
  }
  return [na, nbx];
}

export interface TensordotOptions {
  /** n: the last n axes of `a` with the first n of `b` (default 2); or two lists of axes. */
  readonly axes?: number | readonly [number | readonly number[], number | readonly number[]];
  /** Run on this backend or fail. */
  backend?: string;
}

/**
 * Sum products over pairs of axes of `a` and `b`; the result has `a`'s remaining axes, then
 * `b`'s.
 * @example
 * tensordot(a, b, { axes: 1 }); // [2, 3] x [3, 4] -> [2, 4]
 * tensordot(a, b, { axes: [[0], [1]] }); // [3, 2] x [4, 3] -> [2, 4]
 */
export function tensordot<A extends ArrayLike, B extends ArrayLike>(
  a: A,
  b: B,
  opts: TensordotOptions = {},
): LazyArray<KnownIn<[A, B]>> {
  return withCallBackend('tensordot', opts.backend, () => tensordotOf(a, b, opts)) as LazyArray<
    KnownIn<[A, B]>
  >;
}

function tensordotOf(a: ArrayLike, b: ArrayLike, opts: TensordotOptions): LazyArray {
  const x = asLazy(a, 'tensordot');
  const y = asLazy(b, 'tensordot');
  if (x.dtype === 'float16' || y.dtype === 'float16') {
    return viaFloat32([x, y], ([p, q]) => tensordotOf(p!, q!, opts));
  }
  const [axA, axB] = tensordotAxes(opts.axes ?? 2, x.ndim, y.ndim);
  axA.forEach((ax, i) => {
    const [sa, sb] = [x.shape[ax]!, y.shape[axB[i]!]!];
    if (sa !== null && sb !== null && sa !== sb) {
      throw new ShapeError(
        `tensordot: axis ${ax} of ${formatTuple(x.shape)} (${sa}) does not match axis ${axB[i]} of ${formatTuple(y.shape)} (${sb})`,
      );
    }
  });
  const ia = [...Array(x.ndim).keys()].map(letter);
  const ib = [...Array(y.ndim).keys()].map((k) => letter(x.ndim + k));
  axB.forEach((ax, i) => {
    ib[ax] = ia[axA[i]!]!;
  });
  const out = [
    ...ia.filter((_, ax) => !axA.includes(ax)),
    ...ib.filter((_, ax) => !axB.includes(ax)),
  ].join('');
  const terms = [ia.join(''), ib.join('')];
  const plan = planBlockwise('tensordot', out, [
    { array: x, index: terms[0]! },
    { array: y, index: terms[1]! },
  ]);
  const dtype = resultType(x.dtype, y.dtype);
  const params: EinsumParams = { terms, out, dtype };
  return contraction({ op: 'tensordot', token: [], plan, dtype, kernel: 'einsum', params });
}
