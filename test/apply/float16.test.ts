// float16 end to end on the CPU: promotion, storage, elementwise chains (bit for bit with a
// per-node rounded reference and with NumPy), casts, reductions, contractions, data moves.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import { float16Value } from '../../src/array/float16.ts';
import {
  abs,
  add,
  arange,
  argmax,
  astype,
  compute,
  concat,
  cumsum,
  type DType,
  divide,
  einsum,
  exp,
  fromArray,
  full,
  type LazyArray,
  log,
  matmul,
  max,
  maximum,
  mean,
  min,
  multiply,
  type NDArray,
  ndarray,
  negative,
  ones,
  promoteTypes,
  random,
  rechunk,
  reshape,
  resultType,
  sin,
  sqrt,
  std,
  subtract,
  sum,
  take,
  tanh,
  tensordot,
  toZarr,
  transpose,
} from '../../src/index.ts';
import { randomAxisChunks, randomDense, rng } from '../helpers/reference.ts';
import { near16, refRound16 } from './float16-reference.ts';

/** The stored elements as plain numbers: float16 as its raw bits, not decoded. */
const raw = (a: NDArray): number[] => Array.from(a.data as NumberArray);
const SYNC = { scheduler: 'sync' } as const;
const values = (a: NDArray): number[] => Array.from(a.data as NumberArray, float16Value);

/** A random float16 array (values in [-10, 10)) with random chunks, and its values. */
function randomHalf(shape: number[], seed: number): { x: LazyArray; v: number[] } {
  const dense = randomDense(shape, 'float16', seed);
  const r = rng(seed + 1);
  const x = fromArray(dense, { chunks: shape.map((n) => randomAxisChunks(n, r)) });
  return { x, v: values(dense) };
}

function expectHalf(got: NDArray, want: readonly number[], ulps: number): void {
  expect(got.dtype).toBe('float16');
  const g = values(got);
  const bad = want.flatMap((w, i) => (near16(g[i]!, w, ulps) ? [] : [[i, g[i], w]]));
  expect(bad).toEqual([]);
}

describe('float16 promotion (NumPy)', () => {
  it.each([
    ['float16', 'float16', 'float16'],
    ['float16', 'float32', 'float32'],
    ['float16', 'float64', 'float64'],
    ['float16', 'bool', 'float16'],
    ['float16', 'int8', 'float16'],
    ['uint8', 'float16', 'float16'],
    ['float16', 'int16', 'float32'],
    ['uint16', 'float16', 'float32'],
    ['float16', 'int32', 'float64'],
    ['float16', 'uint32', 'float64'],
    ['float32', 'int16', 'float32'],
    ['float32', 'int32', 'float64'],
  ] as [DType, DType, DType][])('%s + %s -> %s', (a, b, want) => {
    expect(promoteTypes(a, b)).toBe(want);
    expect(promoteTypes(b, a)).toBe(want);
  });

  it('weak JS numbers keep float16', () => {
    expect(resultType('float16', 0.1)).toBe('float16');
    expect(resultType('float16', 3, true)).toBe('float16');
  });
});

describe('float16 storage', () => {
  it('a Uint16Array given as float16 is bits; get and toArray decode', async () => {
    const bits = Uint16Array.of(0x3c00, 0xc000, 0x7c00, 0x0001, 0x8000);
    const x = fromArray(bits, { dtype: 'float16' });
    const got = await compute(x, SYNC);
    expect(got.dtype).toBe('float16');
    expect(raw(got)).toEqual(Array.from(bits));
    expect(got.get(1)).toBe(-2);
    expect(got.get(3)).toBe(2 ** -24);
    expect(Object.is(got.get(4), -0)).toBe(true);
    expect(got.toArray()).toEqual([1, -2, Infinity, 2 ** -24, -0]);
    expect(got.toNested()).toEqual([1, -2, Infinity, 2 ** -24, -0]);
  });

  it('numbers and other typed arrays are values, rounded to nearest-even', async () => {
    const x = await compute(fromArray([0.1, 65519, 65520, 1e-8], { dtype: 'float16' }), SYNC);
    expect(raw(x)).toEqual([0x2e66, 0x7bff, 0x7c00, 0x0000]);
    const y = ndarray(Float64Array.of(1.5, -3), [2], 'float16');
    expect(raw(y)).toEqual([0x3e00, 0xc200]);
    // An NDArray of float16 given another dtype converts its values, not its bits.
    const z = await compute(fromArray(y, { dtype: 'float32' }), SYNC);
    expect(z.toArray()).toEqual([1.5, -3]);
  });

  it('creation fills float16 with encoded values', async () => {
    expect((await compute(ones([3], { dtype: 'float16' }), SYNC)).toArray()).toEqual([1, 1, 1]);
    const f = await compute(full([2], 0.1, { dtype: 'float16' }), SYNC);
    expect(f.toArray()).toEqual([refRound16(0.1), refRound16(0.1)]);
    const r = await compute(arange(0, 3, 0.5, { dtype: 'float16', chunks: 2 }), SYNC);
    expect(r.toArray()).toEqual([0, 0.5, 1, 1.5, 2, 2.5]);
    // Sources read tile by tile by a fused reduction store float16 bits too.
    const s = await compute(sum(full([300], 0.1, { dtype: 'float16', chunks: 128 })), SYNC);
    expectHalf(s, [refRound16(300 * refRound16(0.1))], 1);
    const a = await compute(sum(arange(0, 64, 1, { dtype: 'float16', chunks: 20 })), SYNC);
    expectHalf(a, [2016], 0);
  });

  it('random refuses float16 with a DTypeError naming the call', () => {
    expect(() => random.uniform([3], { dtype: 'float16' })).toThrow(
      expect.objectContaining({
        _tag: 'DTypeError',
        message: expect.stringMatching(/^random\.uniform: dtype 'float16'/),
      }),
    );
  });
});

