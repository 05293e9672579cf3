// Asynchronous kernels (file and store reads, devices): every executor awaits them, keeps
// results in task order among synchronous tasks, and turns a rejection into TaskError; a
// fused step cannot be asynchronous.

import { afterAll, describe, expect, test } from 'vitest';
import { NDArray, ndarray } from '../../src/array/ndarray.ts';
import { isTesseraError, KernelError, type TaskError } from '../../src/errors.ts';
import { createFnResolver } from '../../src/kernels/resolve.ts';
import { runTask } from '../../src/kernels/run-task.ts';
import type { Chunk } from '../../src/kernels/types.ts';
import { InlineExecutor } from '../../src/workers/inline.ts';
import { ThreadPoolExecutor } from '../../src/workers/pool.ts';
import type { PoolExecutor } from '../../src/workers/pool-executor.ts';
import { ProcessPoolExecutor } from '../../src/workers/process-pool.ts';
import type { Executor } from '../../src/workers/types.ts';
import { registry, registryModule } from '../fixtures/test-kernels.ts';
import { task } from '../helpers/payload.ts';
import { rejection } from '../helpers/rejection.ts';

const T = 30_000;
const resolver = createFnResolver({ inline: true });
const pools: PoolExecutor[] = [];
afterAll(() => Promise.all(pools.map((p) => p.shutdown())));

const values = (chunks: Chunk[]) => chunks.map((c) => (c as NDArray).toNested());
const xs = [1, 2, 3, 4, 5, 6].map((v) => ndarray([v, -v]));
/** Sync and async tasks interleaved, the async ones finishing in reverse order. */
const mixed = () =>
  xs.map((x, i) =>
    i % 2 === 0 ? task('test-async', { ms: 30 - 4 * i }, [x]) : task('test-identity', null, [x]),
  );

const executors: [string, () => Executor][] = [
  ['inline', () => new InlineExecutor(resolver, registry)],
  [
    'threads',
    () => {
      const p = new ThreadPoolExecutor({ workers: 2, registryModule });
      pools.push(p);
      return p;
    },
  ],
  [
    'processes',
    () => {
      const p = new ProcessPoolExecutor({ workers: 2, registryModule });
      pools.push(p);
      return p;
    },
  ],
];

describe.each(executors)('asynchronous kernels on %s', (_, make) => {
  const executor = make();

  test(
    'a batch mixing async and sync tasks resolves in task order',
    async () => {
      for (let round = 0; round < 2; round++) {
        const got = await executor.run(mixed());
        expect(values(got)).toEqual(xs.map((x) => x.toNested()));
        expect(got[0]).toBeInstanceOf(NDArray);
      }
    },
    T,
  );

  test(
    'a rejecting kernel gives TaskError with its key and the original error',
    async () => {
      const bad = task('test-async-throw', { message: 'late failure' });
      const err = (await rejection(
        executor.run([task('test-identity', null, [xs[0]!]), bad]),
      )) as TaskError;
      expect(isTesseraError(err, 'TaskError')).toBe(true);
      expect(err.key).toBe(bad.key);
      expect((err.cause as Error).message).toBe('late failure');
    },
    T,
  );
});

describe('runTask with an asynchronous kernel', () => {
  test('returns a promise; a synchronous kernel returns its value', async () => {
    const out = runTask(task('test-async', { ms: 1 }, [xs[1]!]), registry, resolver);
    expect(out).toBeInstanceOf(Promise);
    expect(((await out) as NDArray).toNested()).toEqual([2, -2]);
    expect(runTask(task('test-identity', null, [xs[1]!]), registry, resolver)).toBeInstanceOf(
      NDArray,
    );
  });

  test('an asynchronous kernel cannot be a step of another (fused) task', () => {
    const fused = registry.get('test-fused-step');
    expect(fused).toBeDefined();
    const err = (() => {
      try {
        runTask(task('test-fused-step', { step: 'test-async' }, [xs[0]!]), registry, resolver);
      } catch (e) {
        return e;
      }
    })() as TaskError;
    expect(isTesseraError(err, 'TaskError')).toBe(true);
    expect(err.cause).toBeInstanceOf(KernelError);
    expect(String(err.cause)).toContain("'test-async' is asynchronous");
  });
});
