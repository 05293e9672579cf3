// The process pool: results equal to 'sync' through compute(), wrapped data through the
// buffer cache, kernels shipped by source and by module, and the failures only processes
// survive: a native crash (SIGSEGV, abort()) or V8's heap limit gives WorkerCrashedError
// naming the task and the pool replaces the process. The failures every pool shares are in
// pool-failures.test.ts.

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { lazyApply } from '../../src/apply/lazy-apply.ts';
import { mapBlocks } from '../../src/apply/map-blocks.ts';
import { compute } from '../../src/array/compute.ts';
import type { NumberArray } from '../../src/array/dtype.ts';
import { fromArray } from '../../src/array/from-array.ts';
import { NDArray, ndarray } from '../../src/array/ndarray.ts';
import { isTesseraError, type WorkerCrashedError } from '../../src/errors.ts';
import { type Profile, random, rechunk } from '../../src/index.ts';
import { shutdownDefaultPool } from '../../src/workers/pool.ts';
import { ProcessPoolExecutor } from '../../src/workers/process-pool.ts';
import type { TaskPayload } from '../../src/workers/types.ts';
import { lazyKernels } from '../fixtures/lazy-kernels.ts';
import { registryModule } from '../fixtures/test-kernels.ts';
import { captureStderr } from '../helpers/capture-stderr.ts';
import { task } from '../helpers/payload.ts';
import { rejection } from '../helpers/rejection.ts';

// A process starts in ~1 s under tsx on 2 busy cores; crashes respawn one.
const T = 30_000;
let pool: ProcessPoolExecutor;

beforeAll(() => {
  pool = new ProcessPoolExecutor({ workers: 2, registryModule });
});
afterAll(async () => {
  await pool.shutdown();
  await shutdownDefaultPool();
});

/** Resident bytes of process `pid` (Linux). */
function residentBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line!.split(/\s+/)[1]) * 1024;
}

const x = ndarray([1, 2, 3]);
const ok = (): TaskPayload => task('test-identity', null, [x]);

async function expectServes(p: ProcessPoolExecutor): Promise<void> {
  const got = await p.run([ok(), ok(), ok()]);
  expect(got.map((c) => (c as NDArray).toNested())).toEqual(Array(3).fill([1, 2, 3]));
}

describe('ProcessPoolExecutor: results', () => {
  test(
    'results come back as NDArrays with their dtype and shape, in task order',
    async () => {
      const i32 = new NDArray(Int32Array.from([5, 6, 7, 8]), [2, 2], 'int32');
      const got = await pool.run([
        task('test-view', null, [x]),
        task('test-identity', null, [i32]),
      ]);
      expect(got[0]).toBeInstanceOf(NDArray);
      expect((got[0] as NDArray).toNested()).toEqual([2, 3]);
      expect((got[1] as NDArray).dtype).toBe('int32');
      expect((got[1] as NDArray).toNested()).toEqual([
        [5, 6],
        [7, 8],
      ]);
    },
    T,
  );

  test(
    // on this file's pool: the 'processes' name is resolved by the tests that compute on it
    // (async-fns, zarr, dashboard, demo), and its default pool costs two more process starts
    "compute() on a process pool equals 'sync' bit for bit on a mixed graph",
    async () => {
      const a = random.uniform([300, 200], { seed: 3, chunks: [70, 45] });
      const graph = [
        a.mul(2).add(1).sum({ axis: 0 }),
        a.std({ axis: 1 }),
        rechunk(a, [200, 30]).argmax({ axis: 0 }),
        a.add(a.get('::-1, :')).mean(),
      ] as const;
      const got = await compute(...graph, { scheduler: pool });
      const want = await compute(...graph, { scheduler: 'sync' });
      for (let k = 0; k < want.length; k++) {
        expect(got[k]!.dtype).toBe(want[k]!.dtype);
        expect(got[k]!.shape).toEqual(want[k]!.shape);
        expect(Array.from(got[k]!.data as NumberArray)).toEqual(
          Array.from(want[k]!.data as NumberArray),
        );
      }
    },
    T,
  );

  test(
    'wrapped data larger than the cache threshold is read by every block correctly',
    async () => {
      // 2 MiB: twice MIN_CACHED_BYTES
      const data = Float64Array.from({ length: 256 * 1024 }, (_, i) => (i * 7919) % 1000);
      const x = fromArray(data, { shape: [256, 1024], chunks: [100, 300] });
      const graph = [x.mul(2).sum({ axis: 0 }), x.T.add(x.get(':, ::2').sum()).max()] as const;
      for (let round = 0; round < 2; round++) {
        const got = await compute(...graph, { scheduler: pool });
        const want = await compute(...graph, { scheduler: 'sync' });
        for (let k = 0; k < want.length; k++) {
          expect(Array.from(got[k]!.data as NumberArray)).toEqual(
            Array.from(want[k]!.data as NumberArray),
          );
        }
      }
    },
    T,
  );

  test(
    'wrapped shared data changed in place between computes is read afresh, as threads read it',
    async () => {
      const data = new Float64Array(new SharedArrayBuffer(8 * 2 ** 18)).fill(1);
      const x = fromArray(data, { chunks: 2 ** 15 }).sum();
      expect((await compute(x, { scheduler: pool })).data[0]).toBe(2 ** 18);
      data.fill(2);
      expect((await compute(x, { scheduler: pool })).data[0]).toBe(2 ** 19);
      expect((await compute(x, { scheduler: 'threads', workers: 1 })).data[0]).toBe(2 ** 19);
    },
    T,
  );

  test(
    "a profile holds the worker processes' memory, as each process told it",
    async () => {
      const a = random.uniform([400, 400], { seed: 4, chunks: [50, 50] });
      let profile: Profile | undefined;
      await compute(a.mul(2).sum({ axis: 0 }), {
        scheduler: pool,
        onProfile: (p) => (profile = p),
      });
      const { lanes, memory } = profile!;
      expect(lanes.length).toBeGreaterThan(0);
      expect(lanes.every((l) => /^process \d+$/.test(l))).toBe(true);
      const last = memory.at(-1)!;
      // the workers' resident sets now, from the system: what they told is of that size
      const now = lanes.map((l) => residentBytes(Number(l.split(' ')[1])));
      const sum = now.reduce((x, y) => x + y, 0);
      expect(last.workersRss).toBeGreaterThan(sum / 2);
      expect(last.workersRss).toBeLessThan(sum * 2);
    },
    T,
  );

  test(
    'kernels shipped by source and by module run in more than one process',
    async () => {
      const data = Float64Array.from({ length: 64 }, (_, i) => i);
      const y = fromArray(data, { chunks: 8 });
      // By source: a self-contained function; it reports the process that ran it.
      const pids = mapBlocks((b: NDArray) => new Float64Array(b.size).fill(process.pid), y, {
        dtype: 'float64',
      });
      const sorted = lazyApply(lazyKernels.sortRows, y.get('::-1').reshape([8, 8]), { axis: 1 });
      const [p, s] = await compute(pids, sorted, { scheduler: pool });
      expect(new Set(p.data as NumberArray).has(process.pid)).toBe(false);
      expect(new Set(p.data as NumberArray).size).toBeGreaterThanOrEqual(1);
      const want = Array.from({ length: 8 }, (_, r) =>
        Array.from({ length: 8 }, (_, c) => 63 - 8 * r - 7 + c),
      );
      expect(s.toNested()).toEqual(want);
    },
    T,
  );
});

