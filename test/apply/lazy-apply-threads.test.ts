// lazyApply on worker threads (issue points 12 and 18): kernels shipped by source, by module
// (defineKernels, with imports and module state) and kwargs that arrive structurally equal.

import { threadId } from 'node:worker_threads';
import { afterAll, describe, expect, test } from 'vitest';
import { lazyApply } from '../../src/apply/lazy-apply.ts';
import { compute } from '../../src/array/compute.ts';
import type { NumberArray } from '../../src/array/dtype.ts';
import { fromArray } from '../../src/array/from-array.ts';
import type { NDArray } from '../../src/array/ndarray.ts';
import { ShapeError, TaskError } from '../../src/errors.ts';
import { shutdownDefaultPool } from '../../src/workers/pool.ts';
import { lazyKernels } from '../fixtures/lazy-kernels.ts';
import { expectArray, randomDense } from '../helpers/reference.ts';

const threads = { scheduler: 'threads', workers: 2 } as const;
afterAll(() => shutdownDefaultPool());

describe('18: kernels on worker threads', () => {
  const dense = randomDense([8, 5], 'float64', 21);
  const x = fromArray(dense, { chunks: [2, 3] });

  test('18: a self-contained arrow function runs on workers from its source', async () => {
    const sortRows = (b: NDArray) => {
      const n = b.shape[1]!;
      const out = b.data.slice();
      for (let i = 0; i < out.length; i += n) out.subarray(i, i + n).sort();
      return out;
    };
    const y = lazyApply(sortRows, x, { axis: 1 });
    const [onThreads, onSync] = [
      await compute(y, threads),
      await compute(y, { scheduler: 'sync' }),
    ];
    expectArray(onThreads, { dtype: 'float64', shape: [8, 5], data: onSync.data });
    const want = Array.from(dense.data as NumberArray);
    for (let i = 0; i < 40; i += 5)
      want.splice(i, 5, ...want.slice(i, i + 5).sort((p, q) => p - q));
    expectArray(onThreads, { shape: [8, 5], data: want });
  });

  test('18: defineKernels kernels use imports and module state on the workers', async () => {
    // one task per block of 2 rows; its 12 values: [threadId, calls on its thread, x + 100 …]
    const y = lazyApply(lazyKernels.tagThread, x, { axis: 1, shape: [8, null] });
    const got = await compute(y, threads);
    expect(got.shape).toEqual([8, 6]);
    for (let b = 0; b < 4; b++) {
      const block = got.data.subarray(12 * b, 12 * b + 12);
      expect(block[0]).not.toBe(threadId); // not the main thread
      expect(block[1]).toBeGreaterThanOrEqual(1);
      for (let j = 0; j < 10; j++)
        expect(block[2 + j]).toBeCloseTo((dense.data as NumberArray)[10 * b + j]! + 100);
    }
  });

  test('18: an inline function stays on the main thread under the thread scheduler', async () => {
    const ran: number[] = [];
    const y = lazyApply(
      (b: NDArray) => {
        ran.push(threadId);
        return b.data;
      },
      x,
      { inline: true },
    );
    expectArray(await compute(y, threads), { shape: [8, 5], data: dense.data });
    expect(ran).toEqual([threadId]);
  });

  test('12: kwargs reach a worker structurally equal (cycles kept)', async () => {
    const loop: unknown[] = ['loop'];
    loop.push(loop);
    const kwargs = { obj: { a: 7 }, str: 'hann', names: ['x', 'yy'], num: 3, loop };
    type Kw = typeof kwargs;
    const probe = (_: NDArray, kw: Kw) => [
      kw.obj.a,
      kw.str === 'hann' ? 1 : 0,
      kw.names.join('').length,
      kw.num,
      kw.loop[1] === kw.loop ? 1 : 0,
    ];
    const y = lazyApply(probe, x, { shape: [5], kwargs });
    expectArray(await compute(y, threads), { shape: [5], data: [7, 1, 3, 3, 1] });
  });

  test('13: an exception on a worker surfaces as TaskError with the original error', async () => {
    const fail = (_: NDArray): never => {
      throw new RangeError('worker boom');
    };
    const err = (await compute(lazyApply(fail, x), threads).catch((e: unknown) => e)) as TaskError;
    expect(err).toBeInstanceOf(TaskError);
    expect(err.key).toContain('lazy-apply-fail-');
    expect(err.kernel).toBe('lazy-apply:fail');
    expect((err.cause as Error).message).toBe('worker boom');
    expect((err.cause as Error).stack).toContain('worker boom');
  });

  test('10: a result contradicting its declared shape is a ShapeError on workers too', async () => {
    const short = (b: NDArray) => b.data.slice(1);
    const err = (await compute(lazyApply(short, x, { shape: [8, 5] }), threads).catch(
      (e: unknown) => e,
    )) as ShapeError;
    expect(err).toBeInstanceOf(ShapeError);
    expect(err.key).toContain('lazy-apply-short-');
    expect(err.message).toContain(`task ${err.key}`);
  });
});
