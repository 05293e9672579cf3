// int64 and uint64 arrays against a dense BigInt reference: elementwise ops (wrapping modulo
// 2^64 as NumPy), casts both ways, mixed promotion, reductions, movement, and the build-time
// refusal of functions that do not take them yet.

import { describe, expect, it } from 'vitest';
import type { LazyArray } from '../../src/array/lazy-array.ts';
import {
  arange,
  compute,
  concat,
  DTypeError,
  fromArray,
  full,
  ones,
  sum,
  uniformFilter,
  zeros,
} from '../../src/index.ts';
import { bigs, lazyBig, randomBig, randomShape, wrap } from '../helpers/int64-ref.ts';
import { rng } from '../helpers/reference.ts';

const SYNC = { scheduler: 'sync' } as const;

const floorDiv = (a: bigint, b: bigint): bigint => {
  if (b === 0n) return 0n;
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
};
const mod = (a: bigint, b: bigint): bigint => {
  if (b === 0n) return 0n;
  const m = a % b;
  return m !== 0n && m < 0n !== b < 0n ? m + b : m;
};

const BINARY: [string, (a: bigint, b: bigint) => bigint][] = [
  ['add', (a, b) => wrap(a + b)],
  ['subtract', (a, b) => wrap(a - b)],
  ['multiply', (a, b) => wrap(a * b)],
  ['floorDivide', (a, b) => wrap(floorDiv(a, b))],
  ['remainder', mod],
  // biome-ignore lint/complexity/useMathMinMax: BigInts (Math.max takes numbers only)
  ['maximum', (a, b) => (a > b ? a : b)],
  // biome-ignore lint/complexity/useMathMinMax: BigInts
  ['minimum', (a, b) => (a < b ? a : b)],
  ['bitwiseAnd', (a, b) => a & b],
  ['bitwiseOr', (a, b) => a | b],
  ['bitwiseXor', (a, b) => a ^ b],
];

const COMPARE: [string, (a: bigint, b: bigint) => boolean][] = [
  ['equal', (a, b) => a === b],
  ['notEqual', (a, b) => a !== b],
  ['less', (a, b) => a < b],
  ['lessEqual', (a, b) => a <= b],
  ['greater', (a, b) => a > b],
  ['greaterEqual', (a, b) => a >= b],
];

type Method = (this: LazyArray, ...a: unknown[]) => LazyArray;
const call = (x: LazyArray, name: string, ...args: unknown[]): LazyArray =>
  ((x as unknown as Record<string, Method>)[name] as Method).call(x, ...args);

