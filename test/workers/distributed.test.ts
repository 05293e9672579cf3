// The 'distributed' scheduler end to end against a real Redis: a worker on this machine (in
// process, and the `tessera worker` command in a child process) runs the batches; results
// equal 'sync' bit for bit; kernel failures come back as TaskError; aborts are prompt; the
// chunks a compute put in Redis are deleted once the main thread lets go of them.
//
// Needs Redis at TESSERA_REDIS_URL (default redis://127.0.0.1:6379). Without one the tests
// are skipped, unless TESSERA_REQUIRE_REDIS=1 (as .ci/run sets), when they fail.

import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { NumberArray } from '../../src/array/dtype.ts';
import type { NDArray } from '../../src/array/ndarray.ts';
import { CancelledError, isTesseraError, type TaskError } from '../../src/errors.ts';
import {
  compute,
  cumsum,
  DistributedExecutor,
  type DistributedWorker,
  fromArray,
  lazyApply,
  mapBlocks,
  type Profile,
  random,
  rechunk,
  startDistributedWorker,
} from '../../src/index.ts';
import { redisConnection } from '../../src/workers/redis-connection.ts';
import { lazyKernels } from '../fixtures/lazy-kernels.ts';
import { cliWorker, reachable, redisUp, SECRET, url } from '../helpers/redis.ts';
import { rejection } from '../helpers/rejection.ts';

const up = await redisUp('distributed tests');
const fixtures = new URL('../fixtures/', import.meta.url).pathname;

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
/** The stored elements as plain numbers (what Array.from(data) gave before int64). */
const raw = (a: NDArray): number[] => Array.from(a.data as NumberArray);
const T = 30_000;

/** `n` elements in blocks of 2, each task busy for `ms` (kwargs carry the time). */
const busyBlocks = (n: number, ms: number) =>
  mapBlocks(
    (b: NDArray, k: { ms: number }) => {
      const until = Date.now() + k.ms;
      while (Date.now() < until) {}
      return b.data;
    },
    fromArray(new Float64Array(n), { chunks: 2 }),
    { dtype: 'float64', kwargs: { ms } },
  );

