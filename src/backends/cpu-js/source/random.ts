// Counter-based random kernels: element g of an array gets SplitMix64(seed + (g + 1)·γ).
// Values depend only on (seed, global index), so any chunking gives the same array.

import {
  allocate,
  type DType,
  type NumberArray,
  numberData,
  type TypedArray,
} from '../../../array/dtype.ts';
import { NDArray, shapeSize } from '../../../array/ndarray.ts';
import type { Chunk, Kernel } from '../../../kernels/types.ts';
import { WASM_CHUNK, wasmUniform } from './random-wasm.ts';

/** Params shared by the random kernels: where the block sits in the whole array. */
export interface RandomBlockParams {
  /** The seed as two unsigned 32-bit halves [hi, lo]. */
  readonly seed: readonly [number, number];
  /** The whole array's shape (for global flat indices). */
  readonly arrayShape: readonly number[];
  readonly offset: readonly number[];
  readonly shape: readonly number[];
  readonly dtype: DType;
}

export interface UniformParams extends RandomBlockParams {
  readonly low: number;
  readonly high: number;
}

export interface NormalParams extends RandomBlockParams {
  readonly mean: number;
  readonly std: number;
}

// 64-bit words as [hi, lo] uint32 halves; results land in these two registers.
let rHi = 0;
let rLo = 0;

/** (a * b) mod 2^64 into rHi:rLo. */
function mul64(aHi: number, aLo: number, bHi: number, bLo: number): void {
  const a0 = aLo & 0xffff;
  const a1 = aLo >>> 16;
  const b0 = bLo & 0xffff;
  const b1 = bLo >>> 16;
  const p00 = a0 * b0;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  rLo = (((mid & 0xffff) << 16) | (p00 & 0xffff)) >>> 0;
  const carry = a1 * b1 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16);
  rHi = (carry + Math.imul(aLo, bHi) + Math.imul(aHi, bLo)) >>> 0;
}

/** SplitMix64's finalizer of the state hi:lo, into rHi:rLo. */
function mix64(hi: number, lo: number): void {
  // z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9
  let l = (lo ^ ((lo >>> 30) | (hi << 2))) >>> 0;
  let h = (hi ^ (hi >>> 30)) >>> 0;
  mul64(h, l, 0xbf58476d, 0x1ce4e5b9);
  // z = (z ^ (z >>> 27)) * 0x94d049bb133111eb
  l = (rLo ^ ((rLo >>> 27) | (rHi << 5))) >>> 0;
  h = (rHi ^ (rHi >>> 27)) >>> 0;
  mul64(h, l, 0x94d049bb, 0x133111eb);
  // z ^ (z >>> 31)
  rLo = (rLo ^ ((rLo >>> 31) | (rHi << 1))) >>> 0;
  rHi = (rHi ^ (rHi >>> 31)) >>> 0;
}

const GAMMA_HI = 0x9e3779b9;
const GAMMA_LO = 0x7f4a7c15;
const TWO32 = 4294967296;
const TWO_M53 = 2 ** -53;

/**
 * The uniform in [0, 1) (53 bits) at counter `g` of the stream `seed`.
 * @example
 * uniformAt([0, 42], 0); // the same number in every chunking
 */
export function uniformAt(seed: readonly [number, number], g: number): number {
  const c = g + 1;
  mul64(Math.floor(c / TWO32) >>> 0, c >>> 0, GAMMA_HI, GAMMA_LO);
  const lo = rLo + seed[1];
  const hi = (rHi + seed[0] + (lo >= TWO32 ? 1 : 0)) >>> 0;
  mix64(hi, lo >>> 0);
  return (rHi * 2097152 + (rLo >>> 11)) * TWO_M53;
}

/**
 * Fill out[o0 … o0 + n) with the uniforms in [0, 1) at counters g0 … g0 + n - 1 of `seed`,
 * exactly as uniformAt gives them, scaled to low + width · u. The SplitMix64 state advances
 * by γ per element (no multiply), and everything stays in local 32-bit halves.
 */
