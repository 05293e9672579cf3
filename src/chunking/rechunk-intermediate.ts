// Intermediate chunkings for planRechunk: Dask's divide_to_width, a greedy merge, and a
// balanced midpoint that trades graph size on both sides of it against a block-size limit.

/**
 * Split every chunk into near-equal parts of at most `width` (Dask's divide_to_width).
 * @example
 * divideToWidth([10, 3], 4); // [3, 3, 4, 3]
 */
export function divideToWidth(chunks: readonly number[], width: number): number[] {
  const out: number[] = [];
  for (let c of chunks) {
    const parts = Math.max(1, Math.ceil(c / width));
    for (let i = 0; i < parts; i++) {
      const n = Math.floor(c / (parts - i));
      out.push(n);
      c -= n;
    }
  }
  return out;
}

/**
 * Merge runs of neighbouring chunks while their sum stays within `width` (a chunk larger
 * than `width` stays alone).
 * @example
 * groupToWidth([2, 2, 2, 2, 2], 5); // [4, 4, 2]
 */
export function groupToWidth(chunks: readonly number[], width: number): number[] {
  const out: number[] = [];
  let cur = 0;
  let open = false;
  for (const c of chunks) {
    if (open && cur + c > width) {
      out.push(cur);
      cur = 0;
    }
    cur += c;
    open = true;
  }
  if (open) out.push(cur);
  return out;
}

/**
 * A midpoint between `old` and `target` whose largest block holds at most `limit` elements,
 * or undefined. Axes whose chunks shrink are merged from the target's chunks up to a width,
 * axes whose chunks grow are the target's chunks divided down to a width; the widths are
 * chosen to minimise the estimated pieces of old→mid plus mid→target (each axis side costs
 * about length / the finer width), which is Dask's grow-versus-shrink split made balanced.
 * Known, positive sizes only.
 */
export function balancedIntermediate(
  old: readonly (readonly number[])[],
  target: readonly (readonly number[])[],
  limit: number,
): number[][] | undefined {
  type Changed = { ax: number; lo: number; hi: number; shrink: boolean };
  const shrink: Changed[] = [];
  const grow: Changed[] = [];
  let fixed = 1;
  let a = 1; // pieces of old→mid at the widest midpoint, times that midpoint's product
  let c = 1; // same for mid→target
  for (let ax = 0; ax < old.length; ax++) {
    const o = old[ax]!;
    const t = target[ax]!;
    const length = sum(o);
    const co = maxOf(o);
    const ct = maxOf(t);
    if (same(o, t)) {
      fixed *= co;
      continue;
    }
    if (ct <= co) {
      shrink.push({ ax, lo: ct, hi: co, shrink: true });
      a *= length;
      c *= length / ct;
    } else {
      grow.push({ ax, lo: co, hi: ct, shrink: false });
      a *= length / co;
      c *= length;
    }
  }
  const budget = limit / fixed;
  const xLo = product(shrink.map((s) => s.lo));
  const xHi = product(shrink.map((s) => s.hi));
  const yLo = product(grow.map((s) => s.lo));
  const yHi = product(grow.map((s) => s.hi));
  if (xLo * yLo > budget) return undefined;
  let x = xHi;
  let y = yHi;
  if (xHi * yHi > budget) {
    x = Math.min(Math.max(Math.sqrt((a * budget) / c), xLo), xHi, budget / yLo);
    y = Math.min(yHi, budget / x);
  }
  const width = new Map<number, number>();
  spread(shrink, x, xLo, xHi, width);
  spread(grow, y, yLo, yHi, width);
  const mid = old.map((o, ax) => {
    const w = width.get(ax);
    if (w === undefined) return [...o];
    const t = target[ax]!;
    return maxOf(t) <= maxOf(o) ? groupToWidth(t, w) : divideToWidth(t, w);
  });
  return product(mid.map((m) => maxOf(m))) <= limit ? mid : undefined;
}

/** Widths per axis with product about `p`, interpolated geometrically between lo and hi. */
function spread(
  axes: readonly { ax: number; lo: number; hi: number }[],
  p: number,
  pLo: number,
  pHi: number,
  out: Map<number, number>,
): void {
  const t = pHi > pLo ? Math.log(p / pLo) / Math.log(pHi / pLo) : 0;
  for (const { ax, lo, hi } of axes) {
    const w = Math.floor(lo ** (1 - t) * hi ** t * (1 + 1e-12));
    out.set(ax, Math.min(hi, Math.max(lo, w)));
  }
}

function same(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

function sum(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}

function product(xs: readonly number[]): number {
  let p = 1;
  for (const x of xs) p *= x;
  return p;
}

function maxOf(xs: readonly number[]): number {
  let m = 0;
  for (const x of xs) if (x > m) m = x;
  return m;
}
