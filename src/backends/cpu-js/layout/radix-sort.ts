// LSD radix sort of float64 lines: IEEE bits mapped to order-preserving unsigned keys (sign
// flipped, negatives inverted; every NaN one positive NaN, so NaNs sort last), eight byte
// passes that skip a byte equal on every element. Same order as TypedArray sort, -0 before 0.

/** Lines shorter than this sort faster with TypedArray.prototype.sort. */
export const RADIX_MIN = 64;

const HIST = new Uint32Array(256 * 8);
const OFF = new Uint32Array(256);

/** Float64 bits (lo, hi words) as the (lo, hi) words of an ascending unsigned key. */
function toKeys(src: Uint32Array, keys: Uint32Array, n: number): void {
  HIST.fill(0);
  for (let i = 0; i < n; i++) {
    let lo = src[2 * i]!;
    let hi = src[2 * i + 1]!;
    if ((hi & 0x7ff00000) === 0x7ff00000 && ((hi & 0xfffff) !== 0 || lo !== 0)) {
      hi = 0x7ff80000;
      lo = 0;
    }
    if (hi & 0x80000000) {
      hi = ~hi >>> 0;
      lo = ~lo >>> 0;
    } else hi = (hi | 0x80000000) >>> 0;
    keys[2 * i] = lo;
    keys[2 * i + 1] = hi;
    for (let b = 0; b < 4; b++) {
      HIST[b * 256 + ((lo >>> (8 * b)) & 255)]! += 1;
      HIST[1024 + b * 256 + ((hi >>> (8 * b)) & 255)]! += 1;
    }
  }
}

/** One stable counting pass on byte `pass` (0 = lowest); false when it was skipped. */
function bytePass(from: Uint32Array, to: Uint32Array, n: number, pass: number): boolean {
  const h = pass * 256;
  const shift = (pass & 3) * 8;
  const word = pass >> 2;
  if (HIST[h + ((from[word]! >>> shift) & 255)] === n) return false;
  let sum = 0;
  for (let d = 0; d < 256; d++) {
    OFF[d] = sum;
    sum += HIST[h + d]!;
  }
  for (let i = 0; i < n; i++) {
    const lo = from[2 * i]!;
    const hi = from[2 * i + 1]!;
    const d = ((word === 0 ? lo : hi) >>> shift) & 255;
    const o = OFF[d]!;
    OFF[d] = o + 1;
    to[2 * o] = lo;
    to[2 * o + 1] = hi;
  }
  return true;
}

/**
 * Sort a float64 line ascending in place; `scratch` holds at least 4 × line.length words.
 * @example
 * radixSortFloat64(new Float64Array([2, Number.NaN, -1]), new Uint32Array(12)); // [-1, 2, NaN]
 */
export function radixSortFloat64(line: Float64Array, scratch: Uint32Array): void {
  const n = line.length;
  const src = new Uint32Array(line.buffer, line.byteOffset, 2 * n);
  let from = scratch.subarray(0, 2 * n);
  let to = scratch.subarray(2 * n, 4 * n);
  toKeys(src, from, n);
  for (let pass = 0; pass < 8; pass++) {
    if (bytePass(from, to, n, pass)) [from, to] = [to, from];
  }
  for (let i = 0; i < n; i++) {
    let lo = from[2 * i]!;
    let hi = from[2 * i + 1]!;
    if (hi & 0x80000000) hi = (hi & 0x7fffffff) >>> 0;
    else {
      hi = ~hi >>> 0;
      lo = ~lo >>> 0;
    }
    src[2 * i] = lo;
    src[2 * i + 1] = hi;
  }
}