type Node = { op: string; args: Node[] } | { in: number };
const EXACT_OPS: Record<
  string,
  [number, (...a: LazyArray[]) => LazyArray, (...v: number[]) => number]
> = {
  add: [2, (x, y) => add(x!, y!), (a, b) => a! + b!],
  subtract: [2, (x, y) => subtract(x!, y!), (a, b) => a! - b!],
  multiply: [2, (x, y) => multiply(x!, y!), (a, b) => a! * b!],
  divide: [2, (x, y) => divide(x!, y!), (a, b) => a! / b!],
  sqrt: [1, (x) => sqrt(x!), (a) => Math.sqrt(a!)],
  negative: [1, (x) => negative(x!), (a) => -a!],
  maximum: [2, (x, y) => maximum(x!, y!), (a, b) => Math.max(a!, b!)],
};

function randomChain(r: () => number, depth: number, inputs: number): Node {
  if (depth === 0 || r() < 0.2) return { in: Math.floor(r() * inputs) };
  const names = Object.keys(EXACT_OPS);
  const op = names[Math.floor(r() * names.length)]!;
  const arity = EXACT_OPS[op]![0];
  return { op, args: Array.from({ length: arity }, () => randomChain(r, depth - 1, inputs)) };
}

function buildChain(n: Node, xs: LazyArray[]): LazyArray {
  if ('in' in n) return xs[n.in]!;
  return EXACT_OPS[n.op]![1](...n.args.map((a) => buildChain(a, xs)));
}

function refChain(n: Node, vs: number[]): number {
  if ('in' in n) return vs[n.in]!;
  return refRound16(EXACT_OPS[n.op]![2](...n.args.map((a) => refChain(a, vs))));
}

describe('float16 elementwise', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'random chains of + - * / sqrt max match a per-node rounded reference bit for bit (seed %i)',
    async (seed) => {
      const r = rng(seed * 97);
      const shape = [1 + Math.floor(r() * 9), 1 + Math.floor(r() * 9)];
      const a = randomHalf(shape, seed);
      const b = randomHalf(shape, seed + 50);
      // A row that broadcasts over the rows of a and b.
      const c = randomHalf([shape[1]!], seed + 100);
      const chain = randomChain(r, 4, 3);
      const y = buildChain(chain, [a.x, b.x, c.x]);
      if (!('in' in chain)) expect(y.dtype).toBe('float16');
      const got = await compute(y, SYNC);
      const n = shape[1]!;
      const want = a.v.map((_, i) => refChain(chain, [a.v[i]!, b.v[i]!, c.v[i % n]!]));
      expectHalf(got, want, 0);
    },
  );

  it('unary functions are within one ulp of the rounded float64 value', async () => {
    const { x, v } = randomHalf([7, 5], 3);
    const cases: [LazyArray, (t: number) => number][] = [
      [exp(divide(x, 4)), (t) => Math.exp(refRound16(t / 4))],
      [log(x), Math.log],
      [sin(x), Math.sin],
      [tanh(x), Math.tanh],
    ];
    for (const [y, f] of cases) {
      expectHalf(
        await compute(y, SYNC),
        v.map((t) => refRound16(f(t))),
        1,
      );
    }
  });

  it('mixed dtypes: float32 and float64 widen, int8 and weak scalars keep float16', async () => {
    const { x, v } = randomHalf([10], 4);
    const f32 = await compute(add(x, fromArray(new Float32Array(10).fill(0.1))), SYNC);
    expect(f32.dtype).toBe('float32');
    expect(f32.toArray()).toEqual(v.map((t) => Math.fround(t + Math.fround(0.1))));
    const i8 = await compute(multiply(x, fromArray(new Int8Array(10).fill(3))), SYNC);
    expectHalf(
      i8,
      v.map((t) => refRound16(t * 3)),
      0,
    );
    const weak = await compute(add(x, 0.1), SYNC);
    expectHalf(
      weak,
      v.map((t) => refRound16(t + refRound16(0.1))),
      0,
    );
    const i16 = add(x, fromArray(new Int16Array(10)));
    expect(i16.dtype).toBe('float32');
  });
});

