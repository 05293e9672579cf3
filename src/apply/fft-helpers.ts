// The fft extension's helpers: sample frequencies (fftfreq, rfftfreq) and the half-length
// rotations that centre the zero frequency (fftshift, ifftshift) as two slices and a concat.

import { checkOptions } from '../array/check-options.ts';
import type { DType } from '../array/dtype.ts';
import { type ArrayLike, asLazy, fromArray } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import { NDArray } from '../array/ndarray.ts';
import { formatValue } from '../chunking/format.ts';
import { ChunkError, DTypeError, ValueError } from '../errors.ts';
import { normalizeAxes } from './axis-args.ts';
import { concat } from './concat.ts';
import { getIndex } from './indexing.ts';

/** Options of fftfreq and rfftfreq. */
export interface FftFreqOptions {
  /** The sample spacing (default 1). */
  readonly d?: number;
  /** 'float64' (default) or 'float32'. */
  readonly dtype?: DType;
}

function freqArgs(
  fn: string,
  n: unknown,
  opts: FftFreqOptions | undefined,
): { d: number; dtype: DType } {
  const o = checkOptions(fn, opts);
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) {
    throw new ValueError(`${fn}: n ${formatValue(n)} must be a positive integer`);
  }
  const d = o.d ?? 1;
  if (typeof d !== 'number' || !Number.isFinite(d) || d === 0) {
    throw new ValueError(`${fn}: d ${formatValue(d)} must be a finite non-zero number`);
  }
  const dtype = o.dtype ?? 'float64';
  if (dtype !== 'float64' && dtype !== 'float32') {
    throw new DTypeError(`${fn}: dtype ${formatValue(dtype)} must be 'float64' or 'float32'`);
  }
  return { d, dtype };
}

function frequencies(values: number[], dtype: DType): LazyArray<true> {
  const data = dtype === 'float32' ? Float32Array.from(values) : Float64Array.from(values);
  return fromArray(new NDArray(data, [values.length], dtype));
}

/**
 * The sample frequencies of an n-point fft with spacing d: `[0, 1, …, ⌈n/2⌉ - 1, -⌊n/2⌋, …,
 * -1] / (d n)`.
 * @example
 * fft.fftfreq(4).compute().toNested(); // [0, 0.25, -0.5, -0.25]
 */
export function fftfreq(n: number, opts?: FftFreqOptions): LazyArray<true> {
  const { d, dtype } = freqArgs('fft.fftfreq', n, opts);
  const val = 1 / (n * d);
  const pos = Math.floor((n - 1) / 2) + 1;
  return frequencies(
    Array.from({ length: n }, (_, i) => (i < pos ? i : i - n) * val),
    dtype,
  );
}

/**
 * The sample frequencies of an n-point rfft with spacing d: `[0, 1, …, ⌊n/2⌋] / (d n)`.
 * @example
 * fft.rfftfreq(4).compute().toNested(); // [0, 0.25, 0.5]
 */
export function rfftfreq(n: number, opts?: FftFreqOptions): LazyArray<true> {
  const { d, dtype } = freqArgs('fft.rfftfreq', n, opts);
  const val = 1 / (n * d);
  return frequencies(
    Array.from({ length: Math.floor(n / 2) + 1 }, (_, i) => i * val),
    dtype,
  );
}

/** Options of fftshift and ifftshift. */
export interface FftShiftOptions {
  /** The axes to shift (default all, or all but the pair axis with complexInput). */
  readonly axes?: number | readonly number[];
  /** The array holds complex pairs on its last axis, which is then never shifted. */
  readonly complexInput?: boolean;
}

/** `x` rolled by `shift` along `axis`: two slices, concatenated. */
function rollAxis(x: LazyArray, axis: number, shift: number): LazyArray {
  const n = x.shape[axis];
  if (n === null || n === undefined) {
    throw new ChunkError(
      `fftshift: axis ${axis} has unknown chunk sizes; call computeChunkSizes(x) first`,
    );
  }
  const s = ((shift % n) + n) % n;
  if (s === 0) return x;
  const cut = (start: number, stop: number) =>
    getIndex(
      x,
      x.shape.map((_, ax) => (ax === axis ? { start, stop } : {})),
    );
  return concat([cut(n - s, n), cut(0, n - s)], { axis });
}

function shiftAll(
  fn: string,
  x: ArrayLike,
  opts: FftShiftOptions | undefined,
  sign: 1 | -1,
): LazyArray {
  const o = checkOptions(fn, opts);
  let a = asLazy(x, fn);
  const nd = a.ndim - (o.complexInput === true ? 1 : 0);
  const axes = o.axes === undefined ? [...Array(nd).keys()] : normalizeAxes(fn, o.axes, nd);
  for (const ax of axes) a = rollAxis(a, ax, sign * Math.floor((a.shape[ax] ?? 0) / 2));
  return a;
}

/**
 * The zero-frequency term moved to the centre: each axis of `axes` rolled by ⌊n/2⌋.
 * @example
 * fft.fftshift(fft.fftfreq(5)).compute().toNested(); // [-0.4, -0.2, 0, 0.2, 0.4]
 */
export function fftshift<X extends ArrayLike>(
  x: X,
  opts?: FftShiftOptions,
): LazyArray<KnownIn<[X]>> {
  return shiftAll('fft.fftshift', x, opts, 1) as LazyArray<KnownIn<[X]>>;
}

/**
 * The inverse of fftshift: each axis of `axes` rolled by -⌊n/2⌋.
 * @example
 * fft.ifftshift(fft.fftshift(fft.fftfreq(5))).compute().toNested(); // [0, 0.2, 0.4, -0.4, -0.2]
 */
export function ifftshift<X extends ArrayLike>(
  x: X,
  opts?: FftShiftOptions,
): LazyArray<KnownIn<[X]>> {
  return shiftAll('fft.ifftshift', x, opts, -1) as LazyArray<KnownIn<[X]>>;
}
