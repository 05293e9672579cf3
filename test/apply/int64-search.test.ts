// int64 and uint64 unique, searchsorted, topk/argtopk, gradient and coarsen against a dense
// BigInt reference on random shapes and chunkings, with values near ±2^63 and neighbours
// past 2^53 that a double cannot tell apart.

import { describe, expect, it } from 'vitest';
import type { NDArray } from '../../src/array/ndarray.ts';
import {
  argsort,
  argtopk,
  coarsen,
  compute,
  fromArray,
  gradient,
  max,
  mean,
  searchsorted,
  sum,
  topk,
  uniqueAll,
  uniqueCounts,
  uniqueInverse,
  uniqueValues,
} from '../../src/index.ts';
import {
  bigs,
  lazyBig,
  lines,
  MAX,
  MIN,
  randomBig,
  randomShape,
  size,
  wrap,
  wrapU,
} from '../helpers/int64-ref.ts';
import { rng } from '../helpers/reference.ts';

const SYNC = { scheduler: 'sync' } as const;
const DTYPES = ['int64', 'uint64'] as const;
const wrapOf = (dtype: 'int64' | 'uint64') => (dtype === 'int64' ? wrap : wrapU);
const cmp = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0);

/** Values near each other past 2^53 (many ties, neighbours a double rounds together). */
function closeBig(n: number, r: () => number): bigint[] {
  const base = [2n ** 60n, MIN, MAX - 8n, -(2n ** 55n), 2n ** 53n][Math.floor(r() * 5)]!;
  return Array.from({ length: n }, () =>
    r() < 0.3 ? randomBig(1, r)[0]! : base + BigInt(Math.floor(r() * 8)),
  );
}

const ints = (a: NDArray): number[] => Array.from(a.data as Int32Array);
const nums = (a: NDArray): number[] => Array.from(a.data as Float64Array);

describe('int64 and uint64 unique against BigInt order', () => {
  for (const dtype of DTYPES) {
    const w = wrapOf(dtype);
    it.each([1, 2, 3, 4, 5, 6, 7, 8])(`${dtype} uniqueAll and friends, seed %i`, async (seed) => {
      const r = rng(seed * 131 + dtype.length);
      const shape = randomShape(r);
      const values = closeBig(size(shape), r).map(w);
      const x = lazyBig(values, shape, r, dtype);
      const all = uniqueAll(x);
      const c = uniqueCounts(x);
      const inv = uniqueInverse(x);
      const [v, idx, ii, cnt, v1, c1, v2, i2] = await compute(
        all.values,
        all.indices,
        all.inverseIndices,
        all.counts,
        uniqueValues(x),
        c.counts,
        inv.values,
        inv.inverseIndices,
        SYNC,
      );
      const want = [...new Set(values)].sort(cmp);
      expect(v.dtype).toBe(dtype);
      expect(bigs(v)).toEqual(want);
      expect(ints(idx)).toEqual(want.map((u) => values.indexOf(u)));
      expect(ints(cnt)).toEqual(want.map((u) => values.filter((e) => e === u).length));
      expect(ii.shape).toEqual(shape);
      expect(ints(ii)).toEqual(values.map((e) => want.indexOf(e)));
      expect(bigs(v1)).toEqual(want);
      expect(ints(c1)).toEqual(ints(cnt));
      expect(bigs(v2)).toEqual(want);
      expect(ints(i2)).toEqual(ints(ii));
    });
  }

  it('keeps neighbours past 2^53 and the extremes apart, across blocks', async () => {
    const b = 2n ** 53n;
    const vals = [b + 1n, MAX, b, MIN, b + 1n, b + 2n, MAX, MIN + 1n, b];
    const x = fromArray(BigInt64Array.from(vals), { chunks: 2 });
    const u = uniqueAll(x);
    const [v, cnt, ii] = await compute(u.values, u.counts, u.inverseIndices, SYNC);
    expect(bigs(v)).toEqual([MIN, MIN + 1n, b, b + 1n, b + 2n, MAX]);
    expect(ints(cnt)).toEqual([1, 1, 2, 2, 1, 2]);
    expect(ints(ii)).toEqual([3, 5, 2, 0, 3, 4, 5, 1, 2]);
    const big = 2n ** 64n - 1n;
    const uv = await compute(
      uniqueValues(fromArray(BigUint64Array.of(big, 0n, big - 1n, big), { chunks: 3 })),
      SYNC,
    );
    expect(bigs(uv)).toEqual([0n, big - 1n, big]);
  });
});

/** NumPy's searchsorted of one value in sorted `a` by `lt` (left: a[i] < e; right: <=). */
function bisect<T>(a: readonly T[], e: T, right: boolean, lt: (p: T, q: T) => boolean): number {
  let n = 0;
  for (const m of a) if (right ? !lt(e, m) : lt(m, e)) n++;
  return n;
}

