// WGSL scalar semantics matching the CPU loops (ew-codegen.ts): typed literals, conversions
// that wrap and truncate like JS casts, and NumPy's floor division, remainder and pow.

import type { DType } from '../../array/dtype.ts';
import { castScalar } from '../cpu-js/elementwise/ew-codegen.ts';
import { wgslType } from './gpu-dtype.ts';

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);

/** A WGSL literal of `v` stored as dtype `d` (exact bits for float32: NaN, ±Infinity, -0). */
export function wgslLiteral(v: number, d: DType): string {
  const x = castScalar(v, d);
  const t = wgslType('ew', d);
  if (t === 'f32') {
    F32[0] = x;
    return `f_bits(0x${U32[0]!.toString(16)}u)`;
  }
  if (t === 'i32') return `bitcast<i32>(${x >>> 0}u)`;
  return `${x >>> 0}u`;
}

/**
 * WGSL converting `code` (a value of dtype `from`) to dtype `to` as the CPU casts do:
 * integers wrap at their width, floats truncate toward zero (NaN → 0), bool is `!= 0`.
 * Floats outside the int32/uint32 range saturate instead of wrapping.
 */
export function wgslConvert(code: string, from: DType, to: DType): string {
  if (from === to) return code;
  const tf = wgslType('ew', from);
  const tt = wgslType('ew', to);
  if (to === 'bool') return `select(0u, 1u, ${code} != ${tf}(0))`;
  // Integers reach f32 exactly below 2^24, and past 65520 everything is ±inf in float16.
  if (to === 'float16') return `f16_round(${tf === 'f32' ? code : `f32(${code})`})`;
  if (to === 'uint8') {
    if (tf === 'u32') return from === 'bool' ? code : `(${code} & 255u)`;
    return `(${wgslConvert(code, from, 'uint32')} & 255u)`;
  }
  if (tt === 'f32') return `f32(${code})`;
  if (tt === 'i32') {
    if (tf === 'f32') return `f2i(${code})`;
    return `bitcast<i32>(${code})`;
  }
  // to uint32
  if (tf === 'f32') return `f2u(${code})`;
  return `bitcast<u32>(${code})`;
}

/** Source that wraps a freshly computed value of `d` to its width (uint8, bool, float16). */
export function wgslWrap(code: string, d: DType): string {
  if (d === 'float16') return `f16_round(${code})`;
  if (d === 'uint8') return `(${code} & 255u)`;
  if (d === 'bool') return `select(0u, 1u, ${code} != 0u)`;
  return code;
}