describe('ProcessPoolExecutor: failures', () => {
  // one pool of one process for both crashes: abort() kills the process that replaced the
  // segfaulted one
  let solo: ProcessPoolExecutor;
  beforeAll(() => {
    solo = new ProcessPoolExecutor({ workers: 1, registryModule });
  });
  afterAll(() => solo.shutdown());

  test.each([
    ['a segfault', 'test-segfault', /killed by SIGSEGV/],
    ['abort()', 'test-abort', /killed by SIGABRT/],
  ])(
    '%s in a kernel gives WorkerCrashedError naming the task; the process is replaced',
    async (_, kernel, why) => {
      // The crash is the third task of its batch: the key must be its own, not the first's.
      const crash = task(kernel, { code: 7 });
      const { value } = await captureStderr(() => rejection(solo.run([ok(), ok(), crash, ok()])));
      const err = value as WorkerCrashedError;
      expect(isTesseraError(err, 'WorkerCrashedError')).toBe(true);
      expect(err.key).toBe(crash.key);
      expect(err.message).toMatch(why);
      await expectServes(solo);
      await expectServes(solo);
    },
    T,
  );

  test(
    'a native crash during compute() rejects it, and the next compute works',
    async () => {
      const y = fromArray(
        Float64Array.from({ length: 40 }, (_, i) => i),
        { chunks: 10 },
      );
      const crashing = mapBlocks(
        (b: NDArray) => {
          if (b.data[0] === 20) process.kill(process.pid, 'SIGSEGV');
          return b.data;
        },
        y,
        { dtype: 'float64' },
      );
      const err = (await rejection(compute(crashing.sum(), { scheduler: pool }))) as Error;
      expect(isTesseraError(err, 'WorkerCrashedError')).toBe(true);
      expect(err.message).toMatch(/killed by SIGSEGV/);
      const total = await compute(y.sum(), { scheduler: pool });
      expect(total.data[0]).toBe(780);
    },
    T,
  );

  test(
    'a process over its heap limit gives WorkerCrashedError and is replaced',
    async () => {
      const small = new ProcessPoolExecutor({
        workers: 1,
        registryModule,
        maxOldGenerationSizeMb: 48,
      });
      try {
        const oom = task('test-oom', null);
        // V8's FATAL ERROR report goes to the captured stderr, not into the test log
        const { value, text } = await captureStderr(() => rejection(small.run([oom])));
        expect(text).toContain('FATAL ERROR');
        const err = value as WorkerCrashedError;
        expect(isTesseraError(err, 'WorkerCrashedError')).toBe(true);
        expect(err.key).toBe(oom.key);
        expect(err.message).toMatch(/killed by SIGABRT \(FATAL ERROR: .*heap/);
        await expectServes(small);
      } finally {
        await small.shutdown();
      }
    },
    T,
  );

  test(
    'a registry module that fails to load fails the run, naming the cause',
    async () => {
      const broken = new ProcessPoolExecutor({
        workers: 1,
        registryModule: 'file:///nonexistent/kernels.ts',
      });
      try {
        const err = await rejection(broken.run([ok()]));
        expect(isTesseraError(err, 'WorkerCrashedError')).toBe(true);
        expect(String(err)).toContain('failed to start');
        expect(String(err)).toContain('nonexistent');
      } finally {
        await broken.shutdown();
      }
    },
    T,
  );
});
