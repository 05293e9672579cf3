// The fft extension's transforms (fft ifft rfft irfft hfft ihfft and their n-d forms), each
// a chain of 1-d transforms along axes held whole, chunk-parallel along the others. Complex
// input and output are complex64/complex128 arrays (the kernels see them as (re, im) pairs on a
// trailing axis of size 2: complex-view.ts); `complexInput: true` still reads such pairs.

import { checkOptions } from '../array/check-options.ts';
import { isComplex } from '../array/dtype.ts';
import { type ArrayLike, asLazy } from '../array/from-array.ts';
import type { KnownIn } from '../array/known-shape.ts';
import type { LazyArray } from '../array/lazy-array.ts';
import { formatValue } from '../chunking/format.ts';
import { DTypeError, ValueError } from '../errors.ts';
import { normalizeAxes } from './axis-args.ts';
import { viewAsComplex, viewAsReal } from './complex-view.ts';
import {
  type AxisTransform,
  axisLength,
  type FftInput,
  type FftNorm,
  fftAxisOf,
  fftInput,
  normScale,
  pointsOf,
  transformAxis,
  valueNdim,
} from './fft-axis.ts';

export type { FftNorm } from './fft-axis.ts';

/** Options of the 1-d transforms. */
export interface FftOptions {
  /** Points of the transform: the input is cut or zero-padded to it (default: the axis's). */
  readonly n?: number;
  /** The axis (default -1), counted without the pair axis of complex input. */
  readonly axis?: number;
  /** 'backward' (default): the inverse scales by 1/n; 'ortho': both by 1/√n; 'forward'. */
  readonly norm?: FftNorm;
  /**
   * A real input holds complex values as pairs (re, im) on a last axis of size 2 (default
   * false; complex64/complex128 input is complex whatever this says; rfft and ihfft take
   * real input only).
   */
  readonly complexInput?: boolean;
}

/** Options of the n-d transforms. */
export interface FftnOptions {
  /** Points per transformed axis (default: the axes' lengths). */
  readonly s?: readonly number[];
  /** The axes (default: the last len(s), or every axis), counted without the pair axis. */
  readonly axes?: readonly number[];
  readonly norm?: FftNorm;
  /** As FftOptions.complexInput. */
  readonly complexInput?: boolean;
}

type Kind = AxisTransform['kind'];

/**
 * `x` as the transforms read it: complex arrays as their (re, im) parts, with whether the
 * input holds complex values; real-only transforms (`r2c`) refuse complex input.
 */
function pairsOf(
  fn: string,
  x: ArrayLike,
  complexInput: boolean | undefined,
  realOnly: boolean,
): { input: ArrayLike; complex: boolean | undefined } {
  const a = asLazy(x, fn);
  if (!isComplex(a.dtype)) return { input: a, complex: complexInput };
  if (realOnly) throw new DTypeError(`${fn}: takes real input only, got dtype '${a.dtype}'`);
  return { input: viewAsReal(a, fn), complex: true };
}

/** A transform's result: complex values (pairs from the kernels) as a complex array. */
const complexResult = (fn: string, y: LazyArray, kind: Kind): LazyArray =>
  kind === 'c2r' ? y : viewAsComplex(y, fn);

/** One 1-d transform of kind `kind`; `hermitian` for hfft/ihfft (conjugated, norm swapped). */
function oneAxis(
  fn: string,
  x: ArrayLike,
  opts: FftOptions | undefined,
  kind: Kind,
  inverse: boolean,
  defaultComplex: boolean,
  hermitian = false,
): LazyArray {
  const o = checkOptions(fn, opts);
  if (kind === 'r2c' && o.complexInput === true) {
    throw new ValueError(`${fn}: takes real input only (complexInput must be false)`);
  }
  const p = pairsOf(fn, x, o.complexInput, kind === 'r2c');
  const input = fftInput(fn, p.input, p.complex ?? defaultComplex);
  const axis = fftAxisOf(fn, input, o.axis);
  const len = axisLength(fn, input, axis);
  const n = pointsOf(fn, o.n ?? (kind === 'c2r' ? 2 * (len - 1) : len));
  // hfft is irfft of the conjugate with the norm's direction swapped (NumPy's definition)
  const scale = normScale(fn, o.norm, n, hermitian ? !inverse : inverse);
  const t: AxisTransform = {
    kind,
    axis,
    n,
    inverse,
    scale,
    conjIn: hermitian && kind === 'c2r',
    conjOut: hermitian && kind === 'r2c',
  };
  return complexResult(fn, transformAxis(fn, input, input.dtype, t).array, kind);
}

