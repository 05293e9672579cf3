// Reuse of released block buffers (array/buffer-pool.ts, workers/recycler.ts): results equal
// those with reuse off, bit for bit, on random pipelines of views and copies; reuse happens;
// and memory anyone else may hold — results, persisted blocks, wrapped data, what a user
// kernel saw or kept — is never handed to a later block.

import fc from 'fast-check';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import {
  exposeBuffer,
  freeBufferBytes,
  insideTask,
  pooledBuffer,
  recycleBuffer,
  setBufferPoolLimit,
  TRAILER_BYTES,
  takeFreeBuffer,
  trimBufferPool,
} from '../../src/array/buffer-pool.ts';
import { allocate } from '../../src/array/dtype.ts';
import { NDArray } from '../../src/array/ndarray.ts';
import {
  type ComputeOptions,
  compute,
  concat,
  configure,
  fromArray,
  type LazyArray,
  mapBlocks,
  overlap,
  persist,
  type RunStats,
  random,
  rechunk,
  resetConfig,
  shutdown,
  uniformFilter,
} from '../../src/index.ts';
import { recycleSteps } from '../../src/kernels/recycle-steps.ts';

afterAll(() => shutdown());
afterEach(() => resetConfig());

const SCHEDULERS = ['sync', 'threads'] as const;

/** Compute `x` and the figures of its run. */
async function run(x: LazyArray, opts: ComputeOptions): Promise<[NDArray, RunStats]> {
  let stats: RunStats | undefined;
  const r = await compute(x, { ...opts, onStats: (s) => (stats = s) });
  return [r, stats!];
}

const sameBits = (a: NDArray, b: NDArray): void => {
  expect(a.shape).toEqual(b.shape);
  expect(a.dtype).toBe(b.dtype);
  expect(Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength)).toEqual(
    Buffer.from(b.data.buffer, b.data.byteOffset, b.data.byteLength),
  );
};

/** Pipelines mixing views (rechunk pieces, slices, reversed rows) with fresh blocks. */
const pipelines: Record<string, (a: LazyArray) => LazyArray> = {
  'rechunk + reversed': (a) => a.add(a.get('::-1, :')),
  'slices of rechunks': (a) => rechunk(a, [17, 40]).get('3:, ::2').mul(2),
  transpose: (a) => a.add(a.get('::-1, ::-1')).sum({ axis: 1 }),
  concat: (a) =>
    concat([a, a.mul(3)], { axis: 0 })
      .get('::3, :')
      .std({ axis: 0 }),
  'chain then reduce': (a) => a.mul(a).sub(1).abs().mean({ axis: 0 }),
  // fused tasks of several steps, whose intermediates go back to the free list at once
  'overlap + filter': (a) => uniformFilter(a.astype('float32'), 3).mul(2),
  'halo then slice': (a) => overlap(a, 2, 'reflect').get('1:, ::-2').add(a.get(':1, :1')),
};

describe('results with reuse equal results without it', () => {
  test.each(SCHEDULERS)('on %s, random shapes and chunkings, bit for bit', async (scheduler) => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 20, max: 160 }),
        fc.integer({ min: 20, max: 120 }),
        fc.integer({ min: 5, max: 60 }),
        fc.integer({ min: 5, max: 60 }),
        fc.constantFrom(...Object.keys(pipelines)),
        fc.constantFrom('float64', 'float32', 'float16', 'uint8'),
        async (rows, cols, cr, cc, name, dtype) => {
          const a = random
            .uniform([rows, cols], { seed: rows * cols, chunks: [cr, cc] })
            .mul(200)
            .astype(dtype);
          const x = pipelines[name]!(a);
          configure({ bufferPool: 0 });
          const [want] = await run(x, { scheduler, workers: 2 });
          configure({ bufferPool: 2 ** 28 });
          // twice: the second run takes the buffers the first let go
          await run(x, { scheduler, workers: 2 });
          const [got] = await run(x, { scheduler, workers: 2 });
          sameBits(got, want);
        },
      ),
      { numRuns: 25 },
    );
  });

  test.each(SCHEDULERS)(
    'on %s, released blocks are reused; bufferPool 0 turns it off',
    async (scheduler) => {
      const x = random
        .uniform([400, 300], { seed: 1, chunks: [50, 60] })
        .mul(2)
        .add(1);
      const [, on] = await run(x, { scheduler, workers: 2 });
      expect(on.recycledBytes).toBeGreaterThan(0);
      configure({ bufferPool: 0 });
      const [, off] = await run(x, { scheduler, workers: 2 });
      expect(off.recycledBytes).toBe(0);
    },
  );
});

describe("tessera's copy of what a user kernel returned", () => {
  test.each(SCHEDULERS)(
    "on %s, is reused as a built-in kernel's block is (the kernel never saw it)",
    async (scheduler) => {
      // typed-array map() returns an unshared array: tessera copies it into shared memory
      const plusOne = (b: NDArray) => (b.data as Float64Array).map((v) => v + 1);
      const x = random.uniform([400, 300], { seed: 6, chunks: [50, 60] });
      // a rechunk reads the blocks, so they are released (and reused) as task outputs
      const tail = (a: LazyArray) => rechunk(a, [100, 100]).sum({ axis: 0 });
      const user = tail(mapBlocks(plusOne, x, { dtype: 'float64' }));
      const builtin = tail(x.add(1));
      configure({ bufferPool: 0 });
      const [want] = await run(user, { scheduler, workers: 2 });
      configure({ bufferPool: 2 ** 28 });
      const [got, u] = await run(user, { scheduler, workers: 2 });
      const [same, b] = await run(builtin, { scheduler, workers: 2 });
      sameBits(got, want);
      sameBits(got, same);
      expect(u.recycledBytes).toBeGreaterThan(0);
      expect(u.recycledBytes).toBe(b.recycledBytes);
    },
  );
});

