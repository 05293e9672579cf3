// Sorting float64 runs fast in plain JS: two LSD radix passes on the 22 key bits just below
// the highest bit that differs within the run, then an insertion pass to finish the order.
//
// The key of a double is its bit pattern with the sign bit flipped for positives and every bit
// flipped for negatives (Herf, "Radix Tricks"), read as two int32 words through a view of the
// same bytes. Skipping the constant top bits (sign, most of the exponent) makes two passes of
// 11-bit digits enough to leave only ties for the insertion pass on most data. Where many
// values share those 22 bits (a narrow range), the insertion pass gives up after a budget of
// moves and MSD radix passes split the crowded buckets first. NaNs are set aside and written
// last, as TypedArray sort and numpy do; -0 sorts before +0, as TypedArray sort does.

const MAX_BITS = 11;
/** Buckets up to this size are left to the insertion pass. */
const SMALL = 32;
/** Moves per value the insertion pass may make before MSD passes take over. */
const MOVE_BUDGET = 8;
/** 0x80000000 as an int32 */
const SIGN = -0x80000000;

/** Reusable work buffers (grown on demand): keep one per thread. */
export class RadixScratch {
  tmp = new Float64Array(0);
  kept = new Float64Array(0);
  /** Digit counts, one table per use (two LSD digits, then one per MSD depth). */
  readonly counts: Int32Array[] = [];

  ensure(n: number): void {
    if (this.tmp.length >= n) return;
    this.tmp = new Float64Array(n);
    this.kept = new Float64Array(n);
  }

  table(i: number): Int32Array {
    while (this.counts.length <= i) this.counts.push(new Int32Array(1 << MAX_BITS));
    return this.counts[i]!;
  }
}

const wordsOf = (f: Float64Array): Int32Array =>
  new Int32Array(f.buffer, f.byteOffset, f.length * 2);

/** Digit width for n values: about log2(n) bits, at least 4, at most MAX_BITS. */
const digitBits = (n: number): number => Math.min(MAX_BITS, Math.max(4, 32 - Math.clz32(n)));

/** Key bits [low, low + width) of the double whose words are (hi, lo); mask = 2^width - 1. */
function digitAt(hi: number, lo: number, low: number, width: number, mask: number): number {
  const sg = hi >> 31;
  if (low >= 32) return ((hi ^ (sg | SIGN)) >>> (low - 32)) & mask;
  if (low + width <= 32) return ((lo ^ sg) >>> low) & mask;
  return (((hi ^ (sg | SIGN)) << (32 - low)) | ((lo ^ sg) >>> low)) & mask;
}

/**
 * Highest bit (0–63) at which the keys of `w`'s n values differ, -1 when all are equal, and
 * whether some value has an all-ones exponent (Infinity or NaN).
 */
function scan(w: Int32Array, n: number): { top: number; special: boolean } {
  const h0 = w[1]!;
  const l0 = w[0]!;
  let dh = 0;
  let dl = 0;
  let flags = 0;
  for (let p = 0, e = 2 * n; p < e; p += 2) {
    const hi = w[p + 1]!;
    dh |= hi ^ h0;
    dl |= w[p]! ^ l0;
    // the add carries into bit 31 only for an all-ones exponent
    flags |= ((hi & 0x7ff00000) + 0x00100000) | 0;
  }
  // keys differ where raw bits differ, except that a sign change flips everything below it
  const top = dh < 0 ? 63 : dh !== 0 ? 63 - Math.clz32(dh) : dl !== 0 ? 31 - Math.clz32(dl) : -1;
  return { top, special: flags < 0 };
}

/** Turn digit counts into bucket starts. */
function starts(c: Int32Array, size: number): void {
  for (let k = 0, sum = 0; k < size; k++) {
    const x = c[k]!;
    c[k] = sum;
    sum += x;
  }
}

/** Stable counting pass on key bits [low, low + width) from sf into df (starts in c). */
function pass(sf: Float64Array, df: Float64Array, low: number, width: number, c: Int32Array) {
  const n = sf.length;
  const sw = wordsOf(sf);
  const mask = (1 << width) - 1;
  starts(c, 1 << width);
  for (let i = 0, p = 0; i < n; i++, p += 2) {
    df[c[digitAt(sw[p + 1]!, sw[p]!, low, width, mask)]!++] = sf[i]!;
  }
}