describe.runIf(up)('scheduler distributed', () => {
  const queue = `test-${randomUUID()}`;
  let cluster: DistributedExecutor;
  let worker: DistributedWorker;
  beforeAll(async () => {
    worker = await startDistributedWorker({
      redis: url,
      queue,
      workers: 2,
      secret: SECRET,
      kernels: [fixtures],
      allowSource: true,
    });
    cluster = new DistributedExecutor({ redis: url, queue, concurrency: 4, secret: SECRET });
  }, T);
  afterAll(async () => {
    await cluster?.shutdown();
    await worker?.close();
  });

  test(
    'a mixed graph equals sync bit for bit',
    async () => {
      const x = random.uniform([300, 300], { seed: 5, chunks: [70, 90] });
      const graph = [
        x.mul(2).add(1).sum({ axis: 0 }),
        x.std({ axis: 1 }),
        rechunk(x, [300, 40]).argmax({ axis: 0 }),
        x.add(x.T).mean(),
        cumsum(x.get('0:50, 0:50'), { axis: 1 }),
      ] as const;
      const got = await compute(...graph, { scheduler: cluster });
      const want = await compute(...graph, { scheduler: 'sync' });
      for (let k = 0; k < want.length; k++) {
        expect(got[k]!.shape).toEqual(want[k]!.shape);
        expect(got[k]!.dtype).toBe(want[k]!.dtype);
        expect(raw(got[k]!)).toEqual(raw(want[k]!));
      }
    },
    T,
  );

  test(
    'int64 blocks travel through Redis exactly (values past 2^53)',
    async () => {
      const data = BigInt64Array.from({ length: 60 }, (_, i) => BigInt(i - 30) * 3n ** 36n);
      const x = fromArray(data, { shape: [6, 10], chunks: [4, 3] });
      const graph = [x.mul(3).add(x), x.sum({ axis: 0 }), x.get('::-1, 1::2').rechunk(5)] as const;
      const got = await compute(...graph, { scheduler: cluster });
      const want = await compute(...graph, { scheduler: 'sync' });
      for (let k = 0; k < want.length; k++) {
        expect(got[k]!.dtype).toBe('int64');
        expect(Array.from(got[k]!.data as BigInt64Array)).toEqual(
          Array.from(want[k]!.data as BigInt64Array),
        );
      }
    },
    T,
  );

  test(
    'a profile: the workers time their tasks, each task once, lanes named by host and thread',
    async () => {
      const x = random.uniform([40, 40], { seed: 2, chunks: 10 });
      let profile: Profile | undefined;
      await compute(x.mul(2).sum(), { scheduler: cluster, onProfile: (p) => (profile = p) });
      const keys = profile!.tasks.key;
      expect(new Set(keys).size).toBe(keys.length);
      expect(keys.length).toBeGreaterThan(16);
      expect(profile!.tasks.spanOnly).toEqual([]);
      expect(profile!.lanes.every((l) => l.startsWith(`${hostname()} thread `))).toBe(true);
      // the worker's memory as it told it with its replies (here it shares this process)
      expect(profile!.memory.at(-1)!.workersRss).toBeGreaterThan(2 ** 20);
    },
    T,
  );

  test(
    'kernels by source, by module (defineKernels), async, and inline on the main thread',
    async () => {
      const data = Float64Array.from({ length: 64 }, (_, i) => (i * 37) % 64);
      const x = fromArray(data, { shape: [8, 8], chunks: [4, 8] });
      const plus = mapBlocks((b: NDArray) => (b.data as NumberArray).map((v) => v + 1), x, {
        dtype: 'float64',
      });
      const later = mapBlocks(
        async (b: NDArray) => {
          await new Promise((r) => setTimeout(r, 1));
          return (b.data as NumberArray).map((v) => v * 3);
        },
        x,
        { dtype: 'float64' },
      );
      const sorted = lazyApply(lazyKernels.sortRows, x, { axis: 1 });
      const offset = 100;
      const inline = mapBlocks((b: NDArray) => (b.data as NumberArray).map((v) => v + offset), x, {
        dtype: 'float64',
        inline: true,
      });
      const [p, l, s, i] = await compute(plus, later, sorted, inline, { scheduler: cluster });
      expect(raw(p)).toEqual(Array.from(data, (v) => v + 1));
      expect(raw(l)).toEqual(Array.from(data, (v) => v * 3));
      for (let r = 0; r < 8; r++) {
        expect(Array.from((s.data as NumberArray).subarray(8 * r, 8 * r + 8))).toEqual(
          Array.from(data.subarray(8 * r, 8 * r + 8)).sort((a, b) => a - b),
        );
      }
      expect(raw(i)).toEqual(Array.from(data, (v) => v + 100));
      // An inline function reading a result that stayed in Redis gets its values.
      const after = mapBlocks(
        (b: NDArray) => (b.data as NumberArray).map((v) => v * offset),
        plus,
        {
          dtype: 'float64',
          inline: true,
        },
      );
      const got = await compute(after, { scheduler: cluster });
      expect(raw(got)).toEqual(Array.from(data, (v) => (v + 1) * 100));
    },
    T,
  );

  test(
    'a kernel that throws gives TaskError with its key, kernel and original stack',
    async () => {
      const x = fromArray(
        Float64Array.from({ length: 20 }, (_, i) => i),
        { chunks: 5 },
      );
      const bad = mapBlocks(
        function failing(b: NDArray) {
          if (b.data[0] === 10) throw new RangeError('bad block 10');
          return b.data;
        },
        x,
        { dtype: 'float64' },
      );
      const err = (await rejection(compute(bad, { scheduler: cluster }))) as TaskError;
      expect(isTesseraError(err, 'TaskError')).toBe(true);
      expect(err.key).toMatch(/^failing-.*:\(2\)$/);
      expect(err.kernel).toContain('failing');
      const cause = err.cause as Error;
      expect(cause).toBeInstanceOf(RangeError);
      expect(cause.message).toBe('bad block 10');
      expect(cause.stack).toContain('failing');
    },
    T,
  );

  test(
    'an AbortSignal rejects with CancelledError promptly',
    async () => {
      const slow = busyBlocks(16, 300);
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 100);
      const started = performance.now();
      const err = await rejection(compute(slow, { scheduler: cluster, signal: ac.signal }));
      expect(err).toBeInstanceOf(CancelledError);
      expect(performance.now() - started).toBeLessThan(400);
    },
    T,
  );

  test(
    'the chunks a compute put in Redis are deleted once they are no longer held',
    async () => {
      const redis = new Redis(redisConnection(url));
      try {
        const own = new DistributedExecutor({ redis: url, queue, secret: SECRET });
        const prefix = (own as unknown as { prefix: string }).prefix;
        await (async () => {
          const x = fromArray(
            Float64Array.from({ length: 4096 }, (_, i) => i),
            { chunks: 512 },
          );
          const total = await compute(x.mul(2).sum(), { scheduler: own });
          expect(total.data[0]).toBe(4095 * 4096);
        })();
        let left = -1;
        for (let i = 0; i < 100 && left !== 0; i++) {
          gc();
          await new Promise((r) => setTimeout(r, 20));
          left = (await redis.keys(`${prefix}*`)).length;
        }
        expect(left).toBe(0);
        await own.shutdown();
      } finally {
        redis.disconnect();
      }
    },
    T,
  );
});