/** Helper functions every generated shader includes. */
export const WGSL_SCALAR_PRELUDE = /* wgsl */ `
// Non-finite values through a function: WGSL rejects NaN and Infinity in const expressions.
fn f_bits(u: u32) -> f32 { return bitcast<f32>(u); }
fn f_nan() -> f32 { return f_bits(0x7fc00000u); }
const F_NEG_ZERO = bitcast<f32>(0x80000000u);
const I_MIN = bitcast<i32>(0x80000000u);
fn f_isnan(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }
fn f_isfinite(x: f32) -> bool { return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u; }
fn f_isinf(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) == 0x7f800000u; }
fn f_neg(x: f32) -> bool { return (bitcast<u32>(x) & 0x80000000u) != 0u && !f_isnan(x); }
fn f2i(x: f32) -> i32 { return select(i32(x), 0, f_isnan(x)); }
fn f2u(x: f32) -> u32 {
  if (f_isnan(x)) { return 0u; }
  if (x < 0.0) { return bitcast<u32>(i32(x)); }
  return u32(x);
}
fn f_max(x: f32, y: f32) -> f32 { return select(max(x, y), f_nan(), f_isnan(x) || f_isnan(y)); }
fn f_min(x: f32, y: f32) -> f32 { return select(min(x, y), f_nan(), f_isnan(x) || f_isnan(y)); }
fn f_sign(x: f32) -> f32 {
  if (f_isnan(x)) { return x; }
  return select(select(0.0, -1.0, x < 0.0), 1.0, x > 0.0);
}
fn f_fmod(a: f32, b: f32) -> f32 { return a - b * trunc(a / b); }
fn f_floordiv(a: f32, b: f32) -> f32 {
  if (b == 0.0) { return a / b; }
  let m = f_fmod(a, b);
  var d = (a - m) / b;
  if (m != 0.0 && ((b < 0.0) != (m < 0.0))) { d = d - 1.0; }
  if (d == 0.0) { return select(0.0, F_NEG_ZERO, f_neg(a / b)); }
  let fl = floor(d);
  return select(fl, fl + 1.0, d - fl > 0.5);
}
fn f_rem(a: f32, b: f32) -> f32 {
  if (b == 0.0) { return f_nan(); }
  var m = f_fmod(a, b);
  if (m != 0.0) {
    if ((b < 0.0) != (m < 0.0)) { m = m + b; }
  } else {
    m = select(0.0, F_NEG_ZERO, b < 0.0);
  }
  return m;
}
fn f_pow(a: f32, b: f32) -> f32 {
  if (a == 1.0 || b == 0.0) { return 1.0; }
  if (f_isnan(a) || f_isnan(b)) { return f_nan(); }
  if (a == -1.0 && f_isinf(b)) { return 1.0; }
  let isInt = floor(b) == b && f_isfinite(b);
  let odd = isInt && abs(b) < 16777216.0 && (i32(b) & 1) == 1;
  if (a == 0.0) {
    if (b > 0.0) { return select(0.0, a, odd); }
    return select(f_bits(0x7f800000u), 1.0 / a, odd);
  }
  if (a < 0.0) {
    if (!isInt && f_isfinite(a)) { return f_nan(); }
    let r = pow(-a, b);
    return select(r, -r, odd);
  }
  return pow(a, b);
}
fn f_expm1(x: f32) -> f32 {
  let u = exp(x);
  if (u == 1.0) { return x; }
  let um1 = u - 1.0;
  if (um1 == -1.0 || f_isinf(u)) { return um1; }
  return um1 * x / log(u);
}
fn f_log1p(x: f32) -> f32 {
  let u = 1.0 + x;
  if (u == 1.0) { return x; }
  if (f_isinf(u) || u == 0.0) { return log(u); }
  return log(u) * x / (u - 1.0);
}
fn f_tanh(x: f32) -> f32 { return select(tanh(clamp(x, -12.0, 12.0)), x, f_isnan(x)); }
fn i_floordiv(a: i32, b: i32) -> i32 {
  if (b == 0) { return 0; }
  if (a == I_MIN && b == -1) { return I_MIN; }
  let q = a / b;
  let r = a - q * b;
  return select(q, q - 1, r != 0 && ((r < 0) != (b < 0)));
}
fn u_floordiv(a: u32, b: u32) -> u32 { return select(a / max(b, 1u), 0u, b == 0u); }
fn i_rem(a: i32, b: i32) -> i32 {
  if (b == 0 || (a == I_MIN && b == -1)) { return 0; }
  let r = a - (a / b) * b;
  return select(r, r + b, r != 0 && ((r < 0) != (b < 0)));
}
fn u_rem(a: u32, b: u32) -> u32 { return select(a % max(b, 1u), 0u, b == 0u); }
fn i_pow(a: i32, b: i32) -> i32 {
  if (b < 0) { return select(select(0, select(-1, 1, (b & 1) == 0), a == -1), 1, a == 1); }
  var r = 1;
  var base = a;
  var e = b;
  while (e > 0) {
    if ((e & 1) == 1) { r = r * base; }
    base = base * base;
    e = e >> 1u;
  }
  return r;
}
// float16 as binary16 bits (the low 16 bits of a u32) with integer operations only: WGSL
// leaves unpack2x16float/pack2x16float indeterminate for inf, NaN and out-of-range values.
fn f16_decode(h: u32) -> f32 {
  let s = (h & 0x8000u) << 16u;
  let e = (h >> 10u) & 0x1fu;
  let m = h & 0x3ffu;
  if (e == 31u) { return bitcast<f32>(s | 0x7f800000u | (m << 13u)); }
  if (e != 0u) { return bitcast<f32>(s | ((e + 112u) << 23u) | (m << 13u)); }
  if (m == 0u) { return bitcast<f32>(s); }
  // Subnormal: m · 2^-24 is a normal f32; normalise on the leading bit p.
  let p = firstLeadingBit(m);
  return bitcast<f32>(s | ((p + 103u) << 23u) | ((m << (23u - p)) & 0x7fffffu));
}
// The nearest binary16 (ties to even): ±inf from 65520 up, NaN as 0x7e00 with its sign.
fn f16_encode(x: f32) -> u32 {
  let b = bitcast<u32>(x);
  let s = (b >> 16u) & 0x8000u;
  let a = b & 0x7fffffffu;
  if (a > 0x7f800000u) { return s | 0x7e00u; }
  if (a >= 0x477ff000u) { return s | 0x7c00u; }
  if (a >= 0x38800000u) {
    // Normal: rebias the exponent (127 → 15) and round off 13 bits; a carry bumps the exponent.
    let r = a - 0x38000000u;
    let q = r >> 13u;
    let rem = r & 0x1fffu;
    return s | (q + select(0u, 1u, rem > 0x1000u || (rem == 0x1000u && (q & 1u) == 1u)));
  }
  // Below 2^-14: a multiple of 2^-24 (2^-25 and less round to zero; the tie goes to even 0).
  if (a <= 0x33000000u) { return s; }
  let sh = 126u - (a >> 23u);
  let m = (a & 0x7fffffu) | 0x800000u;
  let q = m >> sh;
  let rem = m & ((1u << sh) - 1u);
  let half = 1u << (sh - 1u);
  return s | (q + select(0u, 1u, rem > half || (rem == half && (q & 1u) == 1u)));
}
fn f16_round(x: f32) -> f32 { return f16_decode(f16_encode(x)); }
fn u_pow(a: u32, b: u32) -> u32 {
  var r = 1u;
  var base = a;
  var e = b;
  while (e > 0u) {
    if ((e & 1u) == 1u) { r = r * base; }
    base = base * base;
    e = e >> 1u;
  }
  return r;
}
`;
