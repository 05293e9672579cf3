// Acceptance (issue 2): 'auto' chunks, numerically stable std/var, argmin/argmax as global
// indices, and rechunk planning through the public rechunk (memory bound, unknown sizes).

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import { numBlocks } from '../../src/chunking/blocks.ts';
import { rechunkGraphSize, rechunkTaskBytes } from '../../src/chunking/rechunk-plan.ts';
import type { Chunks } from '../../src/chunking/types.ts';
import type { Layer } from '../../src/graph/layer.ts';
import * as t from '../../src/index.ts';
import { ChunkError, type LazyArray, type NDArray } from '../../src/index.ts';
import { arbShapeAndChunks, randomDense, rng } from '../helpers/reference.ts';

const SYNC = { scheduler: 'sync' } as const;
const MiB = 2 ** 20;
const blockBytes = (x: LazyArray): number =>
  x.chunks.reduce((n, c) => n * Math.max(...(c as number[])), 1) * (x.dtype === 'float32' ? 4 : 8);

describe("'auto' chunks", () => {
  test('ones([20000, 20000]) gets square blocks of at most config.chunkBytes (128 MiB)', () => {
    expect(t.config.chunkBytes).toBe(128 * MiB);
    const x = t.ones([20000, 20000]);
    expect(blockBytes(x)).toBeLessThanOrEqual(128 * MiB);
    expect(blockBytes(x)).toBeGreaterThan(64 * MiB);
    expect(x.chunks[0]![0]).toBe(x.chunks[1]![0]);
  });

  test('float32 blocks hold about twice the elements', () => {
    const x = t.ones([20000, 20000], { dtype: 'float32' });
    expect(blockBytes(x)).toBeLessThanOrEqual(128 * MiB);
    expect(blockBytes(x)).toBeGreaterThan(96 * MiB);
  });

  test('config.chunkBytes is the target', () => {
    t.configure({ chunkBytes: MiB });
    try {
      const x = t.zeros([20000, 20000]);
      expect(blockBytes(x)).toBeLessThanOrEqual(MiB);
      expect(blockBytes(x)).toBeGreaterThan(MiB / 2);
    } finally {
      t.resetConfig();
    }
  });

  test.each([
    [
      [100, 1000],
      [20000, 20000],
    ],
    [
      [1000, 4000],
      [100000, 100000],
    ],
    [
      [50, 5, 500],
      [5000, 500, 50000],
    ],
  ])('rechunk(x, "auto") from chunks %j keeps their aspect', (prev, shape) => {
    const x = t.zeros(shape, { chunks: prev });
    const y = x.rechunk('auto');
    expect(blockBytes(y)).toBeLessThanOrEqual(128 * MiB);
    expect(blockBytes(y)).toBeGreaterThan(32 * MiB);
    const ratios = y.chunks.map((c, ax) => (c[0] as number) / prev[ax]!);
    for (const r of ratios) expect(r / ratios[0]!).toBeCloseTo(1, 1);
  });

  test("a per-axis 'auto' fills the budget along that axis only", () => {
    const x = t.zeros([20000, 20000], { chunks: { 0: 'auto', 1: -1 } });
    expect(x.chunks[1]).toEqual([20000]);
    expect(blockBytes(x)).toBeLessThanOrEqual(128 * MiB);
    expect(blockBytes(x)).toBeGreaterThan(64 * MiB);
  });
});

/** Two-pass float64 reference std of an array. */
function refStd(v: ArrayLike<number>, correction = 0): number {
  let m = 0;
  for (let i = 0; i < v.length; i++) m += v[i]!;
  m /= v.length;
  let ss = 0;
  for (let i = 0; i < v.length; i++) ss += (v[i]! - m) ** 2;
  return Math.sqrt(ss / (v.length - correction));
}

describe('numerically stable std and var', () => {
  test.each([1000, 7000, 65536])(
    'std of 1e8 + unit noise is right to 1e-6 relative (chunks of %i)',
    async (chunk) => {
      const noise = t.random.normal([200_000], { seed: 11, chunks: chunk });
      const [n, s, v] = (await t.compute(
        noise,
        noise.add(1e8).std(),
        noise.add(1e8).var({ correction: 1 }),
        SYNC,
      )) as NDArray[];
      const ref = refStd(n!.data as NumberArray);
      expect(Math.abs((s!.data as NumberArray)[0]! - ref) / ref).toBeLessThan(1e-6);
      const refVar = refStd(n!.data as NumberArray, 1) ** 2;
      expect(Math.abs((v!.data as NumberArray)[0]! - refVar) / refVar).toBeLessThan(1e-6);
    },
  );

  test('along an axis, with several blocks per row', async () => {
    const noise = t.random.uniform([6, 30_000], { seed: 5, chunks: [4, 3000] });
    const [n, s] = (await t.compute(noise, noise.add(1e8).std({ axis: 1 }), SYNC)) as NDArray[];
    for (let r = 0; r < 6; r++) {
      const ref = refStd((n!.data as NumberArray).subarray(r * 30_000, (r + 1) * 30_000));
      expect(Math.abs((s!.data as NumberArray)[r]! - ref) / ref).toBeLessThan(1e-6);
    }
  });
});

