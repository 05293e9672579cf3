// The 'fft-axis' kernel: a 1-d DFT of every line of a block along one axis, the axis whole.
// Complex values are pairs on a trailing axis of size 2 (re, im) until complex dtypes exist.

import { allocate, type DType, numberData } from '../../../array/dtype.ts';
import { NDArray, shapeSize } from '../../../array/ndarray.ts';
import { arrayBlock } from '../../../kernels/array-block.ts';
import type { Chunk, Kernel } from '../../../kernels/types.ts';
import { fftPlan } from './complex-fft.ts';
import { irfftInto, rfftInto } from './real-fft.ts';

/**
 * Params of 'fft-axis'. `kind`: complex to complex, real to the n/2 + 1 half spectrum, or
 * half spectrum to n reals. The input line is cut or zero-padded to what length n needs.
 */
export interface FftAxisParams {
  readonly kind: 'c2c' | 'r2c' | 'c2r';
  /** The transformed axis, counted without the trailing pair axis. */
  readonly axis: number;
  readonly n: number;
  readonly inverse: boolean;
  /** Multiplies every output value (the norm's factor). */
  readonly scale: number;
  /** Conjugate the input (hfft) or the output (ihfft). */
  readonly conjIn: boolean;
  readonly conjOut: boolean;
  /** The input block ends with the pair axis (else its values are real). */
  readonly complexIn: boolean;
  readonly dtype: DType;
}

/** Entries the transform reads along the axis, and the length it writes. */
function lengths(p: FftAxisParams): { use: number; out: number } {
  const half = Math.floor(p.n / 2) + 1;
  if (p.kind === 'c2c') return { use: p.n, out: p.n };
  if (p.kind === 'r2c') return { use: p.n, out: half };
  return { use: half, out: p.n };
}

/**
 * The first `take` entries of one line of `src` (from `at`, `stride` apart) into `buf`, the
 * rest zero: reals (`width` 1) or interleaved pairs (`width` 2, imaginary part times `sIm`,
 * zero for real input).
 */
function readLine(
  buf: Float64Array,
  src: ArrayLike<number>,
  at: number,
  stride: number,
  take: number,
  width: 1 | 2,
  complexIn: boolean,
  sIm: number,
): void {
  buf.fill(0, width * take);
  if (width === 1) {
    if (stride === 1) {
      for (let t = 0; t < take; t++) buf[t] = src[at + t]!;
    } else for (let t = 0; t < take; t++) buf[t] = src[at + t * stride]!;
    return;
  }
  for (let t = 0; t < take; t++) {
    const k = at + t * stride;
    buf[2 * t] = src[k]!;
    buf[2 * t + 1] = complexIn ? sIm * src[k + 1]! : 0;
  }
}

function fftAxis(inputs: Chunk[], p: FftAxisParams): NDArray {
  const x = arrayBlock(inputs[0], 'fft');
  const vshape = p.complexIn ? x.shape.slice(0, -1) : x.shape;
  const len = vshape[p.axis]!;
  const outer = shapeSize(vshape.slice(0, p.axis));
  const inner = shapeSize(vshape.slice(p.axis + 1));
  const { use, out } = lengths(p);
  const inW = p.complexIn ? 2 : 1;
  const outW = p.kind === 'c2r' ? 1 : 2;
  const oshape = vshape.map((s, ax) => (ax === p.axis ? out : s));
  const result = numberData(allocate(p.dtype, shapeSize(oshape) * outW), 'fft');
  const take = Math.min(len, use);
  const line = new Float64Array(
    p.kind === 'r2c' ? use : 2 * Math.max(use, p.kind === 'c2r' ? 0 : use),
  );
  const spec = new Float64Array(2 * Math.max(use, out));
  const res = new Float64Array(outW * out);
  const src = numberData(x.data, 'fft');
  const plan = p.kind === 'c2c' ? fftPlan(p.n) : undefined;
  const sIm = p.conjIn ? -1 : 1;
  const oIm = p.conjOut ? -p.scale : p.scale;
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      const buf = p.kind === 'c2c' ? spec : line;
      readLine(
        buf,
        src,
        (o * len * inner + i) * inW,
        inner * inW,
        take,
        p.kind === 'r2c' ? 1 : 2,
        p.complexIn,
        sIm,
      );
      if (plan) {
        plan.run(spec, p.inverse);
        res.set(spec.subarray(0, 2 * out));
      } else if (p.kind === 'r2c') rfftInto(line, p.n, res);
      else irfftInto(line, p.n, res);
      const base = (o * out * inner + i) * outW;
      const step = inner * outW;
      if (outW === 1) {
        for (let t = 0; t < out; t++) result[base + t * step] = p.scale * res[t]!;
      } else {
        for (let t = 0; t < out; t++) {
          result[base + t * step] = p.scale * res[2 * t]!;
          result[base + t * step + 1] = oIm * res[2 * t + 1]!;
        }
      }
    }
  }
  return new NDArray(result, outW === 2 ? [...oshape, 2] : oshape, p.dtype);
}

export const fftKernels = {
  'fft-axis': fftAxis as Kernel<never>,
};
