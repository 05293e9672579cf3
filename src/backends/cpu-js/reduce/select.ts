// Order statistics in place: quickselect (Hoare partition, median-of-three pivot) for a few
// ranks, one after another on the shrinking right part; a full sort for many ranks.

/** Past this many ranks one sort is cheaper than repeated selection. */
const SORT_ABOVE = 8;

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i]!;
  a[i] = a[j]!;
  a[j] = t;
}

/** The smallest of a[lo..hi] moved to a[lo] (a quickselect for k = lo is a min scan). */
function minToFront(a: Float64Array, lo: number, hi: number): void {
  let at = lo;
  for (let i = lo + 1; i <= hi; i++) if (a[i]! < a[at]!) at = i;
  swap(a, lo, at);
}

/** Rearrange a[lo..hi] so that a[k] is the value a sort would put there (no NaN in a). */
function selectK(a: Float64Array, lo: number, hi: number, k: number): void {
  if (k === lo) {
    minToFront(a, lo, hi);
    return;
  }
  let rounds = 0;
  while (hi > lo) {
    if (++rounds > 64) {
      a.subarray(lo, hi + 1).sort();
      return;
    }
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < a[lo]!) swap(a, mid, lo);
    if (a[hi]! < a[lo]!) swap(a, hi, lo);
    if (a[hi]! < a[mid]!) swap(a, hi, mid);
    const pivot = a[mid]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) swap(a, i++, j--);
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

/**
 * Put the sorted-order values at `ranks` (ascending, distinct, within [0, n)) in place in
 * a[0..n); a holds no NaN.
 * @example
 * selectRanks(buf, 5, [2]); // buf[2] is the median of buf[0..5)
 */
export function selectRanks(a: Float64Array, n: number, ranks: readonly number[]): void {
  if (ranks.length > SORT_ABOVE) {
    a.subarray(0, n).sort();
    return;
  }
  let lo = 0;
  for (const k of ranks) {
    selectK(a, lo, n - 1, k);
    lo = k + 1;
  }
}
