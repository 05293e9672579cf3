// Dense matrix product of blocks: a cache-blocked i-k-j GEMM accumulating in float64, with
// NumPy matmul semantics (1-d promotion, broadcast batch axes) and sums over contraction blocks.

import {
  allocate,
  allocateUnzeroed,
  type DType,
  isBigDType,
  isComplex,
  type NumberArray,
  numberData,
} from '../../../array/dtype.ts';
import { cStrides, NDArray, shapeSize } from '../../../array/ndarray.ts';
import { arrayBlock } from '../../../kernels/array-block.ts';
import type { Chunk, Kernel } from '../../../kernels/types.ts';
import { sliceND } from '../layout/slice.ts';
import { bigMatmulBlocks } from './matmul-big.ts';
import { complexProduct } from './matmul-complex.ts';

/** Where a task's input block lies in the wrapped array it is given instead (contraction). */
export interface BlockWindow {
  readonly start: readonly number[];
  readonly count: readonly number[];
}

/** Params of the 'matmul' kernel. Inputs are `groups` pairs `(a, b)` whose products are summed. */
export interface MatmulParams {
  readonly dtype: DType;
  /** `a` is a vector (k), `b` is a vector (k): their axis is dropped from the result. */
  readonly aVec: boolean;
  readonly bVec: boolean;
  /** Append a unit axis to the result (partial products of a contraction tree). */
  readonly unitAxis?: boolean;
  /** `a`'s blocks hold the operand transposed, (…, k, m): `x.T @ y` reads `x`'s blocks. */
  readonly aT?: boolean;
  /** `b`'s blocks hold the operand transposed, (…, n, k). */
  readonly bT?: boolean;
  /**
   * Per input, where its 2-D block lies in the wrapped array the input is (null: the input is
   * the block itself); see contraction's `windows`.
   */
  readonly windows?: readonly (BlockWindow | null)[];
}

const KB = 256;
const NB = 512;

/**
 * `c[m×n] += a[m×k] · b[k×n]` on flat row-major float64 data at the given offsets. Loops
 * run i-k-j so the inner loop streams rows of `b` and `c`; four rows of `a` share each load
 * of `b`, and k and j are tiled to stay in cache.
 * @example
 * const c = new Float64Array(4);
 * gemmAccumulate(Float64Array.of(1, 2, 3, 4), 0, Float64Array.of(1, 0, 0, 1), 0, c, 0, 2, 2, 2);
 * // c = [1, 2, 3, 4]
 */
export function gemmAccumulate(
  a: Float64Array,
  aOff: number,
  b: Float64Array,
  bOff: number,
  c: Float64Array,
  cOff: number,
  m: number,
  k: number,
  n: number,
): void {
  for (let k0 = 0; k0 < k; k0 += KB) {
    const k1 = Math.min(k, k0 + KB);
    for (let j0 = 0; j0 < n; j0 += NB) {
      const j1 = Math.min(n, j0 + NB);
      let i = 0;
      for (; i + 4 <= m; i += 4) {
        const ar = aOff + i * k;
        const cr = cOff + i * n;
        for (let p = k0; p < k1; p++) {
          const x0 = a[ar + p]!;
          const x1 = a[ar + k + p]!;
          const x2 = a[ar + 2 * k + p]!;
          const x3 = a[ar + 3 * k + p]!;
          const br = bOff + p * n;
          for (let j = j0; j < j1; j++) {
            const bv = b[br + j]!;
            c[cr + j]! += x0 * bv;
            c[cr + n + j]! += x1 * bv;
            c[cr + 2 * n + j]! += x2 * bv;
            c[cr + 3 * n + j]! += x3 * bv;
          }
        }
      }
      for (; i < m; i++) {
        const ar = aOff + i * k;
        const cr = cOff + i * n;
        for (let p = k0; p < k1; p++) {
          const x = a[ar + p]!;
          const br = bOff + p * n;
          for (let j = j0; j < j1; j++) c[cr + j]! += x * b[br + j]!;
        }
      }
    }
  }
}

