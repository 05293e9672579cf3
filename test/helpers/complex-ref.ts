// Complex test data and checks: random complex arrays as their parts (re, im), and a complex
// result compared with the same operation on the parts as float64 arrays.

import { expect } from 'vitest';
import type { DType } from '../../src/array/dtype.ts';
import type { LazyArray } from '../../src/array/lazy-array.ts';
import { NDArray, ndarray } from '../../src/array/ndarray.ts';
import * as T from '../../src/index.ts';
import { randomAxisChunks } from './reference.ts';

export type CDType = 'complex64' | 'complex128';
export const CDTYPES: CDType[] = ['complex64', 'complex128'];
export const SYNC = { scheduler: 'sync' } as const;

/** Flat parts of a complex array: re[i], im[i]. */
export interface Parts {
  shape: number[];
  re: number[];
  im: number[];
}

const f32 = (d: DType) => d === 'complex64' || d === 'float32';
export const round = (d: DType, v: number) => (f32(d) ? Math.fround(v) : v);

/** A random shape of 1 to `maxNd` axes, each 1 to 5. */
export function randomShape(r: () => number, maxNd = 3): number[] {
  const nd = 1 + Math.floor(r() * maxNd);
  return Array.from({ length: nd }, () => 1 + Math.floor(r() * 5));
}

/** Random parts (multiples of 1/64 in [-3, 3): exact in float32 and in short sums). */
export function randomParts(shape: number[], r: () => number, d: DType = 'complex128'): Parts {
  const n = shape.reduce((a, b) => a * b, 1);
  const v = () => round(d, Math.round((r() * 6 - 3) * 64) / 64);
  return { shape, re: Array.from({ length: n }, v), im: Array.from({ length: n }, v) };
}

export function toNDArray(p: Parts, d: CDType): NDArray {
  const data =
    d === 'complex64' ? new Float32Array(2 * p.re.length) : new Float64Array(2 * p.re.length);
  p.re.forEach((v, i) => {
    data[2 * i] = v;
    data[2 * i + 1] = p.im[i]!;
  });
  return new NDArray(data, p.shape, d);
}

/** Complex `p` as a lazy array of random chunks (or the chunks given). */
export function lazy(p: Parts, d: CDType, r: () => number, chunks?: number[][]): LazyArray {
  return T.fromArray(toNDArray(p, d), {
    chunks: chunks ?? p.shape.map((n) => randomAxisChunks(n, r)),
  });
}

/** One part of `p` as a float64 lazy array of the chunks given. */
export function partArray(p: Parts, part: 're' | 'im', chunks: number[][]): LazyArray {
  return T.fromArray(ndarray(p[part], p.shape, 'float64'), { chunks });
}

function expectClose(got: number, want: number, tol: number, what: string): void {
  if (Number.isNaN(want)) {
    expect(got, what).toBeNaN();
    return;
  }
  expect(Math.abs(got - want), `${what}: ${got} vs ${want}`).toBeLessThanOrEqual(
    tol * Math.max(1, Math.abs(want)),
  );
}

/** `got` (complex NDArray of dtype d) against parts. */
export function expectComplex(got: NDArray, d: CDType, want: Parts, tol = 0): void {
  expect(got.dtype).toBe(d);
  expect(got.shape).toEqual(want.shape);
  expect(got.data.length).toBe(2 * want.re.length);
  for (let i = 0; i < want.re.length; i++) {
    expectClose(got.data[2 * i] as number, want.re[i]!, tol, `re[${i}]`);
    expectClose(got.data[2 * i + 1] as number, want.im[i]!, tol, `im[${i}]`);
  }
}

/** The parts of computed results `re` and `im` (real NDArrays of one shape). */
export const partsOf = (re: NDArray, im: NDArray): Parts => ({
  shape: [...re.shape] as number[],
  re: Array.from(re.data as ArrayLike<number>),
  im: Array.from(im.data as ArrayLike<number>),
});