describe('int64 and uint64 searchsorted against BigInt bisection', () => {
  for (const dtype of DTYPES) {
    const w = wrapOf(dtype);
    it.each([1, 2, 3, 4, 5, 6])(`${dtype} values of the same dtype, seed %i`, async (seed) => {
      const r = rng(seed * 59 + dtype.length);
      const n = 1 + Math.floor(r() * 14);
      const sorted = closeBig(n, r).map(w).sort(cmp);
      const a = lazyBig(sorted, [n], r, dtype);
      const shape = randomShape(r, 4);
      // values from x1, their neighbours past 2^53, and others
      const vals = Array.from({ length: size(shape) }, () => {
        const u = r();
        const s = sorted[Math.floor(r() * n)]!;
        return w(u < 0.4 ? s : u < 0.7 ? s + BigInt(Math.floor(r() * 3) - 1) : randomBig(1, r)[0]!);
      });
      const v = lazyBig(vals, shape, r, dtype);
      const [left, right] = await compute(
        searchsorted(a, v),
        searchsorted(a, v, { side: 'right' }),
        SYNC,
      );
      expect(left.shape).toEqual(shape);
      const lt = (p: bigint, q: bigint) => p < q;
      expect(ints(left)).toEqual(vals.map((e) => bisect(sorted, e, false, lt)));
      expect(ints(right)).toEqual(vals.map((e) => bisect(sorted, e, true, lt)));
    });
  }

  it.each([1, 2, 3, 4])('int64 x1 with a sorter, seed %i', async (seed) => {
    const r = rng(seed * 61);
    const n = 2 + Math.floor(r() * 12);
    const raw = closeBig(n, r);
    const x1 = lazyBig(raw, [n], r, 'int64');
    const vals = raw.map((s) => s + BigInt(Math.floor(r() * 3) - 1)).map(wrap);
    const v = lazyBig(vals, [n], r, 'int64');
    const got = await compute(searchsorted(x1, v, { sorter: argsort(x1) }), SYNC);
    const sorted = [...raw].sort(cmp);
    expect(ints(got)).toEqual(vals.map((e) => bisect(sorted, e, false, (p, q) => p < q)));
  });

  it('int64 x1 with int32 values compares exactly; with float64 as NumPy, in float64', async () => {
    const b = 2n ** 53n;
    const sorted = [MIN, -5n, -1n, 0n, 3n, b - 1n, b, b + 1n, b + 2n, MAX];
    const x1 = fromArray(BigInt64Array.from(sorted), { chunks: 3 });
    const i32 = Int32Array.of(-5, 0, 2, 3, 7, -(2 ** 31), 2 ** 31 - 1);
    const f64 = Float64Array.of(2 ** 53, 2 ** 53 + 2, -5, 0.5, Number.NaN, -Infinity, 2 ** 63);
    const [li, ri, lf, rf] = await compute(
      searchsorted(x1, fromArray(i32, { chunks: 4 })),
      searchsorted(x1, fromArray(i32, { chunks: 4 }), { side: 'right' }),
      searchsorted(x1, fromArray(f64, { chunks: 2 })),
      searchsorted(x1, fromArray(f64, { chunks: 2 }), { side: 'right' }),
      SYNC,
    );
    const lt = (p: bigint, q: bigint) => p < q;
    expect(ints(li)).toEqual(Array.from(i32, (e) => bisect(sorted, BigInt(e), false, lt)));
    expect(ints(ri)).toEqual(Array.from(i32, (e) => bisect(sorted, BigInt(e), true, lt)));
    // NumPy casts both to float64: 2^53 and 2^53 + 1 both become 2^53, MAX becomes 2^63
    const asF = sorted.map(Number);
    const flt = (p: number, q: number) => p < q || (Number.isNaN(q) && !Number.isNaN(p));
    expect(ints(lf)).toEqual(Array.from(f64, (e) => bisect(asF, e, false, flt)));
    expect(ints(rf)).toEqual(Array.from(f64, (e) => bisect(asF, e, true, flt)));
    expect(ints(lf).slice(0, 2)).toEqual([6, 8]);
    expect(ints(rf).slice(0, 2)).toEqual([8, 9]);
  });

  it('uint64 x1 above 2^63 with uint64 and uint8 values; int64 with uint64', async () => {
    const top = 2n ** 64n - 1n;
    const sorted = [0n, 7n, 2n ** 63n, top - 1n, top];
    const x1 = fromArray(BigUint64Array.from(sorted), { chunks: 2 });
    const [a, b] = await compute(
      searchsorted(x1, fromArray(BigUint64Array.of(top, 2n ** 63n - 1n, 2n ** 63n, 8n))),
      searchsorted(x1, fromArray(Uint8Array.of(0, 7, 255)), { side: 'right' }),
      SYNC,
    );
    expect(ints(a)).toEqual([4, 2, 2, 2]);
    expect(ints(b)).toEqual([1, 2, 2]);
    // int64 with uint64 compares in float64, as NumPy: 2^53 + 1 rounds to 2^53
    const mixed = fromArray(BigInt64Array.of(-1n, 2n ** 53n + 1n));
    const [l, r] = await compute(
      searchsorted(mixed, fromArray(BigUint64Array.of(2n ** 53n))),
      searchsorted(mixed, fromArray(BigUint64Array.of(2n ** 53n)), { side: 'right' }),
      SYNC,
    );
    expect(ints(l)).toEqual([1]);
    expect(ints(r)).toEqual([2]);
  });
});

