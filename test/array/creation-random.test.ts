// random.uniform / random.normal: SplitMix64 counters checked against a BigInt reference,
// identical values under any chunking, different seeds differ, bounds and moments.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compute } from '../../src/array/compute.ts';
import type { DType, NumberArray } from '../../src/array/dtype.ts';
import { normal, random, uniform } from '../../src/array/random.ts';
import { arbShapeAndChunks, randomAxisChunks, rng } from '../helpers/reference.ts';

const tagged = (tag: string, message: RegExp) =>
  expect.objectContaining({ _tag: tag, message: expect.stringMatching(message) });

const MASK = (1n << 64n) - 1n;

/** SplitMix64's g-th output (counting from 0) for `seed`, as a 53-bit uniform. */
function splitmix(seed: bigint, g: number): number {
  let z = (seed + BigInt(g + 1) * 0x9e3779b97f4a7c15n) & MASK;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
  z ^= z >> 31n;
  return Number(z >> 11n) / 2 ** 53;
}

describe('random.uniform', () => {
  it('is SplitMix64 of (seed, global index)', async () => {
    const seed = 2 ** 40 + 12345;
    const x = await compute(uniform([3, 4], { seed, chunks: [2, 3] }));
    const expected = Array.from({ length: 12 }, (_, g) => splitmix(BigInt(seed), g));
    expect(x.toArray()).toEqual(expected);
  });

  it('property: the same seed gives the same values whatever the chunking', async () => {
    await fc.assert(
      fc.asyncProperty(arbShapeAndChunks(3, 8), async ({ shape, chunks, seed }) => {
        const r = rng(seed);
        const other = shape.map((n) => randomAxisChunks(n, r));
        const [a, b, c] = await compute(
          uniform(shape, { seed, chunks }),
          uniform(shape, { seed, chunks: other }),
          normal(shape, { seed, chunks }),
        );
        const d = await compute(normal(shape, { seed, chunks: other }));
        expect(a!.toArray()).toEqual(b!.toArray());
        expect(c!.toArray()).toEqual(d.toArray());
      }),
      { numRuns: 30 },
    );
  });

  it('different seeds give different values and names', async () => {
    const [a, b] = await compute(uniform([100], { seed: 1 }), uniform([100], { seed: 2 }));
    expect(a!.toArray()).not.toEqual(b!.toArray());
    expect(uniform([3], { seed: 1 }).name).toBe(uniform([3], { seed: 1 }).name);
    expect(uniform([3], { seed: 1 }).name).not.toBe(uniform([3], { seed: 2 }).name);
    expect(uniform([3]).name).not.toBe(uniform([3]).name);
  });

  it.each(['float64', 'float32'] as DType[])(
    '%s samples lie in [low, high) with mean (low + high) / 2',
    async (dtype) => {
      const x = await compute(
        uniform([100_000], { seed: 9, low: -2, high: 3, dtype, chunks: 30_000 }),
      );
      expect(x.dtype).toBe(dtype);
      let min = Infinity;
      let max = -Infinity;
      let sum = 0;
      for (const v of x.data as NumberArray) {
        min = Math.min(min, v);
        max = Math.max(max, v);
        sum += v;
      }
      expect(min).toBeGreaterThanOrEqual(-2);
      expect(max).toBeLessThan(3);
      expect(Math.abs(sum / x.size - 0.5)).toBeLessThan(0.02);
    },
  );

  it('never rounds up to high in float32', async () => {
    // width 1 around 1e4: float32 spacing there is ~0.001, so some samples round up to high
    const x = await compute(
      uniform([20_000], { seed: 3, low: 9999, high: 10000, dtype: 'float32' }),
    );
    expect(Math.max(...(x.data as NumberArray))).toBeLessThan(10000);
  });

  it('low === high gives low', async () => {
    expect((await compute(uniform([3], { seed: 1, low: 2, high: 2 }))).toArray()).toEqual([
      2, 2, 2,
    ]);
  });

  it('validates seed, bounds, dtype and shape', () => {
    expect(() => uniform([2], { seed: -1 })).toThrow(
      tagged('ValueError', /^random.uniform: seed -1/),
    );
    expect(() => uniform([2], { seed: 1.5 })).toThrow(tagged('ValueError', /seed 1.5/));
    expect(() => uniform([2], { low: 1, high: 0 })).toThrow(
      tagged('ValueError', /high 0 is below low 1/),
    );
    expect(() => uniform([2], { dtype: 'int32' })).toThrow(
      tagged('DTypeError', /^random.uniform: dtype 'int32'/),
    );
    expect(() => uniform([-2])).toThrow(tagged('ShapeError', /^random.uniform: shape/));
  });
});

describe('random.normal', () => {
  it('is Box–Muller on counter pairs of its own stream', async () => {
    const seed = 77;
    const x = await compute(normal([5], { seed, chunks: [[1, 3, 1]] }));
    const s = BigInt(seed) ^ (BigInt(0x6a09e667) << 32n);
    const expected = Array.from({ length: 5 }, (_, g) => {
      const k = g - (g % 2);
      const r = Math.sqrt(-2 * Math.log(1 - splitmix(s, k)));
      const t = 2 * Math.PI * splitmix(s, k + 1);
      return g % 2 === 0 ? r * Math.cos(t) : r * Math.sin(t);
    });
    expect(x.toArray()).toEqual(expected);
  });

  it('has the requested mean and std on 100k samples', async () => {
    const x = await compute(random.normal([100_000], { seed: 5, mean: 3, std: 2, chunks: 33_333 }));
    let sum = 0;
    for (const v of x.data as NumberArray) sum += v;
    const mean = sum / x.size;
    let ss = 0;
    for (const v of x.data as NumberArray) ss += (v - mean) ** 2;
    const std = Math.sqrt(ss / x.size);
    expect(Math.abs(mean - 3)).toBeLessThan(0.03);
    expect(Math.abs(std - 2)).toBeLessThan(0.03);
  });

  it('validates std', () => {
    expect(() => normal([2], { std: -1 })).toThrow(
      tagged('ValueError', /^random.normal: std -1 is negative/),
    );
    expect(() => normal([2], { mean: Number.NaN })).toThrow(tagged('ValueError', /mean NaN/));
  });
});