describe('int64 elementwise against BigInt arithmetic', () => {
  for (const [name, ref] of BINARY) {
    it.each([1, 2, 3, 4])(`${name}, seed %i`, async (seed) => {
      const r = rng(seed * 31 + name.length);
      const shape = randomShape(r);
      const n = shape.reduce((a, b) => a * b, 1);
      const a = randomBig(n, r);
      const b = randomBig(n, r);
      const got = await compute(call(lazyBig(a, shape, r), name, lazyBig(b, shape, r)), SYNC);
      expect(got.dtype).toBe('int64');
      expect(got.shape).toEqual(shape);
      expect(bigs(got)).toEqual(a.map((v, i) => ref(v, b[i]!)));
    });
  }
  for (const [name, ref] of COMPARE) {
    it(`${name} gives bool`, async () => {
      const r = rng(name.length);
      const a = randomBig(40, r);
      const b = a.map((v, i) => (i % 3 === 0 ? v : randomBig(1, r)[0]!));
      const got = await compute(call(lazyBig(a, [40], r), name, lazyBig(b, [40], r)), SYNC);
      expect(got.dtype).toBe('bool');
      expect(Array.from(got.data as Uint8Array, Boolean)).toEqual(a.map((v, i) => ref(v, b[i]!)));
    });
  }

  it('unary ops wrap as NumPy (abs and negative of the minimum stay the minimum)', async () => {
    const r = rng(7);
    const a = randomBig(30, r);
    const x = lazyBig(a, [30], r);
    const [neg, abs, sq, sign] = await compute(
      x.negative(),
      x.abs(),
      call(x, 'square'),
      x.sign(),
      SYNC,
    );
    expect(bigs(neg)).toEqual(a.map((v) => wrap(-v)));
    expect(bigs(abs)).toEqual(a.map((v) => wrap(v < 0n ? -v : v)));
    expect(bigs(sq)).toEqual(a.map((v) => wrap(v * v)));
    expect(bigs(sign)).toEqual(a.map((v) => (v > 0n ? 1n : v < 0n ? -1n : 0n)));
  });

  it('weak scalars take the array dtype; a fraction promotes to float64', async () => {
    const x = fromArray([2n ** 60n, -3n]);
    const [plus, times, half] = await compute(x.add(1), x.mul(-2), x.mul(0.5), SYNC);
    expect(plus.dtype).toBe('int64');
    expect(bigs(plus)).toEqual([2n ** 60n + 1n, -2n]);
    expect(bigs(times)).toEqual([wrap(-(2n ** 61n)), 6n]);
    expect(half.dtype).toBe('float64');
    expect(Array.from(half.data as Float64Array)).toEqual([2 ** 59, -1.5]);
  });

  it('promotes int32 with int64 to int64 and uint32 with int32 to int64', async () => {
    const a = fromArray(new Int32Array([-5, 7]));
    const b = fromArray([2n ** 40n, 1n]);
    const c = fromArray(new Uint32Array([4294967295, 1]));
    const [ab, ac] = await compute(a.add(b), a.add(c), SYNC);
    expect(ab.dtype).toBe('int64');
    expect(bigs(ab)).toEqual([2n ** 40n - 5n, 8n]);
    expect(ac.dtype).toBe('int64');
    expect(bigs(ac)).toEqual([4294967290n, 8n]);
  });

  it('casts to and from int64 exactly, and through the low bits to narrower integers', async () => {
    const x = fromArray([2n ** 53n + 1n, -1n, 2n ** 32n + 300n]);
    const [f, i32, i8, u64, back] = await compute(
      x.astype('float64'),
      x.astype('int32'),
      x.astype('int8'),
      x.astype('uint64'),
      fromArray([1.9, -2.7, 1e10]).astype('int64'),
      SYNC,
    );
    expect(Array.from(f.data as Float64Array)).toEqual([2 ** 53, -1, 2 ** 32 + 300]);
    expect(Array.from(i32.data as Int32Array)).toEqual([1, -1, 300]);
    expect(Array.from(i8.data as Int8Array)).toEqual([1, -1, 44]);
    expect(bigs(u64)).toEqual([2n ** 53n + 1n, 2n ** 64n - 1n, 2n ** 32n + 300n]);
    expect(bigs(back)).toEqual([1n, -2n, 10000000000n]);
  });
});

