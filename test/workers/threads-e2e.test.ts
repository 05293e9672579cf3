// The 'threads' scheduler end to end through compute(): bit-identical to 'sync' on a mixed
// graph, kernel failures and aborts that cancel the rest promptly and drop held values,
// memoryLimit bounding live bytes, progress events, and 'threads' as the default.

import v8 from 'node:v8';
import vm from 'node:vm';
import { threadId } from 'node:worker_threads';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { lazyApply } from '../../src/apply/lazy-apply.ts';
import { mapBlocks } from '../../src/apply/map-blocks.ts';
import { compute } from '../../src/array/compute.ts';
import type { NumberArray } from '../../src/array/dtype.ts';
import { fromArray } from '../../src/array/from-array.ts';
import type { LazyArray } from '../../src/array/lazy-array.ts';
import { NDArray } from '../../src/array/ndarray.ts';
import { config, resetConfig } from '../../src/config.ts';
import type { ProgressEvent } from '../../src/diagnostics/progress.ts';
import { CancelledError, isTesseraError, type TaskError } from '../../src/errors.ts';
import { materializeTasks } from '../../src/graph/materialize.ts';
import { orderTasks } from '../../src/graph/order.ts';
import { cumsum, matmul, random, rechunk } from '../../src/index.ts';
import type { Chunk } from '../../src/kernels/types.ts';
import { shutdownDefaultPool } from '../../src/workers/pool.ts';
import { runTasks } from '../../src/workers/scheduler.ts';
import type { Executor, TaskPayload } from '../../src/workers/types.ts';
import { lazyKernels } from '../fixtures/lazy-kernels.ts';

const threads = { scheduler: 'threads', workers: 2 } as const;
afterAll(() => shutdownDefaultPool());
afterEach(() => resetConfig());

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

function expectBits(a: NDArray, b: NDArray, label: string): void {
  expect(a.shape, label).toEqual(b.shape);
  expect(a.dtype, label).toBe(b.dtype);
  for (let i = 0; i < a.size; i++) {
    if (!Object.is(a.data[i], b.data[i])) {
      expect(`${label}[${i}] = ${a.data[i]}`).toBe(`${label}[${i}] = ${b.data[i]}`);
    }
  }
}

/** Rejection of `p` and how long it took to arrive (ms). */
async function rejection(p: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const t0 = performance.now();
  return p.then(
    () => expect.unreachable('expected a rejection'),
    (error: unknown) => ({ error, ms: performance.now() - t0 }),
  );
}

/** Shipped to workers by source: spins for `ms` per block; throws on a block holding -1. */
const slowBlock = (b: NDArray) => {
  const until = Date.now() + 40;
  while (Date.now() < until) {}
  for (let i = 0; i < b.size; i++) if (b.data[i] === -1) throw new RangeError('marked block');
  return b.data;
};

describe("'threads' against 'sync'", () => {
  test('a mixed graph gives bit-identical results', async () => {
    const x = random.uniform([90, 70], { seed: 3, chunks: [20, 15] });
    const sq = random.normal([70, 70], { seed: 4, chunks: 25 });
    const outputs: [string, LazyArray][] = [
      ['elementwise', x.mul(2).add(x.sin()).sub(1)],
      ['sum(axis 0)', x.mul(x).sum({ axis: 0 })],
      ['mean', x.mean()],
      ['std', x.std({ axis: 1 })],
      ['argmax', x.argmax({ axis: 0 })],
      ['max', x.max()],
      ['rechunk', rechunk(x, [45, 35]).mul(3)],
      ['matmul', matmul(sq, sq.T)],
      ['cumsum', cumsum(x, { axis: 1 })],
      ['x + x.T', sq.add(sq.T).mean({ axis: 0 })],
    ];
    const onThreads = await compute(
      ...(outputs.map(([, y]) => y) as [LazyArray, LazyArray]),
      threads,
    );
    const onSync = await compute(...(outputs.map(([, y]) => y) as [LazyArray, LazyArray]), {
      scheduler: 'sync',
    });
    outputs.forEach(([label], i) => {
      expectBits(onThreads[i]!, onSync[i]!, label);
    });
  });

  test("'threads' is the default scheduler, sized by os.availableParallelism()", async () => {
    resetConfig();
    expect(config.scheduler).toBe('threads');
    expect(config.workers).toBe(0);
    // one task per block of 2 rows, tagged with the thread that ran it (threadId 0: main)
    const x = fromArray(new Float64Array(40), { shape: [8, 5], chunks: [2, 5] });
    const tagged = lazyApply(lazyKernels.tagThread, x, { axis: 1, shape: [8, null] });
    const got = await compute(tagged);
    const seen = new Set<number>();
    for (let b = 0; b < 4; b++) seen.add((got.data as NumberArray)[12 * b]!);
    expect(seen.has(threadId)).toBe(false);
  });
});

