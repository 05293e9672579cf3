// cpu-blas's dense linear algebra ops for the 'linalg' kernel: the reduced QR through LAPACK
// (a TSQR leaf, a tree node's stacked R factors, a single matrix) and TSQR's Q products
// through dgemm, TSQR's row blocks written straight into their outputs. Every other op is
// cpu-js's (support.ts declines them, so dispatch says so).

import { allocate, type DType, numberData } from '../../array/dtype.ts';
import { NDArray } from '../../array/ndarray.ts';
import type { Chunk } from '../../kernels/types.ts';
import { type LinalgParams, linalgBlocks, linalgInput } from '../cpu-js/linalg/batched.ts';
import type { DenseOp } from '../cpu-js/linalg/dense-ops.ts';
import { denseOp, stackRows } from '../cpu-js/linalg/dense-ops.ts';
import type { Mat } from '../cpu-js/linalg/dense-qr.ts';
import type { BlasLibrary } from './library.ts';

/**
 * The dense op `name` on `lib`: LAPACK's or BLAS's for the ops above, cpu-js's otherwise (and
 * where a case falls outside what LAPACK's path takes: a wide or a complete QR).
 * @example
 * const qr = blasDenseOp(lib, 'qr');
 * const [q, r] = qr([{ data, rows: 1000, cols: 10 }], { fn: 'linalg.qr' });
 */
export function blasDenseOp(lib: BlasLibrary, name: string): DenseOp {
  const { qr } = lib;
  const reduced = (a: Mat): Mat[] | undefined => {
    if (qr === undefined || a.rows < a.cols || a.cols === 0) return undefined;
    const { q, r } = qr(a.data, a.rows, a.cols); // the kernel hands each op its own copy
    return [
      { data: q, rows: a.rows, cols: a.cols },
      { data: r, rows: a.cols, cols: a.cols },
    ];
  };
  if (name === 'qr') {
    return (mats, p) => (p.complete ? undefined : reduced(mats[0]!)) ?? denseOp('qr')(mats, p);
  }
  if (name === 'tsqr-stack') {
    return (mats, p) => reduced(stackRows(mats)) ?? denseOp('tsqr-stack')(mats, p);
  }
  if (name === 'tsqr-down') {
    return ([q, g], p) => {
      const c = new Float64Array(q!.rows * g!.cols);
      down(lib, q!.data, q!.rows, p.rows ?? q!.cols, g!.data, g!.cols, p.offset ?? 0, c);
      return [{ data: c, rows: q!.rows, cols: g!.cols }];
    };
  }
  return denseOp(name);
}

const isFloat = (d: DType): d is 'float32' | 'float64' => d === 'float32' || d === 'float64';

/** TSQR's down step into `c` (zeros): q (m×k) times rows [off, off + k) of g (… × cols). */
function down(
  lib: BlasLibrary,
  q: Float64Array,
  m: number,
  k: number,
  g: Float64Array,
  cols: number,
  off: number,
  c: Float64Array,
): void {
  lib.dgemm(q, 0, false, g, off * cols, false, c, 0, m, k, cols);
}

/**
 * The reduced QR of one tall block, Q written into its output buffer: the block is copied
 * there once and LAPACK factors it in place (for float64; float32 goes through a float64
 * copy), so a row block costs one pass over fresh memory, not three.
 */
function qrBlock(lib: BlasLibrary, x: NDArray, p: LinalgParams): Chunk | undefined {
  const [m, n] = x.shape as [number, number];
  const [qt, rt] = [p.dtypes[0]!, p.dtypes[1]!];
  if (lib.qr === undefined || m < n || n === 0 || !isFloat(qt) || !isFloat(rt)) return undefined;
  const out = allocate(qt, m * n);
  const work = out instanceof Float64Array ? out : new Float64Array(m * n);
  work.set(numberData(x.data, p.args.fn));
  const { r } = lib.qr(work, m, n);
  if (work !== out) out.set(work);
  const rOut = allocate(rt, n * n);
  rOut.set(r);
  return [new NDArray(out, [m, n], qt), new NDArray(rOut, [n, n], rt)];
}

/** TSQR's down step: a node's Q times its rows of the parent's Q, by one dgemm into the output. */
function downBlock(lib: BlasLibrary, q: NDArray, g: NDArray, p: LinalgParams): Chunk | undefined {
  const dtype = p.dtypes[0]!;
  if (!(q.data instanceof Float64Array && g.data instanceof Float64Array) || dtype !== 'float64') {
    return undefined;
  }
  const [m, k] = q.shape as [number, number];
  const cols = g.shape[1]!;
  const off = p.args.offset ?? 0;
  if ((p.args.rows ?? k) !== k || off + k > g.shape[0]!) return undefined;
  const c = allocate('float64', m * cols) as Float64Array; // zeros: dgemm adds into it
  down(lib, q.data, m, k, g.data, cols, off, c);
  return new NDArray(c, [m, cols], dtype);
}

/**
 * cpu-blas's 'linalg' kernel: TSQR's leaves and down steps straight into their output
 * buffers, every other case through cpu-js's batched loop with {@link blasDenseOp}.
 * @example
 * blasLinalg(lib, [block], params); // [Q, R] of a row block
 */
export function blasLinalg(lib: BlasLibrary, inputs: readonly Chunk[], p: LinalgParams): Chunk {
  if (p.batchDims === 0 && p.args.complete !== true) {
    const xs = inputs.map((c, i) => linalgInput(c, p.picks?.[i]));
    const direct =
      p.op === 'qr' && xs.length === 1 && xs[0]!.ndim === 2 && p.multi
        ? qrBlock(lib, xs[0]!, p)
        : p.op === 'tsqr-down' && xs.length === 2 && !p.multi
          ? downBlock(lib, xs[0]!, xs[1]!, p)
          : undefined;
    if (direct !== undefined) return direct;
  }
  return linalgBlocks(inputs, p, (name) => blasDenseOp(lib, name));
}