/** The best |k| positions of `vals` (largest first for k > 0), ties by the lower index. */
function topRef(vals: readonly bigint[], k: number): number[] {
  const desc = k > 0;
  return vals
    .map((_, i) => i)
    .sort((p, q) => {
      const c = cmp(vals[p]!, vals[q]!);
      return c === 0 ? p - q : desc ? -c : c;
    })
    .slice(0, Math.abs(k));
}

describe('int64 and uint64 topk and argtopk against BigInt order', () => {
  for (const dtype of DTYPES) {
    const w = wrapOf(dtype);
    it.each([1, 2, 3, 4, 5, 6, 7, 8])(`${dtype}, seed %i`, async (seed) => {
      const r = rng(seed * 83 + dtype.length);
      const shape = randomShape(r);
      shape[shape.length - 1] = 1 + Math.floor(r() * 12);
      const values = closeBig(size(shape), r).map(w);
      const x = lazyBig(values, shape, r, dtype);
      const axis = Math.floor(r() * shape.length);
      const n = shape[axis]!;
      const k = (1 + Math.floor(r() * n)) * (r() < 0.5 ? 1 : -1);
      const splitEvery = 2 + Math.floor(r() * 2);
      const [t, at] = await compute(
        topk(x, k, { axis, splitEvery }),
        argtopk(x, k, { axis, splitEvery }),
        SYNC,
      );
      const m = Math.abs(k);
      const outShape = shape.map((s, ax) => (ax === axis ? m : s));
      expect(t.dtype).toBe(dtype);
      expect(t.shape).toEqual(outShape);
      expect(at.dtype).toBe('int32');
      const wantV = new Array<bigint>(size(outShape));
      const wantI = new Array<number>(size(outShape));
      const outLines = lines(outShape, axis);
      lines(shape, axis).forEach((l, j) => {
        const best = topRef(
          l.map((i) => values[i]!),
          k,
        );
        best.forEach((pos, q) => {
          wantV[outLines[j]![q]!] = values[l[pos]!]!;
          wantI[outLines[j]![q]!] = pos;
        });
      });
      expect(bigs(t)).toEqual(wantV);
      expect(ints(at)).toEqual(wantI);
    });
  }

  it('tells apart neighbours a double rounds together, lower index first on ties', async () => {
    const b = 2n ** 62n;
    const x = fromArray(BigInt64Array.of(b + 1n, b + 3n, b, b + 3n, b, MIN, MAX), { chunks: 2 });
    const [t, at, lo] = await compute(topk(x, 3), argtopk(x, 4), argtopk(x, -3), SYNC);
    expect(bigs(t)).toEqual([MAX, b + 3n, b + 3n]);
    expect(ints(at)).toEqual([6, 1, 3, 0]);
    expect(ints(lo)).toEqual([5, 2, 4]);
  });
});

/** np.gradient (edge_order 1) of one line of doubles. */
function gradRef(f: readonly number[]): number[] {
  const n = f.length;
  return f.map((_, i) =>
    i === 0 ? f[1]! - f[0]! : i === n - 1 ? f[n - 1]! - f[n - 2]! : (f[i + 1]! - f[i - 1]!) / 2,
  );
}

describe('int64 and uint64 gradient in float64, as NumPy', () => {
  for (const dtype of DTYPES) {
    const w = wrapOf(dtype);
    it.each([1, 2, 3, 4, 5])(`${dtype}, seed %i`, async (seed) => {
      const r = rng(seed * 43 + dtype.length);
      const shape = randomShape(r).map((s) => s + 1);
      const values = randomBig(size(shape), r).map(w);
      const x = lazyBig(values, shape, r, dtype);
      const gs = await Promise.all(gradient(x).map((g) => compute(g, SYNC)));
      const f = values.map(Number);
      gs.forEach((g, axis) => {
        expect(g.dtype).toBe('float64');
        expect(g.shape).toEqual(shape);
        const want = new Array<number>(f.length);
        for (const l of lines(shape, axis)) {
          const d = gradRef(l.map((i) => f[i]!));
          l.forEach((i, q) => {
            want[i] = d[q]!;
          });
        }
        expect(nums(g)).toEqual(want);
      });
    });
  }

  it('rounds past 2^53 before differencing, as NumPy', async () => {
    const b = 2n ** 53n;
    const g = await compute(gradient(fromArray(BigInt64Array.of(b, b + 1n, b + 3n)), { axis: 0 }));
    expect(nums(g)).toEqual([0, 2, 4]);
  });
});

