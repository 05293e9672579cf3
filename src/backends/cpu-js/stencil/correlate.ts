// 'correlate-axes': 1-D correlations along the axes of a block that already holds its halos
// (scipy.ndimage's correlate1d passes), each result stored in the block's dtype.

import { allocate, type DType, type NumberArray, numberData } from '../../../array/dtype.ts';
import { NDArray, shapeSize } from '../../../array/ndarray.ts';
import { arrayBlock } from '../../../kernels/array-block.ts';
import type { Chunk, Kernel } from '../../../kernels/types.ts';
import { symmetricPass } from './correlate-symmetric.ts';
import { type Float32Pass, wasmSymmetricPasses } from './correlate-wasm.ts';

/**
 * Params of one pass of 'correlate-axes': the block holds `before` and `after` halo elements along
 * `axis`; output element i is `Σ_j weights[j] · block[i + j]` along it (the core only).
 */
export interface CorrelateAxisParams {
  readonly axis: number;
  readonly weights: readonly number[];
  readonly before: number;
  readonly after: number;
  /**
   * How scipy sums, so integer results truncate alike: 'mean' adds the window and divides
   * by its length (uniform_filter1d); 'symmetric' pairs mirrored taps around the centre
   * (correlate1d with a symmetric kernel; needs before = after); default: tap by tap.
   */
  readonly order?: 'mean' | 'symmetric';
}

/** Taps as [weight, offset, paired offset or -1], in the order scipy adds them. */
function tapOrder(p: CorrelateAxisParams): [number, number, number][] {
  const w = p.weights;
  if (p.order === 'mean') return w.map((_, j) => [1, j, -1]);
  if (p.order !== 'symmetric') return w.map((wj, j) => [wj, j, -1]);
  const c = p.before;
  const taps: [number, number, number][] = [[w[c]!, c, -1]];
  for (let j = 1; j <= c; j++) taps.push([w[c + j]!, c - j, c + j]);
  return taps;
}

/**
 * The last-axis case (one element per window step): each output a scalar sum over the taps,
 * singles then mirrored pairs (tapOrder puts every single first), divided by `div`.
 */
function correlateRows(
  f: NumberArray,
  out: NumberArray,
  rows: number,
  len: number,
  m: number,
  taps: readonly [number, number, number][],
  div: number,
): void {
  const singles = taps.filter((t) => t[2] < 0);
  const pairs = taps.filter((t) => t[2] >= 0);
  const sw = Float64Array.from(singles, (t) => t[0]);
  const sa = Int32Array.from(singles, (t) => t[1]);
  const pw = Float64Array.from(pairs, (t) => t[0]);
  const pa = Int32Array.from(pairs, (t) => t[1]);
  const pb = Int32Array.from(pairs, (t) => t[2]);
  const ns = sw.length;
  const np = pw.length;
  for (let r = 0; r < rows; r++) {
    const row = r * len;
    const dst = r * m;
    for (let i = 0; i < m; i++) {
      const at = row + i;
      let acc = 0;
      for (let t = 0; t < ns; t++) acc += sw[t]! * f[at + sa[t]!]!;
      for (let t = 0; t < np; t++) acc += pw[t]! * (f[at + pa[t]!]! + f[at + pb[t]!]!);
      out[dst + i] = div === 1 ? acc : acc / div;
    }
  }
}

/** A pass's float64 weights from the centre out, when it can run as symmetricPass. */
function symmetricWeights(p: CorrelateAxisParams): Float64Array | null {
  if (p.order !== 'symmetric' || p.before !== p.after) return null;
  return Float64Array.from(p.weights.slice(p.before));
}