describe('argmin and argmax give global indices', () => {
  test('planted extremes in random blocks and chunkings (flat index for axis null)', async () => {
    await fc.assert(
      fc.asyncProperty(arbShapeAndChunks(3, 9), async ({ shape, chunks, seed }) => {
        const dense = randomDense(shape, 'float64', seed);
        const r = rng(seed + 1);
        const lo = Math.floor(r() * dense.size);
        const hi = (lo + 1 + Math.floor(r() * (dense.size - 1))) % dense.size;
        dense.data[lo] = -1000;
        dense.data[hi] = 1000;
        if (lo === hi) return;
        const x = t.fromArray(dense, { chunks });
        const [mn, mx] = (await t.compute(x.argmin(), x.argmax(), SYNC)) as NDArray[];
        expect(mn!.shape).toEqual([]);
        expect(mn!.dtype).toBe('int32');
        expect([mn!.data[0], mx!.data[0]]).toEqual([lo, hi]);
      }),
      { numRuns: 40 },
    );
  });

  test('ties resolve to the first occurrence across block boundaries; axis gives positions along it', async () => {
    const data = new Float64Array([5, 1, 9, 1, 9, 0, 7, 0, 3, 9, 2, 0]);
    const x = t.fromArray(data, { chunks: 2 });
    const m = x.reshape([3, 4]).rechunk([2, 3]);
    const [a, b, c, d] = (await t.compute(
      x.argmax(),
      x.argmin(),
      m.argmax({ axis: 1 }),
      m.argmin({ axis: 0, keepdims: true }),
      SYNC,
    )) as NDArray[];
    expect(a!.data[0]).toBe(2);
    expect(b!.data[0]).toBe(5);
    expect(Array.from(c!.data as NumberArray)).toEqual([2, 0, 1]);
    expect(d!.shape).toEqual([1, 4]);
    // column 3 ties (0 at rows 1 and 2) across the row-block boundary: the first wins
    expect(Array.from(d!.data as NumberArray)).toEqual([2, 1, 2, 1]);
  });
});

/** The rechunk layers between `y` and its source, oldest first. */
function rechunkSteps(y: LazyArray): Layer[] {
  const out: Layer[] = [];
  for (let l: Layer | undefined = y.layer; l?.op.startsWith('rechunk'); l = l.deps[0]) {
    out.unshift(l);
  }
  return out;
}

describe('rechunk planning through the public rechunk', () => {
  test('random chunkings: steps end at the target, each task within memoryLimit, values kept', async () => {
    const arb = fc.record({
      a: arbShapeAndChunks(3, 40),
      seed: fc.integer({ min: 1, max: 1e6 }),
      limitElems: fc.integer({ min: 8, max: 400 }),
    });
    await fc.assert(
      fc.asyncProperty(arb, async ({ a: { shape, chunks }, seed, limitElems }) => {
        const r = rng(seed);
        const target = shape.map((n) => Math.max(1, Math.floor(r() * n)));
        const dense = randomDense(shape, 'float64', seed);
        const x = t.fromArray(dense, { chunks });
        const memoryLimit = limitElems * 8;
        const y = x.rechunk(target, { memoryLimit });
        const wanted = t.normalizeChunks(target, shape);
        expect(y.chunks).toEqual(wanted);
        const fits = (c: Chunks) => rechunkTaskBytes(c, c, 8) <= memoryLimit;
        let prev: Chunks = x.chunks;
        for (const step of rechunkSteps(y)) {
          if (fits(x.chunks) && fits(wanted)) {
            expect(rechunkTaskBytes(prev, step.chunks, 8)).toBeLessThanOrEqual(memoryLimit);
          }
          prev = step.chunks;
        }
        const out = await y.compute(SYNC);
        expect(Array.from(out.data as NumberArray)).toEqual(Array.from(dense.data as NumberArray));
      }),
      { numRuns: 40 },
    );
  });

  test('a transpose-like rechunk uses intermediates, each step within 4 × (old + new) pieces', () => {
    const x = t.zeros([2000, 2000], { chunks: [2000, 20] });
    const y = x.rechunk([20, 2000], { memoryLimit: 2000 * 20 * 8 * 8 });
    const steps = rechunkSteps(y);
    expect(steps.length).toBeGreaterThan(1);
    let prev: Chunks = x.chunks;
    let total = 0;
    for (const s of steps) {
      const g = rechunkGraphSize(prev, s.chunks);
      expect(g).toBeLessThanOrEqual(4 * (numBlocks(prev) + numBlocks(s.chunks)));
      total += g;
      prev = s.chunks;
    }
    expect(total).toBeLessThan(rechunkGraphSize(x.chunks, y.chunks));
  });

  test('rechunk along an axis of unknown size is a ChunkError naming computeChunkSizes', () => {
    const a = t.fromArray(randomDense([12, 5]), { chunks: [4, 5] });
    const y = a.mask(a.greater(0));
    expect(() => y.rechunk(3)).toThrow(ChunkError);
    expect(() => y.rechunk(3)).toThrow(/^rechunk: .*computeChunkSizes/);
    // other axes of an array with unknown sizes can still be rechunked
    const z = t.stack([y, y], { axis: 1 });
    expect(z.rechunk({ 1: 1 }).chunks[1]).toEqual([1, 1]);
  });
});