describe('int64 and uint64 coarsen: sums exact, means and moments in float64', () => {
  for (const dtype of DTYPES) {
    const w = wrapOf(dtype);
    it.each([1, 2, 3, 4, 5, 6])(`${dtype}, seed %i`, async (seed) => {
      const r = rng(seed * 67 + dtype.length);
      const nd = 1 + Math.floor(r() * 2);
      const factors = Array.from({ length: nd }, () => 1 + Math.floor(r() * 3));
      const shape = factors.map((f) => f * (1 + Math.floor(r() * 3)));
      const values = randomBig(size(shape), r).map(w);
      const x = lazyBig(values, shape, r, dtype);
      const axes = Object.fromEntries(factors.map((f, ax) => [ax, f]));
      const [s, p, m, lo, hi, v, sd, an, s2, mx2] = await compute(
        coarsen('sum', x, axes),
        coarsen('prod', x, axes),
        coarsen('mean', x, axes),
        coarsen('min', x, axes),
        coarsen('max', x, axes),
        coarsen('var', x, axes),
        coarsen('std', x, axes),
        coarsen('any', x, axes),
        coarsen(sum, x, axes),
        coarsen(max, x, axes),
        SYNC,
      );
      // each output element's window, as flat input indices
      const outShape = shape.map((n, ax) => n / factors[ax]!);
      const windows: bigint[][] = [];
      for (let o = 0; o < size(outShape); o++) {
        const oc = outShape.map(
          (_, ax) => Math.floor(o / size(outShape.slice(ax + 1))) % outShape[ax]!,
        );
        const win: bigint[] = [];
        for (let k = 0; k < size(factors); k++) {
          const kc = factors.map(
            (_, ax) => Math.floor(k / size(factors.slice(ax + 1))) % factors[ax]!,
          );
          let flat = 0;
          shape.forEach((n, ax) => {
            flat = flat * n + oc[ax]! * factors[ax]! + kc[ax]!;
          });
          win.push(values[flat]!);
        }
        windows.push(win);
      }
      expect(s.dtype).toBe(dtype);
      expect(p.dtype).toBe(dtype);
      expect(m.dtype).toBe('float64');
      expect(lo.dtype).toBe(dtype);
      expect(s.shape).toEqual(outShape);
      expect(bigs(s)).toEqual(windows.map((q) => w(q.reduce((a, b) => a + b, 0n))));
      expect(bigs(s2)).toEqual(bigs(s));
      expect(bigs(p)).toEqual(windows.map((q) => w(q.reduce((a, b) => a * b, 1n))));
      expect(bigs(lo)).toEqual(windows.map((q) => [...q].sort(cmp)[0]!));
      expect(bigs(hi)).toEqual(windows.map((q) => [...q].sort(cmp).at(-1)!));
      expect(bigs(mx2)).toEqual(bigs(hi));
      expect(Array.from(an.data as Uint8Array)).toEqual(
        windows.map((q) => (q.some((e) => e !== 0n) ? 1 : 0)),
      );
      const close = (got: number, want: number, scale: number): void => {
        expect(Math.abs(got - want)).toBeLessThanOrEqual(1e-12 * scale + 1e-12);
      };
      windows.forEach((q, i) => {
        const f = q.map(Number);
        const scale = Math.max(...f.map(Math.abs));
        // the exact sum rounded once, then divided (NumPy's float64 sum is within rounding)
        close(nums(m)[i]!, Number(q.reduce((a, b) => a + b, 0n)) / q.length, scale);
        const mu = f.reduce((a, b) => a + b, 0) / f.length;
        const vr = f.reduce((a, b) => a + (b - mu) ** 2, 0) / f.length;
        close(nums(v)[i]!, vr, scale * scale);
        close(nums(sd)[i]!, Math.sqrt(vr), scale);
      });
    });
  }

  it('sums near the extremes wrap modulo 2^64 and means do not', async () => {
    const x = fromArray(BigInt64Array.of(MAX, 1n, MIN, -1n, 2n ** 53n, 2n ** 53n + 1n), {
      chunks: 3,
    });
    const [s, m] = await compute(coarsen('sum', x, { 0: 2 }), coarsen(mean, x, { 0: 2 }), SYNC);
    expect(bigs(s)).toEqual([MIN, MAX, 2n ** 54n + 1n]);
    expect(nums(m)).toEqual([2 ** 62, -(2 ** 62), 2 ** 53]);
  });
});