function fillUniform(
  out: NumberArray,
  o0: number,
  n: number,
  g0: number,
  seed: readonly [number, number],
  scale: { low: number; width: number; high: number; cap: number; f32: boolean },
): void {
  if (n <= 0) return;
  // state = (g0 + 1) · γ + seed  (mod 2^64)
  const c = g0 + 1;
  mul64(Math.floor(c / TWO32) >>> 0, c >>> 0, GAMMA_HI, GAMMA_LO);
  let sl = rLo + seed[1];
  let sh = (rHi + seed[0] + (sl >= TWO32 ? 1 : 0)) >>> 0;
  sl >>>= 0;
  const { low, width, high, cap, f32 } = scale;
  const wasm = wasmUniform();
  if (wasm !== null) {
    for (let done = 0; done < n; ) {
      const k = Math.min(WASM_CHUNK, n - done);
      wasm.fill(k, sh, sl, low, width, high, cap, f32 ? 1 : 0);
      out.set(wasm.view.subarray(0, k), o0 + done);
      done += k;
      // state += k·γ
      mul64(0, k, GAMMA_HI, GAMMA_LO);
      const nl = sl + rLo;
      sh = (sh + rHi + (nl >= TWO32 ? 1 : 0)) >>> 0;
      sl = nl >>> 0;
    }
    return;
  }
  const capped = high > low;
  for (let j = 0; j < n; j++) {
    // z = (s ^ (s >>> 30)) * 0xbf58476d1ce4e5b9
    let l = (sl ^ ((sl >>> 30) | (sh << 2))) >>> 0;
    let h = (sh ^ (sh >>> 30)) >>> 0;
    let a0 = l & 0xffff;
    let a1 = l >>> 16;
    let p00 = a0 * 0xe5b9;
    let p01 = a0 * 0x1ce4;
    let p10 = a1 * 0xe5b9;
    let mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
    let lo = (((mid & 0xffff) << 16) | (p00 & 0xffff)) >>> 0;
    let hi =
      (a1 * 0x1ce4 +
        (p01 >>> 16) +
        (p10 >>> 16) +
        (mid >>> 16) +
        Math.imul(l, 0xbf58476d) +
        Math.imul(h, 0x1ce4e5b9)) >>>
      0;
    // z = (z ^ (z >>> 27)) * 0x94d049bb133111eb
    l = (lo ^ ((lo >>> 27) | (hi << 5))) >>> 0;
    h = (hi ^ (hi >>> 27)) >>> 0;
    a0 = l & 0xffff;
    a1 = l >>> 16;
    p00 = a0 * 0x11eb;
    p01 = a0 * 0x1331;
    p10 = a1 * 0x11eb;
    mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
    lo = (((mid & 0xffff) << 16) | (p00 & 0xffff)) >>> 0;
    hi =
      (a1 * 0x1331 +
        (p01 >>> 16) +
        (p10 >>> 16) +
        (mid >>> 16) +
        Math.imul(l, 0x94d049bb) +
        Math.imul(h, 0x133111eb)) >>>
      0;
    // z ^ (z >>> 31), top 53 bits
    const zl = (lo ^ ((lo >>> 31) | (hi << 1))) >>> 0;
    const zh = (hi ^ (hi >>> 31)) >>> 0;
    const u = (zh * 2097152 + (zl >>> 11)) * TWO_M53;
    const v = low + width * u;
    const r = f32 ? Math.fround(v) : v;
    out[o0 + j] = r >= high && capped ? cap : r;
    // s += γ
    const nl = sl + GAMMA_LO;
    sh = (sh + GAMMA_HI + (nl >= TWO32 ? 1 : 0)) >>> 0;
    sl = nl >>> 0;
  }
}

/** Calls `run(g0, start, length)` for each contiguous run of the block along its last axis. */
function forEachRun(
  p: RandomBlockParams,
  run: (globalStart: number, outStart: number, length: number) => void,
): void {
  const nd = p.shape.length;
  if (shapeSize(p.shape) === 0) return;
  if (nd === 0) {
    run(0, 0, 1);
    return;
  }
  const gStrides = new Array<number>(nd);
  for (let ax = nd - 1, acc = 1; ax >= 0; ax--) {
    gStrides[ax] = acc;
    acc *= p.arrayShape[ax]!;
  }
  const inner = p.shape[nd - 1]!;
  const idx = new Array<number>(nd).fill(0);
  for (let o = 0; ; o += inner) {
    let g = 0;
    for (let ax = 0; ax < nd; ax++) g += (p.offset[ax]! + idx[ax]!) * gStrides[ax]!;
    run(g, o, inner);
    let ax = nd - 2;
    for (; ax >= 0; ax--) {
      if (++idx[ax]! < p.shape[ax]!) break;
      idx[ax] = 0;
    }
    if (ax < 0) return;
  }
}