/**
 * A GEMM primitive: `c[m×n] += a[m×k] · b[k×n]` on flat row-major float64 data at offsets.
 * cpu-js passes {@link gemmAccumulate}; cpu-blas a BLAS `dgemm`.
 */
export type Gemm = typeof gemmAccumulate;

/**
 * A GEMM primitive that reads transposed operands in place: `c += op(a) · op(b)` where
 * `op(a)` is `a` (m×k) or, with `aT`, the transpose of the k×m matrix stored at `aOff`.
 * A strided one (cpu-blas) also takes the row strides of what `a` and `b` store (`lda`,
 * `ldb`: a block of a larger matrix read in place) and `beta` 0 for `c = op(a) · op(b)`.
 */
export type GemmT = (
  a: Float64Array,
  aOff: number,
  aT: boolean,
  b: Float64Array,
  bOff: number,
  bT: boolean,
  c: Float64Array,
  cOff: number,
  m: number,
  k: number,
  n: number,
  lda?: number,
  ldb?: number,
  beta?: 0 | 1,
) => void;

const TILE = 32;

/**
 * The transpose of the `rows`×`cols` row-major matrix at `off`, as a new `cols`×`rows` one;
 * copied in square tiles so reads and writes both stay in cache.
 * @example
 * transpose2d(Float64Array.of(1, 2, 3, 4, 5, 6), 0, 2, 3); // [1, 4, 2, 5, 3, 6]
 */
export function transpose2d(
  src: Float64Array,
  off: number,
  rows: number,
  cols: number,
): Float64Array {
  const out = new Float64Array(rows * cols);
  for (let i0 = 0; i0 < rows; i0 += TILE) {
    const i1 = Math.min(rows, i0 + TILE);
    for (let j0 = 0; j0 < cols; j0 += TILE) {
      const j1 = Math.min(cols, j0 + TILE);
      for (let i = i0; i < i1; i++) {
        const r = off + i * cols;
        for (let j = j0; j < j1; j++) out[j * rows + i] = src[r + j]!;
      }
    }
  }
  return out;
}

/** The data as float64 (a copy unless it already is): keeps the GEMM loop monomorphic. */
export function asFloat64(data: NumberArray): Float64Array {
  return data instanceof Float64Array ? data : Float64Array.from(data);
}

interface Operand {
  readonly data: Float64Array;
  readonly batch: number[];
  /** Rows and columns of the operand (of the transpose of what is stored, when `t`). */
  readonly rows: number;
  readonly cols: number;
  readonly t: boolean;
  /** Where its matrix starts in `data`, and the row stride of what is stored there. */
  readonly off: number;
  readonly ld: number;
}

/**
 * The operand of block `x`, or, with a window, of that block of `x` (a wrapped array): read in
 * place by a strided GEMM, else sliced out first.
 */
function operandOf(
  x: NDArray,
  win: BlockWindow | null | undefined,
  strided: boolean,
  isVec: boolean,
  isLeft: boolean,
  t = false,
): Operand {
  if (win === null || win === undefined) return asOperand(x, isVec, isLeft, t);
  // read in place only what needs no conversion (float32 data is widened block by block)
  if (!strided || !(x.data instanceof Float64Array)) {
    const step = win.count.map(() => 1);
    return asOperand(sliceND(x, { start: win.start, step, count: win.count }), isVec, isLeft, t);
  }
  const ld = x.shape[1]!;
  const [r, c] = [win.count[0]!, win.count[1]!];
  const off = win.start[0]! * ld + win.start[1]!;
  const data = asFloat64(numberData(x.data, 'matmul'));
  return { data, batch: [], rows: t ? c : r, cols: t ? r : c, t, off, ld };
}

