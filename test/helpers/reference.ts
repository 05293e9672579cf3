// Shared test helpers: random dense data, random chunkings, and comparison with a reference.
// Dense references are plain loops over flat arrays; tessera results are NDArrays.

import fc from 'fast-check';
import { expect } from 'vitest';
import { type DType, type TypedArray, typedArrayCtor } from '../../src/array/dtype.ts';
import { float16Bits, float16Value } from '../../src/array/float16.ts';
import { LazyArray } from '../../src/array/lazy-array.ts';
import { cStrides, NDArray, shapeSize } from '../../src/array/ndarray.ts';

/** A small deterministic PRNG (mulberry32) for test data. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random dense NDArray (not shared memory) of `shape`; ints in [-50, 50), uints in [0, 100). */
export function randomDense(shape: readonly number[], dtype: DType = 'float64', seed = 1): NDArray {
  const r = rng(seed);
  const data = new (typedArrayCtor(dtype))(shapeSize(shape));
  for (let i = 0; i < data.length; i++) {
    const u = r();
    if (dtype === 'bool') data[i] = u < 0.5 ? 1 : 0;
    else if (dtype === 'float16') data[i] = float16Bits(u * 20 - 10);
    else if (dtype.startsWith('float')) data[i] = u * 20 - 10;
    else if (dtype.startsWith('uint')) data[i] = Math.floor(u * 100);
    else data[i] = Math.floor(u * 100) - 50;
  }
  return new NDArray(data, shape, dtype);
}

/** Random explicit chunk sizes summing to n (at least one chunk; [0] for n = 0). */
export function randomAxisChunks(n: number, r: () => number): number[] {
  if (n === 0) return [0];
  const out: number[] = [];
  let left = n;
  while (left > 0) {
    const c = 1 + Math.floor(r() * Math.min(left, Math.max(1, Math.ceil(n / 2))));
    out.push(c);
    left -= c;
  }
  return out;
}

/** fast-check arbitrary: a shape of 1..maxNdim axes, each 1..maxSize, with a chunking and a seed. */
export function arbShapeAndChunks(maxNdim = 3, maxSize = 9) {
  return fc
    .record({
      shape: fc.array(fc.integer({ min: 1, max: maxSize }), { minLength: 1, maxLength: maxNdim }),
      seed: fc.integer({ min: 1, max: 2 ** 30 }),
    })
    .map(({ shape, seed }) => {
      const r = rng(seed);
      return { shape, seed, chunks: shape.map((n) => randomAxisChunks(n, r)) };
    });
}

/** Element of a dense array at a multi-index. */
export function at(
  x: { shape: readonly number[]; data: ArrayLike<number> | TypedArray },
  idx: readonly number[],
): number {
  const st = cStrides(x.shape);
  let off = 0;
  for (let i = 0; i < idx.length; i++) off += idx[i]! * st[i]!;
  return x.data[off] as number;
}

/** Assert an NDArray equals a reference: dtype, shape and values (relative tolerance for floats). */
export function expectArray(
  actual: NDArray,
  expected: { dtype?: DType; shape: readonly number[]; data: ArrayLike<number> | TypedArray },
  rtol = 1e-9,
): void {
  if (expected.dtype !== undefined) expect(actual.dtype).toBe(expected.dtype);
  expect(actual.shape).toEqual([...expected.shape]);
  expect(actual.data.length).toBe(expected.data.length);
  // float16 compares by the values its bits stand for; expected bits (a Uint16Array) too
  // int64 and uint64 compare exactly, as BigInts (expected numbers are taken as integers)
  if (actual.data instanceof BigInt64Array || actual.data instanceof BigUint64Array) {
    const wrap = actual.data instanceof BigInt64Array ? BigInt.asIntN : BigInt.asUintN;
    const want = Array.from(expected.data as ArrayLike<number | bigint>, (v) =>
      wrap(64, typeof v === 'bigint' ? v : BigInt(v)),
    );
    expect(Array.from(actual.data), `[${actual.shape.join(', ')}]`).toEqual(want);
    return;
  }
  const f16 = actual.dtype === 'float16';
  const bits = f16 && expected.data instanceof Uint16Array;
  for (let i = 0; i < actual.data.length; i++) {
    const a = f16 ? float16Value(actual.data[i] as number) : (actual.data[i] as number);
    const e = bits ? float16Value(expected.data[i] as number) : (expected.data[i] as number);
    if (Number.isNaN(e)) {
      expect(Number.isNaN(a), `element ${i}: expected NaN, got ${a}`).toBe(true);
      continue;
    }
    if (a !== e && !(Math.abs(a - e) <= rtol * Math.max(1, Math.abs(e)))) {
      expect(a, `element ${i} of [${actual.shape.join(', ')}]`).toBe(e);
    }
  }
}

/** Chunk sizes of an axis of length n cut from `sizes` (the last one clipped; [0] for n = 0). */
export function cutChunks(sizes: readonly number[], n: number): number[] {
  if (n === 0) return [0];
  const out: number[] = [];
  let left = n;
  for (const s of sizes) {
    if (left === 0) break;
    out.push(Math.min(s, left));
    left -= Math.min(s, left);
  }
  if (left > 0) out.push(left);
  return out;
}

/** `x` with its chunk sizes declared as `chunks` (null = unknown), same layer otherwise. */
export function withChunks(x: LazyArray, chunks: (number | null)[][]): LazyArray {
  return new LazyArray(Object.freeze({ ...x.layer, chunks }));
}
