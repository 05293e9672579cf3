// Acceptance (issue 2): compute on the sync scheduler — shared intermediates run once,
// persist() is not recomputed, intermediates are released, kernel failures are TaskErrors.

import { describe, expect, test } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import { fuseLayers } from '../../src/graph/fuse.ts';
import { materializeTasks, runnableCount } from '../../src/graph/materialize.ts';
import * as t from '../../src/index.ts';
import { type LazyArray, type NDArray, TaskError } from '../../src/index.ts';
import type { RunStats } from '../../src/workers/scheduler.ts';

const SYNC = { scheduler: 'sync' } as const;

/** An identity mapBlocks on the main thread that counts its calls. */
function counted(x: LazyArray): { y: LazyArray; calls: () => number } {
  let n = 0;
  const y = t.mapBlocks(
    (b: NDArray) => {
      n++;
      return b;
    },
    x,
    { dtype: x.dtype, inline: true },
  );
  return { y, calls: () => n };
}

async function statsOf(...args: [LazyArray, ...LazyArray[]]): Promise<RunStats> {
  let stats: RunStats | undefined;
  await t.compute(...(args as [LazyArray, LazyArray]), {
    ...SYNC,
    onStats: (s) => {
      stats = s;
    },
  });
  return stats!;
}

describe('shared intermediates', () => {
  test('compute(a, b) runs a shared intermediate once per block', async () => {
    const x = t.ones([40, 30], { chunks: 10 });
    const { y, calls } = counted(x.mul(3));
    const [s, m, mx] = (await t.compute(y.sum(), y.mean({ axis: 0 }), y.max(), SYNC)) as NDArray[];
    expect(calls()).toBe(12);
    expect(s!.data[0]).toBe(3600);
    expect(Array.from(m!.data as NumberArray)).toEqual(new Array(30).fill(3));
    expect(mx!.data[0]).toBe(3);
  });

  test('tasksRun of compute(a, b) counts the shared part once', async () => {
    const x = t.random.uniform([60, 60], { seed: 4, chunks: 15 });
    const shared = x.exp().rechunk([20, 20]);
    const a = shared.sum({ axis: 0 });
    const b = shared.add(1).max();
    const both = await statsOf(a, b);
    expect(both.tasksRun).toBe(runnableCount(materializeTasks(fuseLayers([a.layer, b.layer]))));
    const alone = (await statsOf(a)).tasksRun + (await statsOf(b)).tasksRun;
    expect(both.tasksRun).toBeLessThan(alone);
    // a's blocks were copied into its result as they finished; b's one block is returned as is
    expect(both.liveChunksAtEnd).toBe(1);
  });

  test('persist() then compute does not recompute; the held array keeps its name', async () => {
    const x = t.ones([40, 30], { chunks: 10 });
    const { y, calls } = counted(x.add(1));
    const [held] = await t.persist(y, SYNC);
    expect(calls()).toBe(12);
    expect(held!.name).toBe(y.name);
    expect(held!.chunks).toEqual(y.chunks);
    const [s, p] = (await t.compute(held!.sum(), held!.mul(2).max(), SYNC)) as NDArray[];
    expect(s!.data[0]).toBe(2400);
    expect(p!.data[0]).toBe(4);
    await held!.get('3:7, ::2').compute(SYNC);
    expect(calls()).toBe(12);
    // the method form persists too
    const again = await y.persist(SYNC);
    expect(calls()).toBe(24);
    await again.sum().compute(SYNC);
    expect(calls()).toBe(24);
  });

  test('persist of several arrays shares their common work', async () => {
    const x = t.ones([20, 20], { chunks: 10 });
    const { y, calls } = counted(x);
    const [a, b] = await t.persist(y.add(1), y.mul(2), SYNC);
    expect(calls()).toBe(4);
    const [sa, sb] = (await t.compute(a!.sum(), b!.sum(), SYNC)) as NDArray[];
    expect([sa!.data[0], sb!.data[0]]).toEqual([800, 800]);
    expect(calls()).toBe(4);
  });
  test('compute(a, b) sharing an intermediate keeps only a few of its blocks live', async () => {
    // 100 shared blocks consumed by two reductions: each block is ordered next to both of
    // its consumers, so it is freed at once instead of waiting for the second tree
    const shared = t.ones([1000, 10], { chunks: 10 }).mul(2);
    let stats: RunStats | undefined;
    const [a, b] = await t.compute(shared.sum(), shared.mean(), {
      ...SYNC,
      onStats: (st) => {
        stats = st;
      },
    });
    expect(a.data[0]).toBe(20000);
    expect(b.data[0]).toBe(2);
    // (walking each output's tree whole held all 100 shared blocks: a peak of 113)
    expect(stats!.peakLiveChunks).toBeLessThanOrEqual(30);
  });
});