describe('no Redis, or Redis gone', () => {
  const nowhere = 'redis://127.0.0.1:1';

  test(
    'a compute and a worker fail at once, naming the URL, when no Redis answers',
    async () => {
      const cluster = new DistributedExecutor({ redis: nowhere, secret: SECRET });
      const started = performance.now();
      const err = await rejection(
        compute(random.uniform([10], { seed: 1, chunks: 5 }), { scheduler: cluster }),
      );
      expect(isTesseraError(err, 'ValueError')).toBe(true);
      expect(String(err)).toContain('no Redis answers at redis://127.0.0.1:1');
      expect(performance.now() - started).toBeLessThan(6000);
      await cluster.shutdown();
      const werr = await rejection(startDistributedWorker({ redis: nowhere, secret: SECRET }));
      expect(String(werr)).toContain('tessera worker: no Redis answers');
    },
    T,
  );

  const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;
  test.runIf(hasRedisServer)(
    'Redis stopping mid-compute fails the compute instead of leaving it waiting',
    async () => {
      const port = 20000 + Math.floor(Math.random() * 20000);
      const server = spawn('redis-server', [
        '--port',
        String(port),
        '--save',
        '',
        '--appendonly',
        'no',
      ]);
      const own = `redis://127.0.0.1:${port}`;
      for (let i = 0; i < 50 && !(await reachable(own)); i++)
        await new Promise((r) => setTimeout(r, 50));
      const queue = `gone-${randomUUID()}`;
      const worker = await startDistributedWorker({
        redis: own,
        queue,
        workers: 1,
        secret: SECRET,
        allowSource: true,
      });
      const cluster = new DistributedExecutor({ redis: own, queue, secret: SECRET });
      try {
        const slow = busyBlocks(8, 500);
        const run = rejection(compute(slow, { scheduler: cluster }));
        await new Promise((r) => setTimeout(r, 300));
        server.kill('SIGKILL');
        const err = await run;
        expect(isTesseraError(err, 'WorkerCrashedError')).toBe(true);
        expect(String(err)).toContain(`lost the connection to Redis at ${own}`);
      } finally {
        server.kill('SIGKILL');
        await Promise.race([cluster.shutdown(), new Promise((r) => setTimeout(r, 2000))]);
        await Promise.race([worker.close(), new Promise((r) => setTimeout(r, 2000))]);
      }
    },
    T,
  );
});

describe.runIf(up)('tessera worker (the command)', () => {
  test(
    'serves computes from a child process and exits on SIGTERM',
    async () => {
      const queue = `cli-${randomUUID()}`;
      const { child, exited } = await cliWorker(queue, ['--workers', '1', '--allow-source']);
      const cluster = new DistributedExecutor({ redis: url, queue, secret: SECRET });
      try {
        const x = random.uniform([100, 100], { seed: 2, chunks: 25 });
        const got = await compute(x.sum({ axis: 1 }), { scheduler: cluster });
        const want = await compute(x.sum({ axis: 1 }), { scheduler: 'sync' });
        expect(raw(got)).toEqual(raw(want));
      } finally {
        await cluster.shutdown();
        child.kill('SIGTERM');
        expect((await exited).code).toBe(0);
      }
    },
    T,
  );

  test(
    'a worker that dies mid-job: its job moves to another worker and the compute completes',
    async () => {
      const queue = `cli-${randomUUID()}`;
      const a = await cliWorker(queue, ['--workers', '1', '--lock-ms', '1000', '--allow-source']);
      const b = await cliWorker(queue, ['--workers', '1', '--lock-ms', '1000', '--allow-source']);
      const marker = join(tmpdir(), `tessera-crash-${randomUUID()}`);
      const cluster = new DistributedExecutor({
        redis: url,
        queue,
        concurrency: 1,
        secret: SECRET,
      });
      try {
        const x = fromArray(
          Float64Array.from({ length: 40 }, (_, i) => i),
          { chunks: 10 },
        );
        // The first worker to run block 0 leaves a marker and kills its own process.
        const y = mapBlocks(
          (blk: NDArray, k: { marker: string }) => {
            const fs = process.getBuiltinModule('node:fs') as typeof import('node:fs');
            if (blk.data[0] === 0 && !fs.existsSync(k.marker)) {
              fs.writeFileSync(k.marker, 'crashed');
              process.kill(process.pid, 'SIGKILL');
            }
            return (blk.data as NumberArray).map((v) => v * 2);
          },
          x,
          { dtype: 'float64', kwargs: { marker } },
        );
        const got = await compute(y, { scheduler: cluster });
        expect(raw(got)).toEqual(Array.from({ length: 40 }, (_, i) => 2 * i));
        const died = await Promise.race([a.exited, b.exited]);
        expect(died.signal).toBe('SIGKILL');
      } finally {
        await cluster.shutdown();
        for (const w of [a, b]) w.child.kill('SIGTERM');
        await Promise.all([a.exited, b.exited]);
        rmSync(marker, { force: true });
      }
    },
    T,
  );
});