const ufuncs = JSON.parse(
  readFileSync(new URL('../fixtures/float16-ufuncs.json', import.meta.url), 'utf8'),
) as Record<string, number[]>;

describe('float16 against NumPy', () => {
  const a = fromArray(Uint16Array.from(ufuncs.a!), { dtype: 'float16', chunks: 128 });
  const b = fromArray(Uint16Array.from(ufuncs.b!), { dtype: 'float16', chunks: 96 });
  it.each([
    ['add', () => add(a, b), 0],
    ['subtract', () => subtract(a, b), 0],
    ['multiply', () => multiply(a, b), 0],
    ['divide', () => divide(a, b), 0],
    ['sqrt', () => sqrt(maximum(a, negative(a))), 0],
    ['exp', () => exp(divide(a, 4)), 1],
    ['log', () => log(maximum(a, negative(a))), 1],
    ['sin', () => sin(a), 1],
    ['tanh', () => tanh(a), 1],
  ] as [string, () => LazyArray, number][])('%s (%i ulp)', async (name, y, ulps) => {
    const got = await compute(y(), SYNC);
    const want = ufuncs[name]!.map(float16Value);
    if (ulps === 0) expect(raw(got)).toEqual(ufuncs[name]);
    else expectHalf(got, want, ulps);
  });
});

describe('float16 casts', () => {
  it('astype round trips: float64 -> float16 rounds, float16 -> float32 -> float16 keeps bits', async () => {
    const src = randomDense([40], 'float64', 9);
    src.data[0] = 1e6;
    src.data[1] = -1e-9;
    src.data[2] = Number.NaN;
    const x = fromArray(src, { chunks: 16 });
    const h = await compute(astype(x, 'float16'), SYNC);
    expectHalf(h, Array.from(src.data as NumberArray, refRound16), 0);
    const hx = fromArray(h, { chunks: 7 });
    const back = await compute(astype(astype(hx, 'float32'), 'float16'), SYNC);
    expect(raw(back)).toEqual(raw(h));
    const f64 = await compute(astype(hx, 'float64'), SYNC);
    expect(f64.toArray()).toEqual(values(h));
  });

  it('float16 to integers truncates and to bool is x != 0; integers to float16 round', async () => {
    const x = fromArray([-2.75, -0.5, 0, 0.5, 300.25, Number.NaN], { dtype: 'float16' });
    expect((await compute(astype(x, 'int32'), SYNC)).toArray()).toEqual([-2, 0, 0, 0, 300, 0]);
    expect((await compute(astype(x, 'bool'), SYNC)).toArray()).toEqual([1, 1, 0, 1, 1, 1]);
    const big = fromArray(Int32Array.of(2049, 2051, 70000, -7));
    expect((await compute(astype(big, 'float16'), SYNC)).toArray()).toEqual([
      2048,
      2052,
      Infinity,
      -7,
    ]);
  });
});