describe('release: live chunks stay bounded', () => {
  const chainSum = (blocks: number, steps: number): LazyArray => {
    let y = t.ones([blocks * 10, 10], { chunks: 10 });
    for (let i = 0; i < steps; i++) y = y.mul(1.0001).add(i);
    return y.sum();
  };

  test.each([true, false])(
    'a 30-step chain over 400 blocks, then a sum (fusion %s)',
    async (optimize) => {
      let stats: RunStats | undefined;
      const r = await t.compute(chainSum(400, 30), {
        ...SYNC,
        optimize,
        onStats: (s) => {
          stats = s;
        },
      });
      expect(Number.isFinite(r.data[0])).toBe(true);
      expect(stats!.peakLiveChunks).toBeLessThanOrEqual(20);
      expect(stats!.peakLiveBytes).toBeLessThanOrEqual(20 * 800);
      expect(stats!.liveChunksAtEnd).toBe(1);
    },
  );

  test('peak live chunks do not grow with the number of blocks', async () => {
    const peak = async (blocks: number) => {
      let stats: RunStats | undefined;
      await t.compute(chainSum(blocks, 10), {
        ...SYNC,
        optimize: false,
        onStats: (s) => {
          stats = s;
        },
      });
      return stats!.peakLiveChunks;
    };
    const small = await peak(16);
    const large = await peak(1024);
    expect(large).toBeLessThanOrEqual(small + 10);
  });

  test('computing a chain without a reduction holds one chain: output blocks go into the result', async () => {
    let y = t.ones([200, 10], { chunks: 10 });
    for (let i = 0; i < 10; i++) y = y.add(1).mul(0.5);
    let stats: RunStats | undefined;
    await t.compute(y, {
      ...SYNC,
      optimize: false,
      onStats: (s) => {
        stats = s;
      },
    });
    expect(stats!.liveChunksAtEnd).toBe(0);
    expect(stats!.peakLiveChunks).toBeLessThanOrEqual(3);
  });
});

describe('a kernel that throws', () => {
  const x = t.ones([20, 20], { chunks: 10 });

  test.each([
    ['shipped by source', {}],
    ['inline', { inline: true }],
  ])(
    '%s: TaskError with the task key, kernel name and the original error as cause',
    async (_, o) => {
      const y = t.mapBlocks(
        function boom(_b: NDArray): NDArray {
          throw new RangeError('kaboom');
        },
        x,
        { dtype: 'float64', ...o },
      );
      const err = await t.compute(y, SYNC).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(TaskError);
      const te = err as TaskError;
      expect(te._tag).toBe('TaskError');
      expect(te.key).toMatch(new RegExp(`^${y.name}:\\(\\d+,\\d+\\)$`));
      expect(te.kernel).toContain('boom');
      expect(te.message).toMatch(/^compute: task .* failed: kaboom/);
      const cause = te.cause as Error;
      expect(cause).toBeInstanceOf(Error);
      expect(cause.message).toBe('kaboom');
      expect(cause.stack).toContain('boom');
    },
  );

  test('inside a fused chain, the error still names the failing kernel', async () => {
    const y = t
      .mapBlocks(
        function boom(_b: NDArray): NDArray {
          throw new Error('kaboom');
        },
        x.mul(2),
        { dtype: 'float64' },
      )
      .add(1)
      .sum();
    const err = (await t.compute(y, SYNC).catch((e: unknown) => e)) as TaskError;
    expect(err).toBeInstanceOf(TaskError);
    expect(err.kernel).toContain('boom');
    expect(err.key).toMatch(/:\(\d+,\d+\)$/);
    expect((err.cause as Error).message).toBe('kaboom');
  });
});