describe('int64 reductions', () => {
  it('integer sums accumulate in int64 (uint64 for unsigned), as the Array API says', async () => {
    const [a, b, c] = await compute(
      arange(100000).sum(),
      full([1024, 1024, 20], 255, { dtype: 'uint8', chunks: [256, 1024, 20] }).sum(),
      ones([70000], { dtype: 'bool' }).sum(),
      SYNC,
    );
    expect(a.dtype).toBe('int64');
    expect(a.item()).toBe(4999950000n);
    expect(b.dtype).toBe('uint64');
    expect(b.item()).toBe(5347737600n);
    expect(c.item()).toBe(70000n);
  });

  it.each([1, 2, 3, 4, 5])(
    'sum, prod, min, max, mean, any, all over random axes, seed %i',
    async (seed) => {
      const r = rng(seed * 17);
      const shape = randomShape(r);
      const n = shape.reduce((p, q) => p * q, 1);
      const values = randomBig(n, r);
      const x = lazyBig(values, shape, r);
      const axis = Math.floor(r() * shape.length);
      const strides = shape.map((_, ax) => shape.slice(ax + 1).reduce((p, q) => p * q, 1));
      const groups = new Map<number, bigint[]>();
      values.forEach((v, i) => {
        const key =
          Math.floor(i / (strides[axis]! * shape[axis]!)) * strides[axis]! + (i % strides[axis]!);
        groups.set(key, [...(groups.get(key) ?? []), v]);
      });
      const lists = [...groups.keys()].sort((p, q) => p - q).map((k) => groups.get(k)!);
      const [s, p, lo, hi, m, an, al] = await compute(
        x.sum({ axis }),
        x.prod({ axis }),
        x.min({ axis }),
        x.max({ axis }),
        x.mean({ axis }),
        x.any({ axis }),
        x.all({ axis }),
      );
      expect(bigs(s)).toEqual(lists.map((l) => wrap(l.reduce((q, v) => q + v, 0n))));
      expect(bigs(p)).toEqual(lists.map((l) => l.reduce((q, v) => wrap(q * v), 1n)));
      // biome-ignore lint/complexity/useMathMinMax: BigInts (Math.min takes numbers only)
      expect(bigs(lo)).toEqual(lists.map((l) => l.reduce((q, v) => (v < q ? v : q))));
      // biome-ignore lint/complexity/useMathMinMax: BigInts
      expect(bigs(hi)).toEqual(lists.map((l) => l.reduce((q, v) => (v > q ? v : q))));
      expect(m.dtype).toBe('float64');
      const means = lists.map((l) => Number(l.reduce((q, v) => q + v, 0n)) / l.length);
      Array.from(m.data as Float64Array).forEach((v, i) => {
        expect(v).toBeCloseTo(means[i]!, -Math.log10(Math.abs(means[i]!) + 1) + 6);
      });
      expect(Array.from(an.data as Uint8Array)).toEqual(
        lists.map((l) => (l.some((v) => v !== 0n) ? 1 : 0)),
      );
      expect(Array.from(al.data as Uint8Array)).toEqual(
        lists.map((l) => (l.every((v) => v !== 0n) ? 1 : 0)),
      );
    },
  );

  it('uint64 sums wrap modulo 2^64', async () => {
    const x = lazyBig([2n ** 63n, 2n ** 63n, 5n], [3], rng(3), 'uint64');
    const s = await compute(x.sum(), SYNC);
    expect(s.dtype).toBe('uint64');
    expect(s.item()).toBe(5n);
  });

  it('int32 products wrap modulo 2^64 in int64, not at 32 bits', async () => {
    const s = await compute(fromArray(new Int32Array([100000, 100000, 3])).prod(), SYNC);
    expect(s.dtype).toBe('int64');
    expect(s.item()).toBe(30000000000n);
  });

  it('runs on worker threads too', async () => {
    const r = rng(11);
    const values = randomBig(500, r);
    const x = lazyBig(values, [500], r);
    const got = await compute(x.mul(3).add(x).sum(), { workers: 2 });
    expect(got.item()).toBe(wrap(values.reduce((q, v) => q + wrap(wrap(v * 3n) + v), 0n)));
  });
});

describe('int64 creation, movement and refusals', () => {
  it('creates int64 and uint64 arrays', async () => {
    const [z, o, f, a] = await compute(
      zeros([3], { dtype: 'int64' }),
      ones([2, 2], { dtype: 'uint64' }),
      full([2], 7, { dtype: 'int64' }),
      arange(3, { dtype: 'int64' }),
      SYNC,
    );
    expect(bigs(z)).toEqual([0n, 0n, 0n]);
    expect(bigs(o)).toEqual([1n, 1n, 1n, 1n]);
    expect(bigs(f)).toEqual([7n, 7n]);
    expect(bigs(a)).toEqual([0n, 1n, 2n]);
    expect(a.toNested()).toEqual([0n, 1n, 2n]);
    expect(a.toNested({ numbers: true })).toEqual([0, 1, 2]);
  });

  it('slices, transposes, rechunks and concatenates exactly', async () => {
    const r = rng(5);
    const values = randomBig(24, r);
    const x = lazyBig(values, [4, 6], r);
    const [t, s, rc, c] = await compute(
      x.T,
      x.get('::-1, 1::2'),
      x.rechunk([3, 5]),
      concat([x, x], { axis: 0 }),
      SYNC,
    );
    const at = (i: number, j: number): bigint => values[i * 6 + j]!;
    expect(t.toNested()).toEqual([0, 1, 2, 3, 4, 5].map((j) => [0, 1, 2, 3].map((i) => at(i, j))));
    expect(s.toNested()).toEqual([3, 2, 1, 0].map((i) => [1, 3, 5].map((j) => at(i, j))));
    expect(bigs(rc)).toEqual(values);
    expect(bigs(c)).toEqual([...values, ...values]);
  });

  it('functions without int64 kernels refuse it when the expression is built', () => {
    const x = fromArray([1n, 2n, 3n]);
    expect(() => uniformFilter(x, 3)).toThrow(DTypeError);
    expect(() => uniformFilter(x, 3)).toThrow(/^uniformFilter\b.*dtype 'int64' is not supported/);
    expect(() => sum(x.sqrt())).not.toThrow();
  });
});
