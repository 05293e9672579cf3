// IEEE 754 binary16 ("float16") conversions: bits held in a Uint16Array ⇄ JS numbers.
// Encoding rounds to nearest-even straight from float64, as NumPy's npy_double_to_half.

const F64 = new Float64Array(1);
const HI = new Uint32Array(F64.buffer, 4, 1);
/** 2 ** k for k in -25..25, exact, indexed by k + 25. */
const POW2 = Float64Array.from({ length: 51 }, (_, i) => 2 ** (i - 25));
let decodeTable: Float64Array | undefined;

/** Round half to even of a non-negative float64 below 2^52. */
function roundHalfEven(v: number): number {
  const r = Math.round(v);
  return r - v === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/**
 * The binary16 bits nearest to `x` (ties to even): overflow gives ±inf, NaN gives 0x7e00
 * with the NaN's sign bit, and subnormals round correctly (no double rounding via float32).
 * @example
 * float16Bits(1); // 0x3c00
 * float16Bits(65520); // 0x7c00 (inf: the tie rounds to even, past 65504)
 */
export function float16Bits(x: number): number {
  F64[0] = x;
  const hi = HI[0]!;
  const sign = (hi >>> 16) & 0x8000;
  const exp = (hi >>> 20) & 0x7ff;
  if (exp === 0x7ff) return sign | (Number.isNaN(x) ? 0x7e00 : 0x7c00);
  const a = x < 0 ? -x : x;
  if (a >= 65520) return sign | 0x7c00;
  // Below 2^-14 (float64 exponent field 1009) the half is subnormal: a multiple of 2^-24.
  if (exp < 1009) return sign | roundHalfEven(a * POW2[49]!);
  const e = exp - 1023;
  // a · 2^(10-e) lies in [1024, 2048); a rounding up to 2048 carries into the exponent.
  return sign | (((e + 15) << 10) + roundHalfEven(a * POW2[35 - e]!) - 1024);
}

/** The number binary16 bits `h` stand for (exact; NaN for every NaN pattern). */
function decode(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return s * m * POW2[1]!;
  if (e === 31) return m === 0 ? s * Number.POSITIVE_INFINITY : Number.NaN;
  return s * (1024 + m) * POW2[e]!;
}

/**
 * The value of each of the 65536 bit patterns, built on first use (512 KiB per thread):
 * generated loops decode with one indexed load.
 */
export function float16Table(): Float64Array {
  if (decodeTable === undefined) {
    decodeTable = new Float64Array(65536);
    for (let h = 0; h < 65536; h++) decodeTable[h] = decode(h);
  }
  return decodeTable;
}

/**
 * The number that binary16 bits `h` (0..65535) stand for.
 * @example
 * float16Value(0x3c00); // 1
 * float16Value(0x0001); // 2 ** -24
 */
export function float16Value(h: number): number {
  return float16Table()[h & 0xffff]!;
}

/**
 * `x` rounded to the nearest float16 value, as a number.
 * @example
 * roundToFloat16(0.1); // 0.0999755859375
 */
export function roundToFloat16(x: number): number {
  return float16Table()[float16Bits(x)]!;
}
