// Aborts and timeouts against kernels that never return (a busy loop, an async kernel that
// never settles): the run rejects at once, the stuck member is terminated after the grace
// period and replaced, so after every member has been stuck a normal run still succeeds.

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import { ndarray } from '../../src/array/ndarray.ts';
import { config } from '../../src/config.ts';
import { isTesseraError } from '../../src/errors.ts';
import { compute, fromArray, mapBlocks, type NDArray } from '../../src/index.ts';
import { ThreadPoolExecutor } from '../../src/workers/pool.ts';
import type { PoolExecutor, PoolOptions } from '../../src/workers/pool-executor.ts';
import { ProcessPoolExecutor } from '../../src/workers/process-pool.ts';
import { stuck } from '../fixtures/stuck-kernels.ts';
import { registryModule } from '../fixtures/test-kernels.ts';
import { task } from '../helpers/payload.ts';
import { rejection } from '../helpers/rejection.ts';

const T = 60_000;
const GRACE = 200;
const x = ndarray([1, 2, 3]);
const ok = () => task('test-identity', null, [x]);

const pools: PoolExecutor[] = [];
const marks: string[] = [];
afterAll(async () => {
  await Promise.all(pools.map((p) => p.shutdown()));
  for (const dir of marks) rmSync(dir, { recursive: true, force: true });
});

const kinds: [string, (o: PoolOptions) => PoolExecutor][] = [
  ['ThreadPoolExecutor', (o) => new ThreadPoolExecutor(o)],
  ['ProcessPoolExecutor', (o) => new ProcessPoolExecutor(o)],
];

/** Whether process `pid` is gone. */
const exited = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
};

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = performance.now() + ms;
  while (!check() && performance.now() < end) await new Promise((r) => setTimeout(r, 20));
  return check();
}

describe.each(kinds)('%s: kernels that never return', (name, makePool) => {
  const pool = makePool({ workers: 2, registryModule, abortGraceMs: GRACE });
  pools.push(pool);

  test.each(['test-spin', 'test-hang'])(
    'aborted %s batches free both members again and again; then a run succeeds',
    async (kernel) => {
      const stuckIds: number[] = [];
      for (let round = 0; round < 2; round++) {
        await pool.run([ok(), ok()]);
        // A batch aborted before its member starts it is cancelled without running (a member
        // still starting, or a slot still held by a member stuck last round): the kernels say
        // when they run, and the abort comes once both do, so both members are stuck.
        const mark = mkdtempSync(join(tmpdir(), 'tessera-stuck-'));
        marks.push(mark);
        const started = (): number[] => readdirSync(mark).map(Number);
        const ac = new AbortController();
        // one run per member: a run of two tasks may go to one member as one batch
        const runs = [0, 1].map(() => pool.run([task(kernel, { mark }, [x])], ac.signal));
        // a member runs one batch at a time: two marks are two members, each stuck
        expect(await until(() => started().length === 2, 20_000)).toBe(true);
        stuckIds.push(...started());
        const aborted = performance.now();
        ac.abort(new Error(`stop ${round}`));
        for (const run of runs) {
          expect(isTesseraError(await rejection(run), 'CancelledError')).toBe(true);
        }
        expect(performance.now() - aborted).toBeLessThan(GRACE);
      }
      const started = performance.now();
      const got = await pool.run([ok(), ok(), ok()]);
      expect(got.map((c) => (c as NDArray).toNested())).toEqual(Array(3).fill([1, 2, 3]));
      // waited for the grace period and a restart, not forever
      expect(performance.now() - started).toBeLessThan(20_000);
      // the run may finish on one replacement before the other stuck member's exit is seen
      // (a loaded machine): every stuck one is still gone within a bound
      await until(
        () => pool.liveMembers === 2 && pool.memberIds().every((id) => !stuckIds.includes(id)),
        10_000,
      );
      expect(pool.liveMembers).toBe(2);
      const now = pool.memberIds();
      expect(now).toHaveLength(2);
      // four members were stuck, each terminated and replaced
      expect(new Set(stuckIds).size).toBe(4);
      expect(now.filter((id) => stuckIds.includes(id))).toEqual([]);
      if (name === 'ProcessPoolExecutor') {
        expect(await until(() => stuckIds.every(exited), 5000)).toBe(true);
      }
    },
    T,
  );

  test(
    'a kernel that returns within the grace period keeps its member',
    async () => {
      await pool.run([ok(), ok()]);
      const before = pool.memberIds();
      const ac = new AbortController();
      const run = pool.run([task('test-sleep', { ms: 100 }, [x])], ac.signal);
      setTimeout(() => ac.abort(), 20);
      expect(isTesseraError(await rejection(run), 'CancelledError')).toBe(true);
      await new Promise((r) => setTimeout(r, GRACE + 200));
      expect(pool.memberIds().sort()).toEqual(before.sort());
    },
    T,
  );
});

