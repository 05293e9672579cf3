// random.uniform / random.normal on the GPU: the CPU's counter-based SplitMix64 (random.ts)
// with 64-bit words emulated as u32 pairs, so float32 values match the CPU's to rounding.

import { shapeSize } from '../../array/ndarray.ts';
import { DTypeError } from '../../errors.ts';
import type { NormalParams, UniformParams } from '../cpu-js/source/random.ts';
import type { GpuRuntime, GpuTensor } from './runtime.ts';

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);
const bits = (v: number): number => {
  F32[0] = v;
  return U32[0]!;
};

const SOURCE = (normal: boolean): string => /* wgsl */ `
@group(0) @binding(0) var<storage, read> info: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
// (a · b) mod 2^64 of u32 pairs (hi, lo)
fn mul64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  let a0 = a.y & 0xffffu; let a1 = a.y >> 16u; let b0 = b.y & 0xffffu; let b1 = b.y >> 16u;
  let p00 = a0 * b0; let p01 = a0 * b1; let p10 = a1 * b0;
  let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
  let lo = ((mid & 0xffffu) << 16u) | (p00 & 0xffffu);
  let hi = a1 * b1 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u) + a.y * b.x + a.x * b.y;
  return vec2<u32>(hi, lo);
}
fn add64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  let lo = a.y + b.y;
  return vec2<u32>(a.x + b.x + select(0u, 1u, lo < a.y), lo);
}
fn xorshr(z: vec2<u32>, s: u32) -> vec2<u32> {
  return vec2<u32>(z.x ^ (z.x >> s), z.y ^ ((z.y >> s) | (z.x << (32u - s))));
}
// The uniform in [0, 1) at counter g of stream seed, as f32.
fn uniform_at(seed: vec2<u32>, g: vec2<u32>) -> f32 {
  let s = add64(mul64(add64(g, vec2<u32>(0u, 1u)), vec2<u32>(0x9e3779b9u, 0x7f4a7c15u)), seed);
  var z = mul64(xorshr(s, 30u), vec2<u32>(0xbf58476du, 0x1ce4e5b9u));
  z = mul64(xorshr(z, 27u), vec2<u32>(0x94d049bbu, 0x133111ebu));
  z = xorshr(z, 31u);
  // top 53 bits: (zh · 2^21 + zl >> 11) · 2^-53
  let hi24 = z.x >> 8u;
  let rest = ((z.x & 0xffu) << 21u) | (z.y >> 11u);
  return f32(hi24) * exp2(-24.0) + f32(rest) * exp2(-53.0);
}
// meta: n, nd, seed hi, seed lo, p0, p1, p2 (f32 bits), shape[nd], offset[nd], gstride hi[nd], lo[nd]
fn global_index(i: u32) -> vec2<u32> {
  let nd = info[1];
  var rem = i;
  var g = vec2<u32>(0u, 0u);
  for (var ax = i32(nd) - 1; ax >= 0; ax--) {
    let a = u32(ax);
    let n = info[7u + a];
    let idx = rem % n + info[7u + nd + a];
    rem = rem / n;
    g = add64(g, mul64(vec2<u32>(0u, idx), vec2<u32>(info[7u + 2u * nd + a], info[7u + 3u * nd + a])));
  }
  return g;
}
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = gid.x + gid.y * nwg.x * 256u;
  if (i >= info[0]) { return; }
  let seed = vec2<u32>(info[2], info[3]);
  let g = global_index(i);
  let p0 = bitcast<f32>(info[4]); let p1 = bitcast<f32>(info[5]); let p2 = bitcast<f32>(info[6]);
  ${
    normal
      ? `let k = vec2<u32>(g.x, g.y & 0xfffffffeu);
  let u1 = uniform_at(seed, k);
  let u2 = uniform_at(seed, add64(k, vec2<u32>(0u, 1u)));
  let r = sqrt(-2.0 * log(1.0 - u1));
  let theta = 6.2831853071795864 * u2;
  let z = select(r * cos(theta), r * sin(theta), (g.y & 1u) == 1u);
  out[i] = bitcast<u32>(p0 + p1 * z);`
      : `// p0 = low, p1 = width, p2 = the largest float32 below high (0 width: low)
  let v = p0 + p1 * uniform_at(seed, g);
  out[i] = bitcast<u32>(select(v, p2, v > p2 && p1 > 0.0));`
  }
}
`;

function splitU64(v: number): [number, number] {
  return [Math.floor(v / 4294967296) >>> 0, v >>> 0];
}

function below(x: number): number {
  const f = Math.fround(x);
  if (f < x) return f;
  if (f === 0) return -(2 ** -149);
  F32[0] = f;
  U32[0] = U32[0]! + (f > 0 ? -1 : 1);
  return F32[0]!;
}

async function randomBlock(
  rt: GpuRuntime,
  p: UniformParams | NormalParams,
  normal: boolean,
  params: [number, number, number],
  seed: readonly [number, number],
): Promise<GpuTensor> {
  if (p.dtype !== 'float32') {
    throw new DTypeError(
      `random: the WebGPU random kernels make float32, got '${p.dtype}'; use dtype 'float32'`,
    );
  }
  const out = rt.alloc('float32', p.shape);
  const n = shapeSize(p.shape);
  if (n === 0) return out;
  const nd = p.shape.length;
  const gStrides: number[] = new Array(nd);
  for (let ax = nd - 1, acc = 1; ax >= 0; ax--) {
    gStrides[ax] = acc;
    acc *= p.arrayShape[ax]!;
  }
  const split = gStrides.map(splitU64);
  const meta = rt.meta([
    n,
    nd,
    seed[0],
    seed[1],
    ...params.map(bits),
    ...p.shape,
    ...p.offset,
    ...split.map((s) => s[0]),
    ...split.map((s) => s[1]),
  ]);
  const pipe = await rt.pipeline(`random|${normal ? 'normal' : 'uniform'}`, () => SOURCE(normal));
  rt.dispatch(pipe, [meta.buffer, out.buffer], n);
  rt.free(meta);
  return out;
}

/** A block of uniforms in [low, high) at its place in the whole array. */
export function randomUniform(rt: GpuRuntime, p: UniformParams): Promise<GpuTensor> {
  const cap = p.high > p.low ? below(p.high) : p.low;
  return randomBlock(rt, p, false, [p.low, p.high - p.low, cap], p.seed);
}

/** A block of normals (Box–Muller on counter pairs, the CPU's separate stream). */
export function randomNormal(rt: GpuRuntime, p: NormalParams): Promise<GpuTensor> {
  const seed: [number, number] = [(p.seed[0] ^ 0x6a09e667) >>> 0, p.seed[1]];
  return randomBlock(rt, p, true, [p.mean, p.std, 0], seed);
}