/** The largest value of `dtype` (float32 or float64) below `x`. */
function below(x: number, dtype: DType): number {
  if (dtype === 'float32') {
    const f = Math.fround(x);
    if (f < x) return f;
    if (f === 0) return -(2 ** -149);
    const buf = new Float32Array([f]);
    const bits = new Int32Array(buf.buffer);
    bits[0] = bits[0]! + (f > 0 ? -1 : 1);
    return buf[0]!;
  }
  if (x === 0) return -Number.MIN_VALUE;
  const buf = new Float64Array([x]);
  const bits = new BigInt64Array(buf.buffer);
  bits[0] = bits[0]! + (x > 0 ? -1n : 1n);
  return buf[0]!;
}

/**
 * A block of uniforms in [low, high) (rounding that would reach `high` is pulled below it).
 * @example
 * uniformBlock({ seed: [0, 1], arrayShape: [4], offset: [0], shape: [4], dtype: 'float64', low: 0, high: 1 });
 */
export function uniformBlock(p: UniformParams): NDArray {
  const out: TypedArray = allocate(p.dtype, shapeSize(p.shape));
  uniformInto(out, p);
  return new NDArray(out, p.shape, p.dtype);
}

/**
 * Write the block of `p` into `out` (its first shapeSize(p.shape) elements, C order): the
 * values of uniformBlock, into a buffer the caller reuses.
 * @example
 * uniformInto(scratch, { ...p, offset: [p.offset[0] + 1024], shape: [1024] }); // one tile
 */
export function uniformInto(out: TypedArray, p: UniformParams): void {
  const { low, high, seed } = p;
  const width = high - low;
  const cap = high > low ? below(high, p.dtype) : low;
  const f32 = p.dtype === 'float32';
  const scale = { low, width, high, cap, f32 };
  // floats only (the random functions take float dtypes): never BigInt storage
  const o = numberData(out, 'random-uniform');
  forEachRun(p, (g0, o0, n) => fillUniform(o, o0, n, g0, seed, scale));
}

/**
 * A block of normals: Box–Muller on the counter pair (2k, 2k + 1) gives elements 2k and
 * 2k + 1, so every element depends on its global index only.
 * @example
 * normalBlock({ seed: [0, 1], arrayShape: [4], offset: [0], shape: [4], dtype: 'float64', mean: 0, std: 1 });
 */
export function normalBlock(p: NormalParams): NDArray {
  const out: TypedArray = allocate(p.dtype, shapeSize(p.shape));
  normalInto(out, p);
  return new NDArray(out, p.shape, p.dtype);
}

/**
 * Write the block of `p` into `out` (its first shapeSize(p.shape) elements, C order): the
 * values of normalBlock, into a buffer the caller reuses.
 * @example
 * normalInto(scratch, { ...p, offset: [p.offset[0] + 1024], shape: [1024] }); // one tile
 */
export function normalInto(out: TypedArray, p: NormalParams): void {
  const { mean, std } = p;
  // A separate stream from uniform's for the same seed.
  const seed: [number, number] = [(p.seed[0] ^ 0x6a09e667) >>> 0, p.seed[1]];
  const o = numberData(out, 'random-normal');
  forEachRun(p, (g0, o0, n) => {
    let j = 0;
    let g = g0;
    while (j < n) {
      const k = g - (g % 2);
      const r = Math.sqrt(-2 * Math.log(1 - uniformAt(seed, k)));
      const theta = 2 * Math.PI * uniformAt(seed, k + 1);
      if (g === k) {
        o[o0 + j++] = mean + std * r * Math.cos(theta);
        g++;
        if (j === n) break;
      }
      o[o0 + j++] = mean + std * r * Math.sin(theta);
      g++;
    }
  });
}

/** The random kernels, registered in backends/cpu-js/registry. */
export const randomKernels: Record<string, Kernel<never>> = {
  'random-uniform': ((_: Chunk[], p: UniformParams) => uniformBlock(p)) as Kernel<never>,
  'random-normal': ((_: Chunk[], p: NormalParams) => normalBlock(p)) as Kernel<never>,
};