/**
 * The 1-d discrete Fourier transform along `axis` (default -1): a complex result
 * (complex64 from float32 or complex64 input, complex128 otherwise). Real or complex input
 * (or real (re, im) pairs with `complexInput: true`). Any length (mixed radix, Bluestein for
 * large prime factors).
 * @example
 * fft.fft(fromArray([1, 2, 3, 4])).compute().toNested();
 * // [{ re: 10, im: 0 }, { re: -2, im: 2 }, { re: -2, im: 0 }, { re: -2, im: -2 }]
 */
export function fftFn<X extends ArrayLike>(x: X, opts?: FftOptions): LazyArray<KnownIn<[X]>> {
  return oneAxis('fft.fft', x, opts, 'c2c', false, false) as LazyArray<KnownIn<[X]>>;
}

/**
 * The inverse of fft along `axis`: complex (or real) in, complex out; 1/n scaling with
 * the default norm.
 * @example
 * fft.ifft(fft.fft(x)); // x as complex, im ≈ 0
 */
export function ifft<X extends ArrayLike>(x: X, opts?: FftOptions): LazyArray<KnownIn<[X]>> {
  return oneAxis('fft.ifft', x, opts, 'c2c', true, false) as LazyArray<KnownIn<[X]>>;
}

/**
 * The DFT of real input along `axis`: its n/2 + 1 non-negative frequency terms, complex
 * (a half-length complex FFT inside); complex input is a DTypeError.
 * @example
 * fft.rfft(fromArray([1, 2, 3, 4])).compute().toNested();
 * // [{ re: 10, im: 0 }, { re: -2, im: 2 }, { re: -2, im: 0 }]
 */
export function rfft<X extends ArrayLike>(x: X, opts?: FftOptions): LazyArray<KnownIn<[X]>> {
  return oneAxis('fft.rfft', x, opts, 'r2c', false, false) as LazyArray<KnownIn<[X]>>;
}

/**
 * The inverse of rfft: n real values (default n = 2 (m - 1) for m input terms) from the
 * complex terms of the non-negative frequencies.
 * @example
 * fft.irfft(fft.rfft(x), { n: x.shape[0] }); // x
 */
export function irfft<X extends ArrayLike>(x: X, opts?: FftOptions): LazyArray<KnownIn<[X]>> {
  return oneAxis('fft.irfft', x, opts, 'c2r', true, false) as LazyArray<KnownIn<[X]>>;
}

/**
 * The DFT of a signal with Hermitian symmetry given by its non-negative half (complex):
 * n real values (NumPy's hfft: irfft of the conjugate, norm swapped).
 * @example
 * fft.hfft(fromArray([1, 2, 3], { dtype: 'complex128' })).compute().toNested(); // [8, -2, 0, -2]
 */
export function hfft<X extends ArrayLike>(x: X, opts?: FftOptions): LazyArray<KnownIn<[X]>> {
  return oneAxis('fft.hfft', x, opts, 'c2r', true, false, true) as LazyArray<KnownIn<[X]>>;
}

/**
 * The inverse of hfft: the n/2 + 1 complex terms of a real signal's Hermitian half
 * (the conjugate of rfft, norm swapped).
 * @example
 * fft.ihfft(fromArray([8, -2, 0, -2])).compute().toNested();
 * // [{ re: 1, im: 0 }, { re: 2, im: 0 }, { re: 3, im: 0 }]
 */
export function ihfft<X extends ArrayLike>(x: X, opts?: FftOptions): LazyArray<KnownIn<[X]>> {
  return oneAxis('fft.ihfft', x, opts, 'r2c', false, false, true) as LazyArray<KnownIn<[X]>>;
}