describe('compute: timeout and signal on pools, with defineKernels kernels', () => {
  const blocks = () => fromArray(new Float64Array(4).fill(1), { chunks: 2 });

  test.each(kinds)(
    '%s: timeouts and aborts of stuck computes, every worker stuck once, then a compute',
    async (_, makePool) => {
      const pool = makePool({ workers: 2, abortGraceMs: GRACE });
      pools.push(pool);
      const warm = await compute(mapBlocks(stuck.double, blocks(), { dtype: 'float64' }), {
        scheduler: pool,
      });
      expect(Array.from(warm.data as NumberArray)).toEqual([2, 2, 2, 2]);
      const first = pool.memberIds();
      // two blocks: both members stuck in each compute
      const timedOut = await rejection(
        compute(mapBlocks(stuck.spin, blocks(), { dtype: 'float64' }), {
          scheduler: pool,
          timeout: 100,
        }),
      );
      expect(isTesseraError(timedOut, 'TimeoutError')).toBe(true);
      expect(String(timedOut)).toContain('TimeoutError: compute: timed out after 100 ms');
      expect((timedOut as Error).cause).toBeInstanceOf(Error);
      expect(((timedOut as Error).cause as Error).name).toBe('TimeoutError');

      // a normal compute waits out the grace period: both stuck workers are replaced
      const between = await compute(mapBlocks(stuck.double, blocks(), { dtype: 'float64' }), {
        scheduler: pool,
      });
      expect(Array.from(between.data as NumberArray)).toEqual([2, 2, 2, 2]);
      const second = pool.memberIds();
      expect(second.filter((id) => first.includes(id))).toEqual([]);

      const ac = new AbortController();
      const reason = new Error('the user pressed stop');
      setTimeout(() => ac.abort(reason), 100);
      const aborted = await rejection(
        compute(mapBlocks(stuck.hang, blocks(), { dtype: 'float64' }), {
          scheduler: pool,
          signal: ac.signal,
          timeout: 10_000,
        }),
      );
      expect(isTesseraError(aborted, 'CancelledError')).toBe(true);
      expect((aborted as Error).cause).toBe(reason);

      const y = await compute(mapBlocks(stuck.double, blocks(), { dtype: 'float64' }), {
        scheduler: pool,
        timeout: 30_000,
      });
      expect(Array.from(y.data as NumberArray)).toEqual([2, 2, 2, 2]);
      expect(pool.liveMembers).toBe(2);
      expect(pool.memberIds().filter((id) => [...first, ...second].includes(id))).toEqual([]);
    },
    T,
  );

  test(
    'the default grace period is config.abortGraceMs (1 s)',
    async () => {
      expect(config.abortGraceMs).toBe(1000);
      const pool = new ThreadPoolExecutor({ workers: 1 });
      pools.push(pool);
      await compute(mapBlocks(stuck.double, blocks(), { dtype: 'float64' }), { scheduler: pool });
      const err = await rejection(
        compute(mapBlocks(stuck.spin, blocks(), { dtype: 'float64' }), {
          scheduler: pool,
          timeout: 50,
        }),
      );
      expect(isTesseraError(err, 'TimeoutError')).toBe(true);
      const started = performance.now();
      await compute(mapBlocks(stuck.double, blocks(), { dtype: 'float64' }), { scheduler: pool });
      const waited = performance.now() - started;
      // the stuck worker held the only slot for the rest of its grace period, not longer
      expect(waited).toBeGreaterThan(700);
      expect(waited).toBeLessThan(15_000);
    },
    T,
  );

  test('a bad timeout or grace period fails at once', async () => {
    for (const timeout of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      const err = await rejection(compute(blocks(), { scheduler: 'sync', timeout }));
      expect(isTesseraError(err, 'ValueError'), String(timeout)).toBe(true);
      expect(String(err)).toContain(`compute: timeout ${timeout} must be a positive number`);
    }
    expect(() => new ThreadPoolExecutor({ abortGraceMs: -1 })).toThrow(
      'ThreadPoolExecutor: abortGraceMs -1 is not a non-negative number',
    );
  });
});