/** One pass of `x` into `out` (of the core's size along p.axis); returns the result. */
function correlateAxis(x: NDArray, p: CorrelateAxisParams, out: NumberArray): NDArray {
  const f = numberData(x.data, 'correlate');
  const outer = shapeSize(x.shape.slice(0, p.axis));
  const len = x.shape[p.axis]!;
  const inner = shapeSize(x.shape.slice(p.axis + 1));
  const m = len - p.before - p.after;
  const shape = x.shape.map((s, ax) => (ax === p.axis ? m : s));
  // integer dtypes truncate toward zero on the store, as scipy's C casts do
  const sym = symmetricWeights(p);
  if (sym !== null) {
    symmetricPass(f, out, outer, len, inner, sym);
    return new NDArray(out, shape, x.dtype);
  }
  const taps = tapOrder(p);
  if (inner === 1) {
    correlateRows(f, out, outer, len, m, taps, p.order === 'mean' ? p.weights.length : 1);
    return new NDArray(out, shape, x.dtype);
  }
  const acc = new Float64Array(inner);
  const w = p.weights;
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < m; i++) {
      acc.fill(0);
      const at = (o * len + i) * inner;
      for (const [wj, a, b] of taps) {
        const sa = at + a * inner;
        if (b < 0) for (let k = 0; k < inner; k++) acc[k]! += wj * f[sa + k]!;
        else {
          const sb = at + b * inner;
          for (let k = 0; k < inner; k++) acc[k]! += wj * (f[sa + k]! + f[sb + k]!);
        }
      }
      if (p.order === 'mean') for (let k = 0; k < inner; k++) acc[k]! /= w.length;
      out.set(acc, (o * m + i) * inner);
    }
  }
  return new NDArray(out, shape, x.dtype);
}

/** Intermediates larger than this are allocated afresh rather than kept for the next block. */
const SCRATCH_MAX_BYTES = 64 * 2 ** 20;
/** This thread's two buffers the passes between the first and the last alternate between
 * (kernels run one at a time per thread, and no intermediate outlives its task). */
const scratch: ({ dtype: DType; data: NumberArray } | undefined)[] = [undefined, undefined];

function scratchBuffer(slot: number, dtype: DType, length: number): NumberArray {
  const have = scratch[slot];
  if (have !== undefined && have.dtype === dtype && have.data.length >= length) {
    return have.data.subarray(0, length);
  }
  const data = numberData(allocate(dtype, length), 'correlate');
  if (data.byteLength <= SCRATCH_MAX_BYTES) scratch[slot] = { dtype, data };
  return data;
}

/** The passes of a float32 block, all symmetric, run by WebAssembly SIMD; null otherwise. */
function float32Passes(x: NDArray, passes: readonly CorrelateAxisParams[]): NDArray | null {
  if (x.dtype !== 'float32' || passes.length === 0) return null;
  let shape = x.shape;
  const plan: Float32Pass[] = [];
  for (const p of passes) {
    const weights = symmetricWeights(p);
    if (weights === null) return null;
    const len = shape[p.axis]!;
    const outer = shapeSize(shape.slice(0, p.axis));
    const inner = shapeSize(shape.slice(p.axis + 1));
    plan.push({ outer, len, inner, weights });
    shape = shape.map((n, ax) => (ax === p.axis ? n - p.before - p.after : n));
  }
  const out = allocate('float32', shapeSize(shape)) as Float32Array;
  if (out.length === 0 || !wasmSymmetricPasses(x.data as Float32Array, plan, out)) return null;
  return new NDArray(out, shape, 'float32');
}

/**
 * Several 1-D passes in turn, each consuming its axis's halo (a separable filter's block):
 * the intermediates go to reused scratch buffers, only the last pass's result is new.
 */
function correlateAxes(inputs: Chunk[], p: { passes: readonly CorrelateAxisParams[] }): NDArray {
  let x = arrayBlock(inputs[0], 'correlate-axes');
  const simd = float32Passes(x, p.passes);
  if (simd !== null) return simd;
  p.passes.forEach((pass, i) => {
    const core = x.shape.map((n, ax) => (ax === pass.axis ? n - pass.before - pass.after : n));
    const size = shapeSize(core);
    const last = i === p.passes.length - 1;
    const out = last
      ? numberData(allocate(x.dtype, size), 'correlate')
      : scratchBuffer(i % 2, x.dtype, size);
    x = correlateAxis(x, pass, out);
  });
  return x;
}

/** Correlation kernels, registered in backends/cpu-js/registry. */
export const correlateKernels: Record<string, Kernel<never>> = {
  /** The passes of a separable filter on one block with the halos of all its axes. */
  'correlate-axes': correlateAxes as Kernel<never>,
};