/** The axes and lengths of an n-d transform (numpy's _cook_nd_args). */
function ndAxes(
  fn: string,
  input: FftInput,
  o: FftnOptions,
  inverseReal: boolean,
): { axes: number[]; s: number[] } {
  const nd = valueNdim(input);
  if (o.s !== undefined && !Array.isArray(o.s)) {
    throw new ValueError(`${fn}: s ${formatValue(o.s)} is not a list of lengths`);
  }
  const axes =
    o.axes !== undefined
      ? normalizeAxes(fn, o.axes, nd)
      : [...Array(nd).keys()].slice(o.s === undefined ? 0 : Math.max(0, nd - o.s.length));
  if (new Set(axes).size !== axes.length)
    throw new ValueError(`${fn}: repeated axis in ${formatValue(o.axes)}`);
  if (o.s !== undefined && o.s.length !== axes.length) {
    throw new ValueError(
      `${fn}: s ${formatValue(o.s)} and axes ${formatValue(axes)} differ in length`,
    );
  }
  if (axes.length === 0) throw new ValueError(`${fn}: no axes to transform`);
  const s = axes.map((ax, i) => {
    const len = axisLength(fn, input, ax);
    const last = i === axes.length - 1;
    return pointsOf(fn, o.s?.[i] ?? (inverseReal && last ? 2 * (len - 1) : len));
  });
  return { axes, s };
}

/** An n-d transform: c2c along every axis but the last, which is `lastKind` (c2c, r2c or c2r). */
function manyAxes(
  fn: string,
  x: ArrayLike,
  opts: FftnOptions | undefined,
  lastKind: Kind,
  inverse: boolean,
  defaultComplex: boolean,
): LazyArray {
  const o = checkOptions(fn, opts);
  if (lastKind === 'r2c' && o.complexInput === true) {
    throw new ValueError(`${fn}: takes real input only (complexInput must be false)`);
  }
  const p = pairsOf(fn, x, o.complexInput, lastKind === 'r2c');
  const first = fftInput(fn, p.input, p.complex ?? defaultComplex);
  let input: FftInput = first;
  const dtype = first.dtype;
  const { axes, s } = ndAxes(fn, input, o, lastKind === 'c2r');
  const step = (k: number, kind: Kind) => {
    const t = {
      kind,
      axis: axes[k]!,
      n: s[k]!,
      inverse,
      scale: normScale(fn, o.norm, s[k]!, inverse),
    };
    input = transformAxis(fn, input, dtype, t);
  };
  const last = axes.length - 1;
  if (lastKind === 'r2c') step(last, 'r2c');
  for (let k = 0; k < last; k++) step(k, 'c2c');
  if (lastKind !== 'r2c') step(last, lastKind);
  return complexResult(fn, input.array, lastKind);
}

/**
 * The n-d DFT over `axes` (default all; or the last len(s)): a 1-d fft along each, a
 * complex array out.
 * @example
 * fft.fftn(image).dtype; // 'complex128' (image.shape kept)
 */
export function fftn<X extends ArrayLike>(x: X, opts?: FftnOptions): LazyArray<KnownIn<[X]>> {
  return manyAxes('fft.fftn', x, opts, 'c2c', false, false) as LazyArray<KnownIn<[X]>>;
}

/**
 * The inverse of fftn (complex or real in, complex out).
 * @example
 * fft.ifftn(fft.fftn(image)); // image as complex, im ≈ 0
 */
export function ifftn<X extends ArrayLike>(x: X, opts?: FftnOptions): LazyArray<KnownIn<[X]>> {
  return manyAxes('fft.ifftn', x, opts, 'c2c', true, false) as LazyArray<KnownIn<[X]>>;
}

/**
 * The n-d DFT of real input: rfft along the last of `axes`, then fft along the others.
 * @example
 * fft.rfftn(fromArray([[1, 2], [3, 4]])).compute().get(1, 0); // { re: -4, im: 0 }
 */
export function rfftn<X extends ArrayLike>(x: X, opts?: FftnOptions): LazyArray<KnownIn<[X]>> {
  return manyAxes('fft.rfftn', x, opts, 'r2c', false, false) as LazyArray<KnownIn<[X]>>;
}

/**
 * The inverse of rfftn: ifft along all but the last of `axes`, then irfft along it (its
 * length from `s`, default 2 (m - 1)).
 * @example
 * fft.irfftn(fft.rfftn(image), { s: image.shape }); // image
 */
export function irfftn<X extends ArrayLike>(x: X, opts?: FftnOptions): LazyArray<KnownIn<[X]>> {
  return manyAxes('fft.irfftn', x, opts, 'c2r', true, false) as LazyArray<KnownIn<[X]>>;
}