function asOperand(x: NDArray, isVec: boolean, isLeft: boolean, t = false): Operand {
  const nd = x.shape.length;
  const data = asFloat64(numberData(x.data, 'matmul'));
  if (isVec) {
    const k = x.shape[0]!;
    return isLeft
      ? { data, batch: [], rows: 1, cols: k, t: false, off: 0, ld: k }
      : { data, batch: [], rows: k, cols: 1, t: false, off: 0, ld: 1 };
  }
  const [r, c] = [x.shape[nd - 2]!, x.shape[nd - 1]!];
  return {
    data,
    batch: x.shape.slice(0, nd - 2),
    rows: t ? c : r,
    cols: t ? r : c,
    t,
    off: 0,
    ld: c,
  };
}

/** `gemm` taking transposed operands: each is copied untransposed first. */
const copyingTransposes =
  (gemm: Gemm): GemmT =>
  (a, aOff, aT, b, bOff, bT, c, cOff, m, k, n) => {
    const [ad, ao] = aT ? [transpose2d(a, aOff, k, m), 0] : [a, aOff];
    const [bd, bo] = bT ? [transpose2d(b, bOff, n, k), 0] : [b, bOff];
    gemm(ad, ao, bd, bo, c, cOff, m, k, n);
  };

/** Broadcast batch shape and the per-operand batch strides (in matrices; 0 where broadcast). */
function batchLayout(
  a: readonly number[],
  b: readonly number[],
): { shape: number[]; sa: number[]; sb: number[] } {
  const nd = Math.max(a.length, b.length);
  const shape: number[] = [];
  for (let i = 0; i < nd; i++) {
    const da = a[i - (nd - a.length)] ?? 1;
    const db = b[i - (nd - b.length)] ?? 1;
    if (da !== db && da !== 1 && db !== 1) {
      throw new RangeError(`matmul: batch shapes [${a}] and [${b}] do not broadcast`);
    }
    shape.push(da === 1 ? db : da);
  }
  const strides = (s: readonly number[]): number[] => {
    const st = cStrides(s);
    return shape.map((_, i) => {
      const j = i - (nd - s.length);
      return j < 0 || s[j] === 1 ? 0 : st[j]!;
    });
  };
  return { shape, sa: strides(a), sb: strides(b) };
}

/**
 * Accumulate `a @ b` (one pair of blocks) into the float64 result `c`; with `strided`, the
 * operands' strides go to the GEMM, and `first` overwrites `c` (beta 0: it need not be zero).
 */
function accumulatePair(
  a: Operand,
  b: Operand,
  c: Float64Array,
  gemm: GemmT,
  strided: boolean,
  first: boolean,
): number[] {
  if (a.cols !== b.rows) {
    throw new RangeError(`matmul: block inner sizes ${a.cols} and ${b.rows} differ`);
  }
  const { shape, sa, sb } = batchLayout(a.batch, b.batch);
  const m = a.rows;
  const k = a.cols;
  const n = b.cols;
  const count = shapeSize(shape);
  const idx = new Array<number>(shape.length).fill(0);
  for (let t = 0; t < count; t++) {
    let ia = 0;
    let ib = 0;
    for (let d = 0; d < shape.length; d++) {
      ia += idx[d]! * sa[d]!;
      ib += idx[d]! * sb[d]!;
    }
    const aOff = a.off + ia * m * k;
    const bOff = b.off + ib * k * n;
    if (strided)
      gemm(a.data, aOff, a.t, b.data, bOff, b.t, c, t * m * n, m, k, n, a.ld, b.ld, first ? 0 : 1);
    else gemm(a.data, aOff, a.t, b.data, bOff, b.t, c, t * m * n, m, k, n);
    for (let d = shape.length - 1; d >= 0; d--) {
      if (++idx[d]! < shape[d]!) break;
      idx[d] = 0;
    }
  }
  return shape;
}

