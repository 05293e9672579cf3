import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { NDArray, ndarray } from '../../src/array/ndarray.ts';
import {
  CancelledError,
  isTesseraError,
  KernelError,
  type TaskError,
  type WorkerCrashedError,
} from '../../src/errors.ts';
import { ThreadPoolExecutor } from '../../src/workers/pool.ts';
import type { PoolExecutor, PoolOptions } from '../../src/workers/pool-executor.ts';
import { ProcessPoolExecutor } from '../../src/workers/process-pool.ts';
import type { TaskPayload } from '../../src/workers/types.ts';
import { registryModule } from '../fixtures/test-kernels.ts';
import { task } from '../helpers/payload.ts';
import { rejection } from '../helpers/rejection.ts';

// A process starts in ~1 s under tsx on 2 busy cores; crashes respawn one.
const T = 30_000;

const x = ndarray([1, 2, 3]);
const ok = (): TaskPayload => task('test-identity', null, [x]);

const kinds: [string, (o: PoolOptions) => PoolExecutor][] = [
  ['ThreadPoolExecutor', (o) => new ThreadPoolExecutor(o)],
  ['ProcessPoolExecutor', (o) => new ProcessPoolExecutor(o)],
];

describe.each(kinds)('%s: failures', (_, makePool) => {
  let pool: PoolExecutor;
  beforeAll(async () => {
    pool = makePool({ workers: 2, registryModule, abortGraceMs: 1000 });
    await pool.run([ok(), ok()]); // both members started: timings below exclude start-up
  }, T);
  afterAll(() => pool.shutdown());

  test(
    'a kernel throw gives TaskError with key, kernel and the original stack',
    async () => {
      const bad = task('test-throw', { message: 'bad block' });
      const err = (await rejection(pool.run([ok(), bad, ok()]))) as TaskError;
      expect(isTesseraError(err, 'TaskError')).toBe(true);
      expect(err.key).toBe(bad.key);
      expect(err.kernel).toBe('test-throw');
      expect(err.message).toContain('bad block');
      const cause = err.cause as Error;
      expect(cause).toBeInstanceOf(RangeError);
      expect(cause.message).toBe('bad block');
      expect(cause.stack).toContain('test-kernels.ts');
      expect(cause.stack).toContain('throwsHere');
    },
    T,
  );

  test(
    'an unknown kernel name gives KernelError',
    async () => {
      const err = await rejection(pool.run([task('no-such-kernel', null)]));
      expect(err).toBeInstanceOf(KernelError);
      expect(String(err)).toContain("'no-such-kernel'");
    },
    T,
  );

  test(
    'process.exit in a kernel gives WorkerCrashedError naming the task; the pool recovers',
    async () => {
      const exit = task('test-exit', { code: 7 });
      const err = (await rejection(pool.run([ok(), exit, ok()]))) as WorkerCrashedError;
      expect(isTesseraError(err, 'WorkerCrashedError')).toBe(true);
      expect(err.key).toBe(exit.key);
      expect(err.message).toContain('exit code 7');
      for (let round = 0; round < 3; round++) {
        const got = await pool.run([ok(), ok(), ok(), ok()]);
        expect(got.map((c) => (c as NDArray).toNested())).toEqual(Array(4).fill([1, 2, 3]));
      }
    },
    T,
  );

  test(
    'several crashes in a row are each reported and replaced',
    async () => {
      for (let i = 0; i < 2; i++) {
        const err = await rejection(pool.run([task('test-exit', { code: 1 })]));
        expect(isTesseraError(err, 'WorkerCrashedError')).toBe(true);
      }
      const [y] = await pool.run([ok()]);
      expect(y).toBeInstanceOf(NDArray);
    },
    T,
  );

  test(
    'an abort rejects with CancelledError at once, while the kernel still runs',
    async () => {
      const ac = new AbortController();
      const started = performance.now();
      // shorter than the abort grace period (1 s), so the member finishes it and is kept
      const run = pool.run([task('test-sleep', { ms: 600 }, [x])], ac.signal);
      setTimeout(() => ac.abort(), 50);
      const err = await rejection(run);
      expect(err).toBeInstanceOf(CancelledError);
      expect(performance.now() - started).toBeLessThan(400);
    },
    T,
  );

  test(
    'an aborted batch stops between tasks, freeing its worker',
    async () => {
      const ac = new AbortController();
      const sleepy = Array.from({ length: 40 }, () => task('test-sleep', { ms: 25 }, [x]));
      const run = pool.run(sleepy, ac.signal);
      setTimeout(() => ac.abort(), 60);
      expect(await rejection(run)).toBeInstanceOf(CancelledError);
      // Without the cancel flag the workers would stay busy for ~0.5 s more.
      const started = performance.now();
      await pool.run([ok(), ok()]);
      expect(performance.now() - started).toBeLessThan(250);
    },
    T,
  );

  test(
    'an already aborted signal rejects without running anything',
    async () => {
      const err = await rejection(pool.run([task('test-exit', { code: 1 })], AbortSignal.abort()));
      expect(err).toBeInstanceOf(CancelledError);
    },
    T,
  );

  test(
    'shutdown rejects runs in flight and later runs with CancelledError',
    async () => {
      const doomed = makePool({ workers: 1, registryModule });
      const run = rejection(doomed.run([task('test-sleep', { ms: 2000 }, [x])]));
      await new Promise((r) => setTimeout(r, 100));
      const started = performance.now();
      await doomed.shutdown();
      expect(await run).toBeInstanceOf(CancelledError);
      expect(performance.now() - started).toBeLessThan(1000);
      expect(await rejection(doomed.run([ok()]))).toBeInstanceOf(CancelledError);
    },
    T,
  );

  test(
    'a registry module that fails to load fails the run instead of respawning forever',
    async () => {
      const broken = makePool({ workers: 1, registryModule: 'file:///nonexistent/kernels.ts' });
      try {
        const err = await rejection(broken.run([ok()]));
        expect(isTesseraError(err, 'WorkerCrashedError')).toBe(true);
        expect(String(err)).toContain('failed to start');
      } finally {
        await broken.shutdown();
      }
    },
    T,
  );
});

describe('ThreadPoolExecutor: heap limits', () => {
  test(
    'a worker out of heap memory gives WorkerCrashedError and is replaced',
    async () => {
      const small = new ThreadPoolExecutor({
        workers: 1,
        registryModule,
        resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 },
      });
      try {
        const oom = task('test-oom', null);
        const err = (await rejection(small.run([oom]))) as WorkerCrashedError;
        expect(isTesseraError(err, 'WorkerCrashedError')).toBe(true);
        expect(err.key).toBe(oom.key);
        expect(err.message).toMatch(/memory limit/);
        const [y] = await small.run([ok()]);
        expect((y as NDArray).toNested()).toEqual([1, 2, 3]);
      } finally {
        await small.shutdown();
      }
    },
    T,
  );
});
