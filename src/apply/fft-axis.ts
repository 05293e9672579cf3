// One 1-d DFT along one axis as a layer: the axis (and the pair axis of complex values) made
// one chunk, then an 'fft-axis' task per block of the other axes (Dask's fft_wrap).

import type { DType } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import { LazyArray } from '../array/lazy-array.ts';
import type { FftAxisParams } from '../backends/cpu-js/fft/fft-axis.ts';
import { formatTuple, formatValue } from '../chunking/format.ts';
import { ChunkError, DTypeError, ShapeError, ValueError } from '../errors.ts';
import { defineLayer } from '../graph/define-layer.ts';
import { normalizeAxis } from './axis-args.ts';
import { astype } from './elementwise-logic.ts';
import { rechunk } from './rechunk.ts';

/** How a transform and its inverse share the 1/n factor (the standard's `norm`). */
export type FftNorm = 'backward' | 'ortho' | 'forward';

/**
 * An fft input: a float array, complex values as a trailing axis of size 2 (re, im) when
 * `complex`. Its value ndim excludes that axis.
 */
export interface FftInput {
  readonly array: LazyArray;
  readonly complex: boolean;
}

/** Check and wrap an fft argument; float32 stays float32, other dtypes compute in float64. */
export function fftInput(fn: string, x: ArrayLike, complex: unknown): FftInput & { dtype: DType } {
  if (typeof complex !== 'boolean') {
    throw new ValueError(`${fn}: complexInput ${formatValue(complex)} is not a boolean`);
  }
  const a0 = asLazy(x, fn);
  if (a0.dtype === 'bool') throw new DTypeError(`${fn}: dtype 'bool' is not supported`);
  // float16 blocks hold bit patterns: widen them once, as the elementwise layers do
  const a = a0.dtype === 'float16' ? astype(a0, 'float32') : a0;
  if (complex && a.shape[a.ndim - 1] !== 2) {
    throw new ShapeError(
      `${fn}: complex input is pairs (re, im) on a last axis of size 2, got shape ${formatTuple(a.shape)}`,
    );
  }
  if (a.ndim - (complex ? 1 : 0) < 1) {
    throw new ValueError(
      `${fn}: needs an array of at least one dimension, got shape ${formatTuple(a.shape)}`,
    );
  }
  const dtype: DType = a.dtype === 'float32' || a.dtype === 'float16' ? 'float32' : 'float64';
  return { array: a, complex, dtype };
}

/** The value ndim (without the pair axis). */
export const valueNdim = (x: FftInput): number => x.array.ndim - (x.complex ? 1 : 0);

/** The normalized value axis. */
export function fftAxisOf(fn: string, x: FftInput, axis: unknown): number {
  return normalizeAxis(fn, axis ?? -1, valueNdim(x));
}

/** The known, non-zero length of value axis `axis`. */
export function axisLength(fn: string, x: FftInput, axis: number): number {
  const len = x.array.shape[axis];
  if (len === null || len === undefined) {
    throw new ChunkError(
      `${fn}: axis ${axis} has unknown chunk sizes; call computeChunkSizes(x) first`,
    );
  }
  if (len === 0)
    throw new ValueError(`${fn}: axis ${axis} is empty; an fft needs at least one point`);
  return len;
}

/** A checked transform length n (a positive integer). */
export function pointsOf(fn: string, n: unknown): number {
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) {
    throw new ValueError(
      `${fn}: n ${formatValue(n)} must be a positive integer (invalid number of FFT points)`,
    );
  }
  return n;
}

/** The norm's factor for a transform of n points in the given direction. */
export function normScale(fn: string, norm: unknown, n: number, inverse: boolean): number {
  const v = norm ?? 'backward';
  if (v === 'ortho') return 1 / Math.sqrt(n);
  if (v === 'backward') return inverse ? 1 / n : 1;
  if (v === 'forward') return inverse ? 1 : 1 / n;
  throw new ValueError(`${fn}: norm ${formatValue(norm)} must be 'backward', 'ortho' or 'forward'`);
}

/** What one 1-d transform does (the kernel's params less those the input decides). */
export interface AxisTransform {
  readonly kind: FftAxisParams['kind'];
  readonly axis: number;
  readonly n: number;
  readonly inverse: boolean;
  readonly scale: number;
  readonly conjIn?: boolean;
  readonly conjOut?: boolean;
}

/**
 * The layer of one transform of `x` along a value axis: that axis and the pair axis one
 * chunk; the result is complex (pairs) unless the transform is 'c2r'.
 * @example
 * transformAxis('fft.fft', input, 'float64', { kind: 'c2c', axis: 0, n: 8, inverse: false, scale: 1 });
 */
export function transformAxis(fn: string, x: FftInput, dtype: DType, t: AxisTransform): FftInput {
  const nd = valueNdim(x);
  const whole: Record<number, number> = { [t.axis]: -1 };
  if (x.complex) whole[nd] = -1;
  const y = rechunk(x.array, whole);
  const out = t.kind === 'r2c' ? Math.floor(t.n / 2) + 1 : t.n;
  const complexOut = t.kind !== 'c2r';
  const chunks = y.chunks.slice(0, nd).map((c, ax) => (ax === t.axis ? [out] : [...c]));
  if (complexOut) chunks.push([2]);
  const params: FftAxisParams = {
    kind: t.kind,
    axis: t.axis,
    n: t.n,
    inverse: t.inverse,
    scale: t.scale,
    conjIn: t.conjIn ?? false,
    conjOut: t.conjOut ?? false,
    complexIn: x.complex,
    dtype,
  };
  const layer = defineLayer({
    op: fn.replace(/\./g, '-'),
    token: [params],
    deps: [y.layer],
    chunks,
    dtype,
    task: (b) => ({
      kernel: 'fft-axis',
      inputs: [[0, x.complex ? [...b.slice(0, nd), 0] : b.slice(0, nd)]],
      params,
    }),
  });
  return { array: new LazyArray(layer), complex: complexOut };
}
