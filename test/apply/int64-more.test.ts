// More int64 and uint64 functions against a dense BigInt reference on random shapes and
// chunkings: scans (cumsum, cumulativeSum, cumulativeProd, wrapping modulo 2^64; integer
// scans accumulate in int64/uint64 exactly), argmin/argmax, std/var (in float64, as NumPy),
// sort/argsort (stable, both directions), diff (wrapping modulo 2^64).

import { describe, expect, it } from 'vitest';
import {
  argmax,
  argmin,
  argsort,
  compute,
  cumsum,
  cumulativeProd,
  cumulativeSum,
  diff,
  fromArray,
  sort,
  std,
  variance,
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

/** The inclusive scan of `values` along `axis` by `f`, each step wrapped by `w`. */
function scanRef(
  values: readonly bigint[],
  shape: readonly number[],
  axis: number,
  f: (a: bigint, b: bigint) => bigint,
  w: (v: bigint) => bigint,
): bigint[] {
  const out = new Array<bigint>(values.length);
  for (const line of lines(shape, axis)) {
    let acc: bigint | undefined;
    for (const i of line) {
      acc = acc === undefined ? w(values[i]!) : w(f(acc, values[i]!));
      out[i] = acc;
    }
  }
  return out;
}

const DTYPES = ['int64', 'uint64'] as const;

describe('int64 and uint64 scans against BigInt arithmetic', () => {
  for (const dtype of DTYPES) {
    const w = dtype === 'int64' ? wrap : wrapU;
    it.each([1, 2, 3, 4, 5, 6])(`${dtype} cumsum and cumulativeProd, seed %i`, async (seed) => {
      const r = rng(seed * 101 + dtype.length);
      const shape = randomShape(r);
      const values = randomBig(size(shape), r).map(w);
      const x = lazyBig(values, shape, r, dtype);
      const axis = Math.floor(r() * shape.length);
      const [s, cs, p] = await compute(
        cumsum(x, { axis }),
        cumulativeSum(x, { axis }),
        cumulativeProd(x, { axis }),
        SYNC,
      );
      expect(s.dtype).toBe(dtype);
      expect(p.dtype).toBe(dtype);
      expect(s.shape).toEqual(shape);
      expect(bigs(s)).toEqual(scanRef(values, shape, axis, (a, b) => a + b, w));
      expect(bigs(cs)).toEqual(bigs(s));
      expect(bigs(p)).toEqual(scanRef(values, shape, axis, (a, b) => a * b, w));
    });
  }

  it('wraps at the edges and prepends the unit with includeInitial', async () => {
    const x = fromArray(BigInt64Array.of(MAX, 1n, MIN, -1n, 2n ** 62n), { chunks: 2 });
    const [s, p, si, pi] = await compute(
      cumsum(x),
      cumulativeProd(x),
      cumulativeSum(x, { includeInitial: true }),
      cumulativeProd(x, { includeInitial: true }),
      SYNC,
    );
    expect(bigs(s)).toEqual([MAX, MIN, 0n, -1n, 2n ** 62n - 1n]);
    expect(bigs(p)).toEqual([MAX, MAX, MIN, MIN, 0n]);
    expect(bigs(si)).toEqual([0n, ...bigs(s)]);
    expect(bigs(pi)).toEqual([1n, ...bigs(p)]);
  });

  it('integer inputs accumulate in int64 (uint64 if unsigned) exactly, past 2^53', async () => {
    const big = 2 ** 31 - 1;
    const r = rng(7);
    const n = 3000;
    const vals = Array.from({ length: n }, () => (r() < 0.5 ? big : -big + Math.floor(r() * 9)));
    const i32 = fromArray(Int32Array.from(vals), { chunks: 700 });
    const u32 = fromArray(
      Uint32Array.from({ length: n }, () => 2 ** 32 - 1),
      { chunks: 999 },
    );
    const b = fromArray(
      Uint8Array.from({ length: 5 }, () => 1),
      { dtype: 'bool' },
    );
    const prod32 = fromArray(Int32Array.of(100000, 100000, 100000, -7));
    const [s, u, bs, p] = await compute(
      cumsum(i32),
      cumulativeSum(u32),
      cumsum(b),
      cumulativeProd(prod32),
      SYNC,
    );
    expect(s.dtype).toBe('int64');
    expect(u.dtype).toBe('uint64');
    expect(bs.dtype).toBe('int64');
    expect(p.dtype).toBe('int64');
    let acc = 0n;
    expect(bigs(s)).toEqual(vals.map((v) => (acc += BigInt(v))));
    expect(bigs(u)).toEqual(Array.from({ length: n }, (_, i) => BigInt(i + 1) * (2n ** 32n - 1n)));
    expect(bigs(bs)).toEqual([1n, 2n, 3n, 4n, 5n]);
    expect(bigs(p)).toEqual([100000n, 10n ** 10n, 10n ** 15n, wrap(-7n * 10n ** 15n)]);
  });

  it('takes a float dtype option and floats keep theirs', async () => {
    const x = fromArray(BigInt64Array.of(1n, 2n, 3n), { chunks: 2 });
    const [f, g] = await compute(
      cumsum(x, { dtype: 'float64' }),
      cumsum(fromArray([0.5, 1.5])),
      SYNC,
    );
    expect(f.dtype).toBe('float64');
    expect(Array.from(f.data as Float64Array)).toEqual([1, 3, 6]);
    expect(g.dtype).toBe('float64');
    expect(Array.from(g.data as Float64Array)).toEqual([0.5, 2]);
  });
});

/** Index of the first best element of `line` (positions into it). */
function argRef(vals: readonly bigint[], isMin: boolean): number {
  let at = 0;
  for (let i = 1; i < vals.length; i++) {
    if (isMin ? vals[i]! < vals[at]! : vals[i]! > vals[at]!) at = i;
  }
  return at;
}

/** Values near each other past 2^53 (ties and neighbours a double cannot tell apart). */
function closeBig(n: number, r: () => number): bigint[] {
  const base = [2n ** 60n, MIN, MAX - 8n, -(2n ** 55n)][Math.floor(r() * 4)]!;
  return Array.from({ length: n }, () =>
    r() < 0.3 ? randomBig(1, r)[0]! : base + BigInt(Math.floor(r() * 8)),
  );
}

describe('int64 and uint64 argmin and argmax against BigInt comparison', () => {
  for (const dtype of DTYPES) {
    const w = dtype === 'int64' ? wrap : wrapU;
    it.each([1, 2, 3, 4, 5, 6])(`${dtype}, one axis and flat, seed %i`, async (seed) => {
      const r = rng(seed * 53 + dtype.length);
      const shape = randomShape(r);
      const values = closeBig(size(shape), r).map(w);
      const x = lazyBig(values, shape, r, dtype);
      const axis = Math.floor(r() * shape.length);
      const [lo, hi, flo, fhi] = await compute(
        argmin(x, { axis }),
        argmax(x, { axis }),
        argmin(x),
        argmax(x),
        SYNC,
      );
      const ls = lines(shape, axis);
      const at = (isMin: boolean) =>
        ls.map((l) =>
          argRef(
            l.map((i) => values[i]!),
            isMin,
          ),
        );
      expect(Array.from(lo.data as Int32Array)).toEqual(at(true));
      expect(Array.from(hi.data as Int32Array)).toEqual(at(false));
      expect(flo.item()).toBe(argRef(values, true));
      expect(fhi.item()).toBe(argRef(values, false));
    });
  }

  it('tells apart neighbours a double rounds together, first occurrence on ties', async () => {
    const b = 2n ** 62n;
    const x = fromArray(BigInt64Array.of(b + 1n, b + 3n, b, b + 3n, b), { chunks: 2 });
    const [lo, hi] = await compute(argmin(x), argmax(x), SYNC);
    expect(lo.item()).toBe(2);
    expect(hi.item()).toBe(1);
  });
});

/** Population (correction 0) or sample variance of numbers, two-pass. */
function varRef(xs: readonly number[], correction: number): number {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return xs.reduce((a, b) => a + (b - m) ** 2, 0) / Math.max(xs.length - correction, 0);
}

describe('int64 and uint64 std and var in float64, as NumPy', () => {
  for (const dtype of DTYPES) {
    const w = dtype === 'int64' ? wrap : wrapU;
    it.each([1, 2, 3, 4])(`${dtype}, seed %i`, async (seed) => {
      const r = rng(seed * 71 + dtype.length);
      const shape = randomShape(r);
      const values = randomBig(size(shape), r).map(w);
      const x = lazyBig(values, shape, r, dtype);
      const axis = Math.floor(r() * shape.length);
      const correction = seed % 2;
      const [v, s, all] = await compute(
        variance(x, { axis, correction }),
        std(x, { axis }),
        variance(x),
        SYNC,
      );
      expect(v.dtype).toBe('float64');
      expect(s.dtype).toBe('float64');
      const close = (got: number, want: number): void => {
        if (Number.isNaN(want) || !Number.isFinite(want)) expect(got).toEqual(want);
        else expect(Math.abs(got - want)).toBeLessThanOrEqual(1e-9 * Math.abs(want) + 1e-9);
      };
      const groups = lines(shape, axis).map((l) => l.map((i) => Number(values[i]!)));
      const vd = v.data as Float64Array;
      const sd = s.data as Float64Array;
      groups.forEach((g, i) => {
        close(vd[i]!, varRef(g, correction));
        close(sd[i]!, Math.sqrt(varRef(g, 0)));
      });
      close(all.item() as number, varRef(values.map(Number), 0));
    });
  }

  it('integers past 2^53 round to doubles first (NumPy gives the same)', async () => {
    const x = fromArray(BigInt64Array.of(2n ** 53n, 2n ** 53n + 1n, 2n ** 53n + 2n));
    const v = await compute(variance(x), SYNC);
    expect(v.item()).toBe(varRef([2 ** 53, 2 ** 53, 2 ** 53 + 2], 0));
  });
});

/** A stable sort of the positions of `vals` by BigInt order (descending keeps ties in order). */
function argsortRef(vals: readonly bigint[], descending: boolean): number[] {
  return vals
    .map((_, i) => i)
    .sort((p, q) => {
      const a = vals[p]!;
      const b = vals[q]!;
      if (a === b) return p - q;
      return a < b !== descending ? -1 : 1;
    });
}

describe('int64 and uint64 sort and argsort against BigInt order', () => {
  for (const dtype of DTYPES) {
    const w = dtype === 'int64' ? wrap : wrapU;
    it.each([1, 2, 3, 4, 5, 6])(`${dtype}, seed %i`, async (seed) => {
      const r = rng(seed * 89 + dtype.length);
      const shape = randomShape(r);
      shape[shape.length - 1] = 1 + Math.floor(r() * 12);
      const values = closeBig(size(shape), r).map(w);
      const x = lazyBig(values, shape, r, dtype);
      const axis = Math.floor(r() * shape.length);
      const descending = r() < 0.5;
      const splitEvery = 2 + Math.floor(r() * 2);
      const [s, a] = await compute(
        sort(x, { axis, descending, splitEvery }),
        argsort(x, { axis, descending, splitEvery }),
        SYNC,
      );
      expect(s.dtype).toBe(dtype);
      expect(a.dtype).toBe('int32');
      const wantS = new Array<bigint>(values.length);
      const wantA = new Array<number>(values.length);
      for (const l of lines(shape, axis)) {
        const order = argsortRef(
          l.map((i) => values[i]!),
          descending,
        );
        order.forEach((j, k) => {
          wantS[l[k]!] = values[l[j]!]!;
          wantA[l[k]!] = j;
        });
      }
      expect(bigs(s)).toEqual(wantS);
      expect(Array.from(a.data as Int32Array)).toEqual(wantA);
    });
  }

  it('sorts the extremes and neighbours past 2^53 exactly, across blocks', async () => {
    const b = 2n ** 60n;
    const vals = [MAX, b + 1n, MIN, b, -1n, 0n, b + 1n, MIN + 1n, MAX - 1n];
    const x = fromArray(BigInt64Array.from(vals), { chunks: 2 });
    const [s, a] = await compute(sort(x), argsort(x, { descending: true }), SYNC);
    expect(bigs(s)).toEqual([...vals].sort((p, q) => (p < q ? -1 : p > q ? 1 : 0)));
    expect(Array.from(a.data as Int32Array)).toEqual([0, 8, 1, 6, 3, 5, 4, 7, 2]);
  });
});

describe('int64 and uint64 diff against BigInt subtraction', () => {
  for (const dtype of DTYPES) {
    const w = dtype === 'int64' ? wrap : wrapU;
    it.each([1, 2, 3, 4, 5, 6])(`${dtype}, seed %i`, async (seed) => {
      const r = rng(seed * 97 + dtype.length);
      const shape = randomShape(r);
      const values = randomBig(size(shape), r).map(w);
      const x = lazyBig(values, shape, r, dtype);
      const axis = Math.floor(r() * shape.length);
      const n = Math.floor(r() * 3) + 1;
      const d = await compute(diff(x, { axis, n }), SYNC);
      expect(d.dtype).toBe(dtype);
      const want: bigint[][] = [];
      for (const l of lines(shape, axis)) {
        let v = l.map((i) => values[i]!);
        for (let k = 0; k < n; k++) v = v.slice(1).map((b, i) => w(b - v[i]!));
        want.push(v);
      }
      const m = Math.max(0, shape[axis]! - n);
      expect(d.shape).toEqual(shape.map((s, ax) => (ax === axis ? m : s)));
      // the reference lines in C order of the output
      const got = new Array<bigint>(d.size);
      lines(d.shape, axis).forEach((l, j) => {
        l.forEach((i, k) => {
          got[i] = want[j]![k]!;
        });
      });
      expect(bigs(d)).toEqual(got);
    });
  }

  it('wraps at the extremes and takes prepend and append', async () => {
    const x = fromArray(BigInt64Array.of(MIN, MAX, -1n, 2n ** 53n + 1n), { chunks: 3 });
    const d = await compute(diff(x, { prepend: 0, append: 5 }), SYNC);
    expect(bigs(d)).toEqual([MIN, -1n, MIN, 2n ** 53n + 2n, 5n - (2n ** 53n + 1n)]);
  });
});