/** Store a float64 accumulator as `dtype` (bool: nonzero; integers wrap as a C cast). */
export function storeAs(acc: Float64Array, dtype: DType): NumberArray {
  if (dtype === 'float64' && acc.buffer instanceof SharedArrayBuffer) return acc;
  const out = numberData(allocate(dtype, acc.length), 'matmul');
  if (dtype === 'bool') for (let i = 0; i < acc.length; i++) out[i] = acc[i] !== 0 ? 1 : 0;
  else if (dtype === 'float64' || dtype === 'float32') out.set(acc);
  else for (let i = 0; i < acc.length; i++) out[i] = Math.trunc(acc[i]!);
  return out;
}

/**
 * Sum over pairs of `a_g @ b_g` for inputs `[a_0, b_0, a_1, b_1, …]`, each product by `gemm`
 * (transposed operands, `p.aT` / `p.bT`, are copied untransposed for it), or by `gemmT`,
 * which reads them in place, when given; `strided`: gemmT takes strides and beta (cpu-blas),
 * so windows of wrapped data are read in place and the result is not zeroed first.
 * @example
 * matmulBlocks([a, b], { dtype: 'float64', aVec: false, bVec: false }); // a @ b
 */
export function matmulBlocks(
  inputs: readonly Chunk[],
  p: MatmulParams,
  gemm: Gemm = gemmAccumulate,
  gemmT: GemmT = copyingTransposes(gemm),
  strided = false,
): NDArray {
  let acc: Float64Array | undefined;
  let outShape: number[] = [];
  const win = p.windows;
  for (let g = 0; g + 1 < inputs.length; g += 2) {
    const x = arrayBlock(inputs[g], 'matmul');
    const y = arrayBlock(inputs[g + 1], 'matmul');
    const a = operandOf(x, win?.[g], strided, p.aVec, true, p.aT);
    const b = operandOf(y, win?.[g + 1], strided, p.bVec, false, p.bT);
    const batch = batchLayout(a.batch, b.batch).shape;
    const shape = [...batch, ...(p.aVec ? [] : [a.rows]), ...(p.bVec ? [] : [b.cols])];
    const first = acc === undefined;
    if (acc === undefined) {
      outShape = shape;
      const size = shapeSize(batch) * a.rows * b.cols;
      acc =
        p.dtype !== 'float64'
          ? new Float64Array(size)
          : ((strided && a.cols > 0 ? allocateUnzeroed : allocate)(
              'float64',
              size,
            ) as Float64Array);
    } else if (shape.join() !== outShape.join()) {
      throw new RangeError(`matmul: partial products of shapes [${outShape}] and [${shape}]`);
    }
    accumulatePair(a, b, acc, gemmT, strided, first);
  }
  if (acc === undefined) throw new RangeError('matmul: no input blocks');
  const shape = p.unitAxis ? [...outShape, 1] : outShape;
  return new NDArray(storeAs(acc, p.dtype), shape, p.dtype);
}

/**
 * `sum over pairs of a_g @ b_g` for a complex output (p.dtype): four float64 products of the
 * parts (fewer for real operands), see complexProduct.
 * @example
 * complexMatmulBlocks([a, b], { dtype: 'complex128', aVec: false, bVec: false }); // a @ b
 */
export function complexMatmulBlocks(inputs: readonly Chunk[], p: MatmulParams): NDArray {
  const float = (blocks: Chunk[], groups: number[]): NDArray => {
    const w = p.windows;
    const windows = w && groups.flatMap((g) => [w[2 * g] ?? null, w[2 * g + 1] ?? null]);
    return matmulBlocks(blocks, { ...p, dtype: 'float64', windows });
  };
  return complexProduct(inputs, 2, float, p.dtype, 'matmul');
}

function matmulKernel(inputs: Chunk[], p: MatmulParams): NDArray {
  if (isBigDType(p.dtype)) return bigMatmulBlocks(inputs, p);
  return isComplex(p.dtype) ? complexMatmulBlocks(inputs, p) : matmulBlocks(inputs, p);
}

/** Matrix-product kernels by name; registered in backends/cpu-js/registry. */
export const matmulKernels: Record<string, Kernel<never>> = {
  matmul: matmulKernel as Kernel<never>,
};