describe('memory someone else holds is never reused', () => {
  test.each(SCHEDULERS)(
    'on %s, a result stays as it was through later computes',
    async (scheduler) => {
      const x = random.uniform([300, 200], { seed: 2, chunks: [40, 50] });
      const one = random.uniform([64, 64], { seed: 3, chunks: 64 }).mul(2); // a single block
      const [r] = await run(x.mul(2), { scheduler });
      const [s] = await run(one, { scheduler });
      const copies = [r.data.slice(), s.data.slice()];
      for (let k = 0; k < 3; k++) await run(x.add(k).mul(x), { scheduler });
      expect(r.data).toEqual(copies[0]);
      expect(s.data).toEqual(copies[1]);
    },
  );

  test.each(SCHEDULERS)(
    'on %s, persisted blocks and wrapped data stay intact',
    async (scheduler) => {
      const dense = random.uniform([120, 90], { seed: 4, chunks: [120, 90] });
      const [wrapped] = await run(dense, { scheduler: 'sync' });
      const before = wrapped.data.slice();
      // rechunk of wrapped data reads it in place: its blocks are views of the caller's memory
      const w = fromArray(wrapped, { chunks: [30, 45] });
      const [p] = await persist(w.mul(3), { scheduler });
      const [want] = await run(p.add(0), { scheduler });
      for (let k = 0; k < 3; k++) await run(rechunk(w, [60, 30]).add(p).mul(k), { scheduler });
      expect(wrapped.data).toEqual(before);
      const [again] = await run(p.add(0), { scheduler });
      sameBits(again, want);
    },
  );

  test('a block a user kernel kept is never handed to a later block', async () => {
    const kept: NDArray[] = [];
    const copies: Float64Array[] = [];
    const keep = (b: NDArray): NDArray => {
      kept.push(b);
      copies.push(b.data.slice() as Float64Array);
      return b;
    };
    const x = random.uniform([300, 200], { seed: 5, chunks: [50, 50] }).mul(2);
    await run(mapBlocks(keep, x, { dtype: 'float64', inline: true }).add(1), { scheduler: 'sync' });
    for (let k = 0; k < 3; k++) await run(x.mul(k).add(x), { scheduler: 'sync' });
    expect(kept.length).toBe(24);
    for (let i = 0; i < kept.length; i++) expect(kept[i]!.data).toEqual(copies[i]);
  });
});

describe('the free list', () => {
  test('reuses a buffer of the same size, zeroed, and keeps within its limit', () => {
    trimBufferPool();
    const a = pooledBuffer(8192);
    expect(a.byteLength).toBe(8192 + TRAILER_BYTES);
    new Float64Array(a, 0, 1024).fill(7);
    expect(recycleBuffer(a)).toBe(true);
    expect(freeBufferBytes()).toBe(8192);
    const b = pooledBuffer(8192);
    expect(b).toBe(a);
    expect(new Float64Array(b, 0, 1024).every((v) => v === 0)).toBe(true);
    expect(pooledBuffer(16384)).not.toBe(a);
    setBufferPoolLimit(10_000);
    expect(recycleBuffer(b)).toBe(true);
    expect(recycleBuffer(new SharedArrayBuffer(8192 + TRAILER_BYTES))).toBe(false);
    expect(freeBufferBytes()).toBe(8192);
    trimBufferPool();
    expect(freeBufferBytes()).toBe(0);
    // odd sizes (uint8, float16 blocks) get room to a multiple of 8: the trailer stays aligned
    const odd = pooledBuffer(5001);
    expect(odd.byteLength).toBe(5008 + TRAILER_BYTES);
    expect(recycleBuffer(odd)).toBe(true);
    expect(pooledBuffer(5003)).toBe(odd);
    trimBufferPool();
    resetConfig();
  });

  test("a fused task's step values go back to the free list, but not its inputs, its result or what it did not make", () => {
    trimBufferPool();
    const block = (n: number) => insideTask(() => allocate('float64', n));
    const made = (n: number) => new NDArray(block(n), [n], 'float64');
    const step = made(1024);
    const twice = made(2048);
    const view = new NDArray(twice.data.subarray(0, 512), [512], 'float64');
    const result = made(4096);
    const resultView = new NDArray(result.data.subarray(8, 16), [8], 'float64');
    const input = made(3072);
    const exposed = made(5120);
    exposeBuffer(exposed.data);
    const outside = new NDArray(allocate('float64', 6144), [6144], 'float64');
    recycleSteps([step, [twice, view], resultView, input, exposed, outside], [input, result]);
    // step and twice (once, though two values share it); nothing else
    expect(freeBufferBytes()).toBe(8 * (1024 + 2048));
    expect(takeFreeBuffer(8 * 1024)).toBe(step.data.buffer);
    expect(takeFreeBuffer(8 * 2048)).toBe(twice.data.buffer);
    trimBufferPool();
  });

  test('configure checks bufferPool', () => {
    expect(() => configure({ bufferPool: -1 })).toThrow(
      'configure: bufferPool -1 must be a non-negative integer of bytes (0 = no reuse)',
    );
  });
});