describe('failures and cancellation on threads', () => {
  test('a kernel throw gives TaskError and the rest of the graph stops promptly', async () => {
    // 40 blocks of 40 ms on 2 workers: 800 ms to run them all; the marked block is early
    const data = new Float64Array(400).fill(1);
    data[30] = -1;
    const y = mapBlocks(slowBlock, fromArray(data, { chunks: 10 }), { dtype: 'float64' }).sum();
    const { error, ms } = await rejection(compute(y, threads));
    expect(isTesseraError(error, 'TaskError')).toBe(true);
    expect((error as TaskError).message).toContain('marked block');
    expect(ms).toBeLessThan(500);
    // the pool is free again at once: the cancelled graph's queued batches were dropped
    const t0 = performance.now();
    const small = await compute(fromArray(new Float64Array(8).fill(2)).sum(), threads);
    expect(small.data[0]).toBe(16);
    expect(performance.now() - t0).toBeLessThan(150);
  }, 10_000);

  test('an AbortSignal cancels within 100 ms of the running tasks finishing', async () => {
    const data = new Float64Array(800).fill(1);
    const y = mapBlocks(slowBlock, fromArray(data, { chunks: 10 }), { dtype: 'float64' }).sum();
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 120);
    const t0 = performance.now();
    const { error } = await rejection(compute(y, { ...threads, signal: ctl.signal }));
    expect(error).toBeInstanceOf(CancelledError);
    // abort at 120 ms, running tasks take at most 40 ms more
    expect(performance.now() - t0).toBeLessThan(120 + 40 + 100);
    const t1 = performance.now();
    await compute(fromArray(new Float64Array(4)).sum(), threads);
    expect(performance.now() - t1).toBeLessThan(150);
  }, 10_000);

  test('a cancelled run drops every value it held', async () => {
    // an executor that returns 8 MB blocks after a delay; the run is aborted midway
    const held: WeakRef<object>[] = [];
    const slow: Executor = {
      name: 'slow',
      concurrency: 1,
      async run(batch: readonly TaskPayload[]): Promise<Chunk[]> {
        await new Promise((r) => setTimeout(r, 5));
        return batch.map(() => {
          const block = new NDArray(new Float64Array(2 ** 20), [2 ** 20], 'float64');
          held.push(new WeakRef(block));
          return block;
        });
      },
    };
    const y = random.uniform([2 ** 20 * 16], { seed: 1, chunks: 2 ** 20 }).mul(2);
    const table = materializeTasks([y.layer]);
    const ctl = new AbortController();
    const run = runTasks(table, slow, { priority: orderTasks(table), signal: ctl.signal });
    setTimeout(() => ctl.abort(), 12);
    await expect(run).rejects.toBeInstanceOf(CancelledError);
    expect(held.length).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 20));
    gc();
    expect(held.filter((w) => w.deref() !== undefined)).toHaveLength(0);
  });
});

describe('memory and progress on threads', () => {
  test('memoryLimit bounds the peak of live bytes on a wide graph', async () => {
    // 64 independent 256 KiB blocks, each transposed (not fusable) and then reduced
    const build = () =>
      random.uniform([512, 8192], { seed: 5, chunks: [64, 512] }).T.sum({ axis: 0 });
    const block = 64 * 512 * 8;
    const peaks: number[] = [];
    for (const memoryLimit of [undefined, 4 * block]) {
      const got = await compute(build(), {
        ...threads,
        ...(memoryLimit ? { memoryLimit } : {}),
        onStats: (s) => peaks.push(s.peakLiveBytes),
      });
      expect(got.shape).toEqual([512]);
    }
    const [free, limited] = peaks as [number, number];
    expect(free).toBeGreaterThan(16 * block);
    // the limit plus what was already dispatched when it was reached
    expect(limited).toBeLessThanOrEqual(4 * block + 4 * block);
  });

  test('blocks dropped on workers are collected: streaming 1.5 GiB keeps the peak RSS low', async () => {
    // 24 random blocks of 64 MiB, each summed on the worker that made it
    const before = process.resourceUsage().maxRSS * 1024;
    const n = 24 * 2 ** 23;
    const total = await compute(random.uniform([n], { seed: 8, chunks: 2 ** 23 }).sum(), threads);
    expect(Math.abs((total.data as NumberArray)[0]! / n - 0.5)).toBeLessThan(1e-3);
    const grown = process.resourceUsage().maxRSS * 1024 - before;
    expect(grown).toBeLessThan(900 * 2 ** 20);
  }, 30_000);

  test('progress events count tasks up to done === total', async () => {
    const events: ProgressEvent[] = [];
    const y = random.uniform([200, 200], { seed: 2, chunks: 20 }).mul(2).sum({ axis: 1 });
    await compute(y, { ...threads, progress: (e) => events.push(e) });
    expect(events.length).toBeGreaterThan(0);
    const last = events[events.length - 1]!;
    expect(last.done).toBe(last.total);
    expect(last.total).toBeGreaterThan(100);
    for (let i = 1; i < events.length; i++) {
      expect(events[i]!.done).toBeGreaterThanOrEqual(events[i - 1]!.done);
    }
  });
});