describe('float16 reductions and contractions (float32 inside, rounded once)', () => {
  const f32sum = (v: readonly number[]): number => v.reduce((s, t) => s + t, 0);

  it.each([1, 2, 3])(
    'sum, mean, min, max, std, argmax, cumsum over axes (seed %i)',
    async (seed) => {
      const r = rng(seed);
      const shape = [2 + Math.floor(r() * 8), 2 + Math.floor(r() * 8)];
      const { x, v } = randomHalf(shape, seed);
      const [m, n] = shape as [number, number];
      const col = (j: number): number[] => Array.from({ length: m }, (_, i) => v[i * n + j]!);
      const cols = Array.from({ length: n }, (_, j) => col(j));
      const s = await compute(sum(x, { axis: 0 }), SYNC);
      expectHalf(
        s,
        cols.map((c) => refRound16(f32sum(c))),
        1,
      );
      expectHalf(await compute(sum(x), SYNC), [refRound16(f32sum(v))], 1);
      // A float16 chain fused into the reduction rounds per node, then sums in float32.
      const tripled = cols.map((c) => refRound16(f32sum(c.map((t) => refRound16(t * 3)))));
      expectHalf(await compute(sum(multiply(x, 3), { axis: 0 }), SYNC), tripled, 1);
      expectHalf(
        await compute(mean(x, { axis: 0 }), SYNC),
        cols.map((c) => refRound16(f32sum(c) / m)),
        1,
      );
      expectHalf(
        await compute(min(x, { axis: 0 }), SYNC),
        cols.map((c) => Math.min(...c)),
        0,
      );
      expectHalf(await compute(max(x), SYNC), [Math.max(...v)], 0);
      const mu = f32sum(v) / v.length;
      const sd = Math.sqrt(v.reduce((q, t) => q + (t - mu) ** 2, 0) / v.length);
      expectHalf(await compute(std(x), SYNC), [refRound16(sd)], 1);
      const am = await compute(argmax(x), SYNC);
      expect(am.dtype).toBe('int32');
      expect(am.toArray()).toEqual([v.indexOf(Math.max(...v))]);
      const cs = await compute(cumsum(x, { axis: 0 }), SYNC);
      const run = new Array<number>(n).fill(0);
      const want = v.map((t, i) => {
        run[i % n]! += t;
        return refRound16(run[i % n]!);
      });
      expectHalf(cs, want, 1);
    },
  );

  it('sum with dtype: float32 keeps float32, float16 over int8 casts each element first', async () => {
    const { x, v } = randomHalf([30], 5);
    const s32 = await compute(sum(x, { dtype: 'float32' }), SYNC);
    expect(s32.dtype).toBe('float32');
    expect(Math.abs((s32.get() as number) - f32sum(v))).toBeLessThan(1e-4);
    const i8 = fromArray(Int8Array.from({ length: 30 }, (_, i) => i - 15));
    const s16 = await compute(sum(i8, { dtype: 'float16' }), SYNC);
    expectHalf(s16, [-15], 0);
  });

  it('matmul, tensordot and einsum of float16 give float16 within one ulp', async () => {
    const a = randomHalf([5, 7], 11);
    const b = randomHalf([7, 4], 12);
    const want: number[] = [];
    for (let i = 0; i < 5; i++)
      for (let j = 0; j < 4; j++) {
        let s = 0;
        for (let k = 0; k < 7; k++) s += a.v[i * 7 + k]! * b.v[k * 4 + j]!;
        want.push(refRound16(s));
      }
    expectHalf(await compute(matmul(a.x, b.x), SYNC), want, 1);
    expectHalf(await compute(tensordot(a.x, b.x, { axes: 1 }), SYNC), want, 1);
    expectHalf(await compute(einsum('ik,kj->ij', a.x, b.x), SYNC), want, 1);
    const mixed = matmul(a.x, astype(b.x, 'float32'));
    expect(mixed.dtype).toBe('float32');
  });
});

describe('float16 data moves keep the bits', () => {
  it('transpose, reshape, rechunk, concat and take', async () => {
    const { x } = randomHalf([6, 4], 21);
    const dense = await compute(x, SYNC);
    const bits = raw(dense);
    const t = await compute(transpose(x), SYNC);
    expect(t.dtype).toBe('float16');
    expect(t.get(3, 5)).toBe(dense.get(5, 3));
    // NaN payloads and signs survive a transposed copy.
    const nans = Uint16Array.of(0x7c01, 0xfe00, 0x7fff, 0x3c00, 0x7e00, 0xfc01);
    const tn = await compute(transpose(fromArray(ndarray(nans, [2, 3], 'float16'))), SYNC);
    expect(raw(tn)).toEqual([0x7c01, 0x3c00, 0xfe00, 0x7e00, 0x7fff, 0xfc01]);
    expect(raw(await compute(reshape(x, [4, 6]), SYNC))).toEqual(bits);
    expect(raw(await compute(rechunk(x, [5, 3]), SYNC))).toEqual(bits);
    const c = await compute(concat([x, x], { axis: 0 }), SYNC);
    expect(raw(c)).toEqual([...bits, ...bits]);
    const k = await compute(take(x, [5, 0], { axis: 0 }), SYNC);
    expect(raw(k)).toEqual([...bits.slice(20, 24), ...bits.slice(0, 4)]);
  });
});

describe('float16 on worker threads', () => {
  it('a chain and a reduction give the same bits as the sync scheduler', async () => {
    const { x } = randomHalf([40, 30], 31);
    const y = sqrt(abs(subtract(multiply(x, x), 3)));
    const threads = { scheduler: 'threads', workers: 2 } as const;
    for (const z of [y, sum(y, { axis: 1 })]) {
      const [a, b] = [await compute(z, threads), await compute(z, SYNC)];
      expect(a.dtype).toBe('float16');
      expect(raw(a)).toEqual(raw(b));
    }
  });
});

describe('float16 errors', () => {
  it('toZarr refuses float16 with a DTypeError naming it', async () => {
    const x = fromArray([1, 2], { dtype: 'float16' });
    await expect(toZarr(x, '/nonexistent/never-written.zarr')).rejects.toMatchObject({
      name: 'DTypeError',
      message: expect.stringMatching(/^toZarr: dtype 'float16'/),
    });
  });
});