/** Two LSD passes (one when the differing bits fit one digit) on the bits below `top`. */
function lsdTop(src: Float64Array, dst: Float64Array, top: number, s: RadixScratch): void {
  const n = src.length;
  const width = digitBits(n);
  const mask = (1 << width) - 1;
  const high = Math.max(0, top + 1 - width);
  const c2 = s.table(1);
  c2.fill(0, 0, 1 << width);
  const w = wordsOf(src);
  if (high === 0) {
    for (let p = 0; p < 2 * n; p += 2) c2[digitAt(w[p + 1]!, w[p]!, 0, width, mask)]!++;
    pass(src, dst, 0, width, c2);
    return;
  }
  const low = Math.max(0, high - width);
  const c1 = s.table(0);
  c1.fill(0, 0, 1 << width);
  for (let p = 0; p < 2 * n; p += 2) {
    const hi = w[p + 1]!;
    const lo = w[p]!;
    c1[digitAt(hi, lo, low, width, mask)]!++;
    c2[digitAt(hi, lo, high, width, mask)]!++;
  }
  const tmp = s.tmp.subarray(0, n);
  pass(src, tmp, low, width, c1);
  pass(tmp, dst, high, width, c2);
}

/** Insertion sort in place (-0 before +0); false when it stopped after `budget` moves. */
function insertionPass(f: Float64Array, budget: number): boolean {
  const n = f.length;
  let moves = 0;
  for (let i = 1; i < n; i++) {
    const v = f[i]!;
    let a = f[i - 1]!;
    if (!(a > v || (v === 0 && a === 0 && 1 / v < 1 / a))) continue;
    let j = i - 1;
    do {
      f[j + 1] = a;
      j--;
      if (j < 0) break;
      a = f[j]!;
    } while (a > v || (v === 0 && a === 0 && 1 / v < 1 / a));
    f[j + 1] = v;
    moves += i - 1 - j;
    if (moves > budget) return false;
  }
  return true;
}

/** MSD: split f into buckets of at most SMALL values, in place, in key order. */
function refine(f: Float64Array, s: RadixScratch, depth: number): void {
  const n = f.length;
  const { top } = scan(wordsOf(f), n);
  if (top < 0) return;
  const width = Math.min(digitBits(n), top + 1);
  const low = top + 1 - width;
  const mask = (1 << width) - 1;
  const c = s.table(2 + depth);
  c.fill(0, 0, 1 << width);
  const w = wordsOf(f);
  for (let p = 0; p < 2 * n; p += 2) c[digitAt(w[p + 1]!, w[p]!, low, width, mask)]!++;
  const tmp = s.tmp.subarray(0, n);
  pass(f, tmp, low, width, c);
  f.set(tmp);
  // c now holds each bucket's end
  for (let k = 0, start = 0; k < 1 << width; k++) {
    const end = c[k]!;
    if (end - start > SMALL) refine(f.subarray(start, end), s, depth + 1);
    start = end;
  }
}

/** Sort the non-NaN values of src (no NaN among them) into dst. */
function sortNumbers(src: Float64Array, dst: Float64Array, s: RadixScratch, top: number): void {
  const n = src.length;
  if (top < 0 || n <= SMALL) {
    dst.set(src);
    insertionPass(dst, Number.POSITIVE_INFINITY);
    return;
  }
  lsdTop(src, dst, top, s);
  if (insertionPass(dst, MOVE_BUDGET * n)) return;
  refine(dst, s, 0);
  insertionPass(dst, Number.POSITIVE_INFINITY);
}

/**
 * Sort the float64 values of `src` into `dst` (same length, not overlapping) in the order of
 * Float64Array.prototype.sort: -Infinity … -0, +0 … Infinity, then NaN. `src` is unchanged.
 * Pass a RadixScratch to reuse work buffers across calls.
 * @example
 * const out = new Float64Array(4);
 * radixSortFloat64(new Float64Array([3, NaN, -1, 0]), out); // out: [-1, 0, 3, NaN]
 */
export function radixSortFloat64(
  src: Float64Array,
  dst: Float64Array,
  scratch: RadixScratch = new RadixScratch(),
): void {
  const n = src.length;
  if (dst.length !== n) {
    throw new RangeError(`radixSortFloat64: dst has ${dst.length} values, src ${n}`);
  }
  if (n === 0) return;
  scratch.ensure(n);
  const { top, special } = scan(wordsOf(src), n);
  if (!special) {
    sortNumbers(src, dst, scratch, top);
    return;
  }
  let m = 0;
  const kept = scratch.kept;
  for (let i = 0; i < n; i++) {
    const v = src[i]!;
    if (!Number.isNaN(v)) kept[m++] = v;
  }
  const numbers = kept.subarray(0, m);
  if (m > 0) sortNumbers(numbers, dst.subarray(0, m), scratch, scan(wordsOf(numbers), m).top);
  dst.fill(Number.NaN, m);
}
